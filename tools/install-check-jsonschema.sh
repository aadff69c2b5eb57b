#!/usr/bin/env bash
# Installs check-jsonschema (from PyPI, a pinned version) into a virtual environment of the
# repository's own, .tools/check-jsonschema (git-ignored), where the tests look for it: they
# validate plans against docs/plan.schema.json with it (`make deps` runs this).
#
# A virtual environment rather than `pip install --user`: it needs no writable user site (nor
# PEP 668's --break-system-packages on Debian's Python), it cannot clash with other Python
# packages of the machine, and its version is the one pinned here. Any python3 with the venv
# module does: pyenv's, or Debian's with python3-venv (in the Makefile's DEB_PACKAGES).
# Nothing is done when the pinned version already runs; an environment that no longer runs
# (say its Python was removed) is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.39.0
venv=.tools/check-jsonschema
tool=$venv/bin/check-jsonschema

if "$tool" --version 2> /dev/null | grep -qxF "check-jsonschema, version $version"; then
  exit 0
fi
echo "install-check-jsonschema: check-jsonschema $version into $venv"
rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
  "$venv/bin/python" -m pip install --quiet "check-jsonschema==$version"
"$tool" --version
