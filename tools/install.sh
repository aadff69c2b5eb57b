#!/usr/bin/env bash
# Installs the runner under a prefix, as `make install` does: the binary, its man page, and
# bash, zsh and fish completions (written by the binary itself, so they match its options).
#   tools/install.sh BINARY MANPAGE DEST     (DEST: $DESTDIR$PREFIX, e.g. /usr/local)
set -euo pipefail
binary=${1:?binary}
manpage=${2:?man page}
dest=${3:?destination prefix}
[ -x "$binary" ] || { echo "install: '$binary' is not an executable" >&2; exit 1; }
[ -f "$manpage" ] || { echo "install: no man page at '$manpage'" >&2; exit 1; }

install -D -m 755 "$binary" "$dest/bin/runner"
install -D -m 644 "$manpage" "$dest/share/man/man1/runner.1"
# The places each shell's completion loader looks in under a prefix.
completions=$(mktemp -d)
trap 'rm -rf "$completions"' EXIT
"$binary" --generate-completion-script bash > "$completions/runner"
"$binary" --generate-completion-script zsh > "$completions/_runner"
"$binary" --generate-completion-script fish > "$completions/runner.fish"
install -D -m 644 "$completions/runner" "$dest/share/bash-completion/completions/runner"
install -D -m 644 "$completions/_runner" "$dest/share/zsh/site-functions/_runner"
install -D -m 644 "$completions/runner.fish" "$dest/share/fish/vendor_completions.d/runner.fish"
echo "installed: $dest/bin/runner, its man page (man runner) and bash, zsh and fish completions"
