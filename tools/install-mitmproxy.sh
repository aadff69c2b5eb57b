#!/usr/bin/env bash
# Installs mitmproxy (from PyPI, a pinned version) into a virtual environment of the repository's
# own, .tools/mitmproxy (git-ignored), where the tests look for it: they put its mitmdump, as a
# proxy, in front of the lab and read the HAR it exports (Tests/LabTestSupport/MitmproxyCapture.swift),
# a real capture for `runner init --har` (`make deps` runs this).
#
# 11.0.2 is the last mitmproxy for Python 3.11 (12 wants 3.12); its dependencies come as wheels
# for Linux x86_64, so nothing is compiled. It has the `savehar` addon (since 10.1): `--set
# hardump=FILE` writes the HAR when mitmdump shuts down (SIGINT or SIGTERM).
# A virtual environment for the same reasons as tools/install-check-jsonschema.sh: no user site,
# no clash with the machine's Python packages, the version pinned here. Nothing is done when the
# pinned version already runs; an environment that no longer runs is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."

version=11.0.2
venv=.tools/mitmproxy
tool=$venv/bin/mitmdump

if "$tool" --version 2> /dev/null | grep -qxF "Mitmproxy: $version"; then
  exit 0
fi
echo "install-mitmproxy: mitmproxy $version into $venv"
rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
  "$venv/bin/python" -m pip install --quiet "mitmproxy==$version"
"$tool" --version
