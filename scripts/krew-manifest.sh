#!/usr/bin/env bash
# Renders the krew manifest: scripts/krew-manifest.sh VERSION OWNER/REPO SHA256SUMS
#
# Prints krew/fleetplan.yaml, less its comments, with @VERSION@ and @REPOSITORY@ replaced and each
# @SHA256:TARGET@ replaced by the checksum SHA256SUMS gives fleetplan-vVERSION-TARGET.tar.gz.
# Fails, printing nothing, when an archive is missing from SHA256SUMS or a placeholder is left.
set -euo pipefail

die() {
    echo "krew-manifest.sh: $*" >&2
    exit 1
}

[ $# -eq 3 ] || die "usage: scripts/krew-manifest.sh VERSION OWNER/REPO SHA256SUMS"
version=$1 repository=$2 sums=$3
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] ||
    die "VERSION must be a semantic version without the v (0.2.0), not '$version'"
[[ $repository =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "not an OWNER/REPO: '$repository'"
[ -f "$sums" ] || die "no checksum file at $sums"
template="$(cd "$(dirname "$0")/.." && pwd)/krew/fleetplan.yaml"

rendered=$(awk -v version="$version" -v repository="$repository" -v sums="$sums" '
    BEGIN {
        while ((getline line < sums) > 0) {
            split(line, field, /[ \t]+/)
            name = field[2]
            sub(/^\*/, "", name)
            sha[name] = field[1]
        }
    }
    /^[ \t]*#/ { next }
    {
        gsub(/@VERSION@/, version)
        gsub(/@REPOSITORY@/, repository)
        if (match($0, /@SHA256:[a-z0-9_-]+@/)) {
            target = substr($0, RSTART + 8, RLENGTH - 9)
            archive = "fleetplan-v" version "-" target ".tar.gz"
            if (!(archive in sha) || sha[archive] !~ /^[0-9a-f]+$/ || length(sha[archive]) != 64) {
                print "krew-manifest.sh: " sums " has no checksum for " archive > "/dev/stderr"
                exit 1
            }
            $0 = substr($0, 1, RSTART - 1) sha[archive] substr($0, RSTART + RLENGTH)
        }
        print
    }' "$template")
if grep -q '@[A-Z0-9:_-]*@' <<<"$rendered"; then
    die "placeholders left in the manifest: $(grep -o '@[A-Z0-9:_-]*@' <<<"$rendered" | sort -u | tr '\n' ' ')"
fi
printf '%s\n' "$rendered"
