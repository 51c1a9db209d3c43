#!/usr/bin/env bash
# Installs fleetplan into DIR/bin: the release archive for this machine, checked against the
# release's SHA256SUMS, or, for a ref without a release, `cargo install --locked` of a source
# tree. The GitHub Action (action.yml) runs it; it works by hand too:
#
#   bash scripts/install.sh --version 0.2.0 --dir ~/.local    # then ~/.local/bin/fleetplan
#
#   --dir DIR          install into DIR/bin (required)
#   --version VERSION  0.2.0, v0.2.0 or latest
#   --source PATH      a fleetplan source tree: built with cargo when VERSION is empty, is not
#                      a version (a branch or a commit), or has no release (or no archive for
#                      this machine); without it those are errors
#
# Environment: FLEETPLAN_RELEASES, the releases' base URL (default the GitHub project's
# /releases: VERSION's files are under download/vVERSION/, the newest under latest/download/;
# tests use a file:// URL of a folder laid out the same way); RUNNER_OS and RUNNER_ARCH (set on
# GitHub runners; else uname) pick the archive; CARGO, the cargo to build with.
set -euo pipefail

die() {
    echo "install.sh: $*" >&2
    exit 1
}

dir='' version='' source=''
while [ $# -gt 0 ]; do
    case "$1" in
    --dir | --version | --source)
        [ $# -ge 2 ] || die "$1 needs a value"
        case "$1" in
        --dir) dir=$2 ;;
        --version) version=$2 ;;
        --source) source=$2 ;;
        esac
        shift 2
        ;;
    *) die "unknown argument '$1' (expected --dir DIR, --version VERSION, --source PATH)" ;;
    esac
done
[ -n "$dir" ] || die "--dir DIR is required"
releases=${FLEETPLAN_RELEASES:-https://github.com/fleetplan/fleetplan/releases}
releases=${releases%/}

# The Rust target of the release archive this machine runs, from the runner's names (GitHub)
# or uname's.
os=${RUNNER_OS:-$(uname -s)}
arch=${RUNNER_ARCH:-$(uname -m)}
host_target() {
    local cpu
    case "$arch" in
    X64 | x86_64 | amd64) cpu=x86_64 ;;
    ARM64 | aarch64 | arm64) cpu=aarch64 ;;
    *) return 1 ;;
    esac
    case "$os" in
    Linux) echo "$cpu-unknown-linux-musl" ;;
    macOS | Darwin) echo "$cpu-apple-darwin" ;;
    # Windows on Arm runs the x86_64 build under emulation.
    Windows | MINGW* | MSYS* | CYGWIN*) echo "x86_64-pc-windows-msvc" ;;
    *) return 1 ;;
    esac
}

# The exit status of a step that found no release to install (no such release, or no archive
# for this machine), told apart from every other failure.
NONE=10

# Downloads $1 to $2. Exit status $NONE: the file does not exist; 1: any other failure
# (network, TLS), which is never taken for "no release".
fetch() {
    local status=0
    curl --proto '=https,file' --proto-redir '=https' -fsSL --retry 3 -o "$2" "$1" || status=$?
    case "$status" in
    0) return 0 ;;
    22 | 37) return "$NONE" ;; # HTTP 4xx/5xx, or a file:// path that is not there
    *) echo "install.sh: downloading $1 failed (curl exit $status)" >&2 && return 1 ;;
    esac
}

sha256_of() {
    local sum
    if command -v sha256sum >/dev/null; then
        sum=$(sha256sum "$1")
    else
        sum=$(shasum -a 256 "$1")
    fi
    echo "${sum%% *}"
}

# Installs the release archive; exit status $NONE when there is none to install. Run in a
# subshell, so that `set -e` holds inside it and its trap cleans up when it ends.
install_release() {
    local path target work asset expected actual exe
    case "$version" in
    latest) path=latest/download ;;
    v*) path=download/$version ;;
    *) path=download/v$version ;;
    esac
    target=$(host_target) || {
        echo "install.sh: no release archive is built for $os $arch" >&2
        return "$NONE"
    }
    work=$(mktemp -d)
    # shellcheck disable=SC2064 # expand $work now: it is local
    trap "rm -rf '$work'" EXIT
    fetch "$releases/$path/SHA256SUMS" "$work/SHA256SUMS" || return
    # The archive's name comes from SHA256SUMS (it names the version, which `latest` does not):
    # only a name of the expected shape is used to build a path or a URL.
    asset=$(awk -v target="$target" '
        { name = $2; sub(/^\*/, "", name) }
        name ~ ("^fleetplan-v[0-9][0-9A-Za-z.+-]*-" target "\\.tar\\.gz$") { print name; count++ }
        END { if (count != 1) exit 1 }' "$work/SHA256SUMS") || {
        echo "install.sh: $releases/$path/SHA256SUMS lists no single archive for $target" >&2
        return "$NONE"
    }
    expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1 }' "$work/SHA256SUMS")
    fetch "$releases/$path/$asset" "$work/$asset" || {
        echo "install.sh: SHA256SUMS lists $asset, but $releases/$path/$asset is missing" >&2
        return 1
    }
    actual=$(sha256_of "$work/$asset")
    if [ "$actual" != "$expected" ]; then
        echo "install.sh: checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual; nothing installed" >&2
        return 1
    fi
    mkdir "$work/unpacked"
    tar -xzf "$work/$asset" -C "$work/unpacked"
    exe=fleetplan
    case "$target" in *-windows-*) exe=fleetplan.exe ;; esac
    [ -f "$work/unpacked/${asset%.tar.gz}/$exe" ] || {
        echo "install.sh: $asset holds no ${asset%.tar.gz}/$exe" >&2
        return 1
    }
    # Copied beside its final name, then renamed: DIR/bin never holds half a binary.
    mkdir -p "$dir/bin"
    cp "$work/unpacked/${asset%.tar.gz}/$exe" "$dir/bin/.$exe.partial"
    chmod 755 "$dir/bin/.$exe.partial"
    mv -f "$dir/bin/.$exe.partial" "$dir/bin/$exe"
    echo "install.sh: installed $asset (sha256 $actual) into $dir/bin" >&2
}

install_source() {
    [ -f "$source/Cargo.toml" ] || die "--source $source holds no Cargo.toml"
    echo "install.sh: building fleetplan from $source with cargo install --locked" >&2
    "${CARGO:-cargo}" install --locked --path "$source" --root "$dir"
}

if [ -z "$version" ]; then
    [ -n "$source" ] || die "give --version VERSION, or --source PATH to build"
    install_source
elif [[ $version =~ ^(latest|v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?)$ ]]; then
    # Not `(install_release) || status=$?`: a subshell on the left of || runs without set -e.
    set +e
    (
        set -e
        install_release
    )
    status=$?
    set -e
    if [ "$status" -eq "$NONE" ] && [ -n "$source" ]; then
        echo "install.sh: no release archive of $version for this machine" >&2
        install_source
    elif [ "$status" -eq "$NONE" ]; then
        die "no release $version at $releases (or none for this machine)"
    elif [ "$status" -ne 0 ]; then
        exit "$status"
    fi
elif [ -n "$source" ]; then
    # A branch or a commit: never a release.
    install_source
else
    die "'$version' is not a version (0.2.0, v0.2.0 or latest)"
fi
