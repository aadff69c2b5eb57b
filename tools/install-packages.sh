#!/usr/bin/env bash
# Installs Debian packages for the build and the tests (`make deps`), with sudo when not root,
# without starting any service a package brings along.
#   tools/install-packages.sh PACKAGE...
#
# Packages here are tools, not services. Two bring a daemon along. `unbound`: the tests start
# their own, as a child process on a loopback port with a configuration in a temporary folder;
# Debian's package would otherwise start the system's unbound at once (a recursive resolver on
# 127.0.0.1:53 and ::1:53), enable it at boot, and, where resolvconf is installed, make it the
# machine's resolver (unbound-resolvconf.service). `prometheus`: the tests want its `promtool`,
# and one starts the server itself, on a loopback port with a configuration and storage in a
# temporary folder; the package would start a Prometheus server on port 9090 and, through the
# node_exporter it recommends, an exporter on port 9100 and its collectors' timers. So, for the
# install, a policy-rc.d that denies every start stands in /usr/sbin (only when there is none:
# Debian's container images ship one that does the same), and after it, each of those services
# installed here is disabled at boot and stopped (in case a policy-rc.d already there let it
# start) — nothing is left listening on port 53, 9090 or 9100.
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

# quiet NAME UNIT...: stops the units (or NAME's init script) and disables them at boot.
quiet() {
  local name=$1
  shift
  echo "install-packages: $name is for the tests only: not started, and disabled at boot"
  if [ -d /run/systemd/system ]; then
    $sudo systemctl stop "$@" > /dev/null 2>&1 || true
  elif [ -x "/etc/init.d/$name" ]; then
    $sudo "/etc/init.d/$name" stop > /dev/null 2>&1 || true
  fi
  # systemctl disable works without a running systemd (it edits the links, the SysV ones too).
  if command -v systemctl > /dev/null; then
    $sudo systemctl disable --quiet "$@" > /dev/null 2>&1 || true
  else
    $sudo update-rc.d "$name" disable > /dev/null 2>&1 || true
  fi
}

for package in "$@"; do
  case "$package" in
    unbound)
      quiet unbound unbound.service unbound-resolvconf.service
      ;;
    prometheus)
      quiet prometheus prometheus.service
      if dpkg -s prometheus-node-exporter > /dev/null 2>&1; then
        # Its collectors (prometheus-node-exporter-collectors) run from timers.
        timers=$(cd /lib/systemd/system 2> /dev/null && ls prometheus-node-exporter-*.timer 2> /dev/null || true)
        # shellcheck disable=SC2086 # one word per timer
        quiet prometheus-node-exporter prometheus-node-exporter.service $timers
      fi
      ;;
  esac
done
