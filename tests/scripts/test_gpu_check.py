import subprocess
import sys

import pytest

from tests.helpers.repository import ROOT


@pytest.mark.slow
def test_the_gpu_check_runs_its_table_on_a_cpu(tmp_path):
    """The prepared GPU check, shrunk to run here: a training, the two ELMos compared, the table written."""
    output = tmp_path / "gpu_check.md"
    command = [sys.executable, "scripts/gpu_check.py", "--devices", "cpu", "--updates", "2", "--tasks", "ner"]
    result = subprocess.run(
        command + ["--plan", "plans/smoke.jsonnet", "--output", str(output)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    rows = [line for line in output.read_text().splitlines() if line.startswith("| ") and "check |" not in line]
    assert rows[0].startswith("| ner: 2 updates of configs/ner_elmo.jsonnet | yes | seconds: ")
    assert "training_loss: " in rows[0]
    assert rows[1].startswith("| Fast ELMo against AllenNLP's Elmo, ") and "| yes |" in rows[1]
    assert "largest_difference: " in rows[1] and "'stock': " in rows[1]
    assert rows[2] == "| distributed trainer | yes | note: not run: 0 GPU here |"


def test_the_bundled_plan_trains_each_config_on_its_bundled_sample():
    """`--plan bundled` (a GPU machine without the real data): the task's ELMo config, with no overrides."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from gpu_check import plan_run
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    run = plan_run("bundled", "squad-elmo-seed1")
    assert (run.config, run.overrides, run.environment) == ("configs/squad_elmo.jsonnet", {}, {})
    assert (ROOT / run.config).is_file()
