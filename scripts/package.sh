#!/usr/bin/env bash
# Packs one release archive: scripts/package.sh VERSION TARGET BINARY OUTDIR
#
# Writes OUTDIR/fleetplan-vVERSION-TARGET.tar.gz (one folder of that name holding the binary,
# completions/, man/, README.md and LICENSE) and OUTDIR/fleetplan-vVERSION-TARGET.tar.gz.sha256
# (`sha256sum` format; the release concatenates them into SHA256SUMS). Every target, Windows
# too, gets a .tar.gz: krew, cargo-binstall, the Action's install script and Windows' own tar
# read it. Used by .github/workflows/release.yml and by tests/cli/install.rs, so the layout the
# tests install from is the one the release ships.
set -euo pipefail

die() {
    echo "package.sh: $*" >&2
    exit 1
}

[ $# -eq 4 ] || die "usage: scripts/package.sh VERSION TARGET BINARY OUTDIR"
version=$1 target=$2 binary=$3 outdir=$4
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] ||
    die "VERSION must be a semantic version without the v (0.2.0), not '$version'"
[[ $target =~ ^[a-z0-9_]+(-[a-z0-9_]+)+$ ]] || die "TARGET is not a target triple: '$target'"
[ -f "$binary" ] || die "no binary at $binary"

root=$(cd "$(dirname "$0")/.." && pwd)
exe=fleetplan
case "$target" in *-windows-*) exe=fleetplan.exe ;; esac
name="fleetplan-v$version-$target"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$outdir"
cp "$binary" "$stage/$name/$exe"
chmod 755 "$stage/$name/$exe"
cp -R "$root/completions" "$root/man" "$stage/$name/"
cp "$root/README.md" "$root/LICENSE" "$stage/$name/"

# Sorted names, fixed owner and no timestamps beyond the files' own: the same inputs pack to
# the same listing on every runner.
(cd "$stage" && find "$name" -print | LC_ALL=C sort >"$stage/files")
tar -C "$stage" -czf "$outdir/$name.tar.gz" --no-recursion -T "$stage/files" \
    --owner=0 --group=0 2>/dev/null ||
    tar -C "$stage" -czf "$outdir/$name.tar.gz" --no-recursion -T "$stage/files"

if command -v sha256sum >/dev/null; then
    sum=$(sha256sum "$outdir/$name.tar.gz")
else
    sum=$(shasum -a 256 "$outdir/$name.tar.gz")
fi
echo "${sum%% *}  $name.tar.gz" >"$outdir/$name.tar.gz.sha256"
echo "$outdir/$name.tar.gz"
