#!/usr/bin/env bash
# Sets up the suite on Python 3.11 in a virtual environment (default: .venv), offline except for
# the package registries, then checks that `allennlp` finds every component the suite relies on.
#
#   bash scripts/install.sh            # VENV=path to place the environment elsewhere
#
# Two steps, because allennlp 2.10.1 and allennlp-models 2.10.1 pin torch<1.13 (and libraries with
# no Python 3.11 wheels): everything they import is pinned in requirements.txt (full versions in
# constraints.txt), then the two are installed without their own dependency pins. Last, the suite
# itself (pyproject.toml), in editable mode: its packages import from any directory, and edits to
# the working tree take effect without installing again.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${VENV:-.venv}"
python="${PYTHON:-python3.11}"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -r requirements.txt -c constraints.txt
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-deps -r requirements-allennlp.txt
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-deps --no-build-isolation --editable .
"$venv/bin/python" scripts/check_install.py
