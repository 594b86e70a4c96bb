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
# Start-up without other packages' noise: the deprecation warnings that allennlp's imports raise
# (google-api-core, fairscale, torch.jit, py-rouge's pkg_resources) are filtered by a .pth file the
# interpreter reads at start-up; and allennlp-models' NarrativeQA tools, imported by every `allennlp`
# command, try to download NLTK's punkt and wordnet unless a punkt folder is on NLTK's path. Nothing
# in the suite reads NLTK data, so the folder holds only a README saying why it is there.
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
cp scripts/quiet_startup.pth "$site/elmo_experiments_quiet_startup.pth"
mkdir -p "$venv/nltk_data/tokenizers/punkt"
cat > "$venv/nltk_data/tokenizers/punkt/README" <<'README'
Not NLTK's punkt: a folder that stops allennlp-models 2.10.1 (allennlp_models/rc/tools/narrativeqa.py)
from downloading punkt and wordnet each time the allennlp command starts. Nothing in the suite uses
NLTK data; written by scripts/install.sh.
README
"$venv/bin/python" scripts/check_install.py
