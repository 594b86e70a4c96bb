"""A metrics file or model archive whose writing stops halfway leaves the previous one whole, never a truncated one."""

import builtins
import json
import tarfile

import allennlp.commands.train
import allennlp.evaluation.evaluator
import allennlp.training.util
import pytest
from allennlp.common import util
from allennlp.models import archival


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


def _serialization_dir(directory, weights: bytes):
    directory.mkdir()
    (directory / "config.json").write_text("{}")
    (directory / "best.th").write_bytes(weights)
    (directory / "vocabulary").mkdir()
    (directory / "vocabulary" / "tokens.txt").write_text("a\n")
    return directory


def _archived_weights(archive):
    with tarfile.open(archive) as opened:
        return opened.extractfile("weights.th").read()


@pytest.mark.parametrize("stop", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_an_archive_stopped_halfway_leaves_the_previous_archive_whole(tmp_path, monkeypatch, stop):
    """As `allennlp train` calls it at the end of a run (through its own module), and after Ctrl-C."""
    run = _serialization_dir(tmp_path / "run", b"epoch 3")
    assert allennlp.commands.train.archive_model(run) == str(run / "model.tar.gz")
    (run / "best.th").write_bytes(b"epoch 7")
    add = tarfile.TarFile.add

    def stops_after_the_first_member(self, name, arcname=None, *args, **kwargs):
        if arcname != "config.json":
            raise stop
        return add(self, name, arcname, *args, **kwargs)

    monkeypatch.setattr(tarfile.TarFile, "add", stops_after_the_first_member)
    with pytest.raises(type(stop)):
        allennlp.commands.train.archive_model(run)
    assert _archived_weights(run / "model.tar.gz") == b"epoch 3"
    assert not (run / "model.tar.gz.partial").exists()

    monkeypatch.undo()
    archival.archive_model(run, archive_path=run)  # a folder: the archive goes inside it, as in AllenNLP
    assert _archived_weights(run / "model.tar.gz") == b"epoch 7"
    assert sorted(path.name for path in run.iterdir()) == ["best.th", "config.json", "model.tar.gz", "vocabulary"]
