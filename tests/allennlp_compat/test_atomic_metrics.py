"""A metrics file whose writing stops halfway leaves the previous one whole, never a truncated one."""

import builtins
import json

import allennlp.evaluation.evaluator
import allennlp.training.util
import pytest
from allennlp.common import util


class _FullDisk:
    """A file that takes the first half of what is written to it, then fails as a full disk does."""

    def __init__(self, path, mode):
        self._file = builtins.open(path, mode)

    def write(self, text):
        self._file.write(text[: len(text) // 2])
        self._file.flush()
        raise OSError(28, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self._file.close()


@pytest.mark.parametrize("module", [util, allennlp.training.util, allennlp.evaluation.evaluator])
def test_a_failed_write_leaves_the_previous_metrics_whole(tmp_path, monkeypatch, module):
    metrics_file = tmp_path / "metrics.json"
    module.dump_metrics(str(metrics_file), {"epoch": 1, "validation_f1": 0.5})
    monkeypatch.setattr(util, "open", _FullDisk, raising=False)  # what AllenNLP's writer opens files with
    with pytest.raises(OSError, match="No space left"):
        module.dump_metrics(str(metrics_file), {"epoch": 2, "validation_f1": 0.75, "test_f1": 0.7})
    assert json.loads(metrics_file.read_text()) == {"epoch": 1, "validation_f1": 0.5}

    monkeypatch.undo()
    module.dump_metrics(str(metrics_file), {"epoch": 2})
    assert json.loads(metrics_file.read_text()) == {"epoch": 2}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["metrics.json"]
