#!/usr/bin/env bash
# What `make install` puts in place, checked with the tools that will read it (run by `make test`):
# the installed binary runs and names its libraries; `man` renders the man page and it documents
# every subcommand; bash completes an option from the completion script; zsh and fish parse
# theirs. Installs the debug build under a temporary prefix.
#   tools/check-install.sh BIN_DIR MANPAGE
set -euo pipefail
bin=${1:?bin dir}
manpage=${2:?man page}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/runner-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

tools/install.sh "$bin/runner" "$manpage" "$prefix" > /dev/null

version=$("$prefix/bin/runner" --version)
[ "$(sed -n 1p <<< "$version")" = "runner $("$bin/runner" --version | head -n 1 | cut -d' ' -f2)" ] || fail "--version: $version"
grep -q '^libcurl/' <<< "$version" && grep -q '^OpenSSL ' <<< "$version" && grep -q '^libyaml/' <<< "$version" \
  || fail "--version does not name libcurl, OpenSSL and libyaml: $version"

page=$(MANWIDTH=100 man -P cat -l "$prefix/share/man/man1/runner.1" 2>&1) || fail "man cannot render the page: $page"
for word in "RUNNER(1)" "SYNOPSIS" "serve" "merge" "check" "--shard" "--junit" "--every"; do
  grep -qF -- "$word" <<< "$page" || fail "the man page lacks '$word'"
done

# As bash calls a completion function: COMP_WORDS/COMP_CWORD set, then the command, the word
# being completed and the one before it as arguments.
complete_words() {
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _runner runner "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/runner" "$@"
}
completed=$(complete_words runner me)
grep -qx "merge" <<< "$completed" || fail "bash does not complete 'runner me' to merge: '$completed'"
completed=$(complete_words runner run --sha)
grep -qx -- "--shard" <<< "$completed" || fail "bash does not complete 'runner run --sha' to --shard: '$completed'"
completed=$(complete_words runner merge --ju)
grep -qx -- "--junit" <<< "$completed" || fail "bash does not complete 'runner merge --ju' to --junit: '$completed'"
zsh -n "$prefix/share/zsh/site-functions/_runner" || fail "zsh cannot parse its completion script"
fish --no-execute "$prefix/share/fish/vendor_completions.d/runner.fish" || fail "fish cannot parse its completion script"
echo "check-install: binary, man page and completions installed under a prefix and read by man, bash, zsh and fish"
