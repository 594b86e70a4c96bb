"""scripts/check_install.py, which the install script ends with."""

import subprocess
import sys

from tests.helpers.repository import ROOT


def test_install_check_finds_every_component():
    result = subprocess.run([sys.executable, "scripts/check_install.py"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "components the suite uses are registered" in result.stdout
