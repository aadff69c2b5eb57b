#!/usr/bin/env bash
# Installs Debian packages for the build and the tests (`make deps`), with sudo when not root,
# without starting any service a package brings along.
#   tools/install-packages.sh PACKAGE...
#
# Packages here are tools, not services. The one with a daemon is `unbound`: the tests start
# their own, as a child process on a loopback port with a configuration in a temporary folder.
# Debian's package would otherwise start the system's unbound at once (a recursive resolver on
# 127.0.0.1:53 and ::1:53), enable it at boot, and, where resolvconf is installed, make it the
# machine's resolver (unbound-resolvconf.service). So, for the install, a policy-rc.d that denies
# every start stands in /usr/sbin (only when there is none: Debian's container images ship one
# that does the same), and after it, an unbound installed here is disabled at boot and stopped
# (in case a policy-rc.d already there let it start) — nothing is left listening on port 53.
set -euo pipefail
[ $# -gt 0 ] || exit 0

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# written by runner'"'"'s tools/install-packages.sh while it installs packages\nexit 101\n' \
    | $sudo tee "$policy" > /dev/null
  $sudo chmod 755 "$policy"
  trap '$sudo rm -f "$policy"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
fi

$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"

for package in "$@"; do
  if [ "$package" = unbound ]; then
    echo "install-packages: unbound is for the tests only: not started, and disabled at boot"
    if [ -d /run/systemd/system ]; then
      $sudo systemctl stop unbound.service unbound-resolvconf.service > /dev/null 2>&1 || true
    elif [ -x /etc/init.d/unbound ]; then
      $sudo /etc/init.d/unbound stop > /dev/null 2>&1 || true
    fi
    # systemctl disable works without a running systemd (it edits the links, the SysV ones too).
    if command -v systemctl > /dev/null; then
      $sudo systemctl disable --quiet unbound.service unbound-resolvconf.service > /dev/null 2>&1 || true
    else
      $sudo update-rc.d unbound disable > /dev/null 2>&1 || true
    fi
  fi
done
