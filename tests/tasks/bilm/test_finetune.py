"""`allennlp finetune-bilm`: the paper's §A.1 step, from a task config's text to an exported biLM."""

import argparse
import json

import h5py
import numpy
from allennlp.models.archival import load_archive

from tasks.bilm import finetune
from tasks.bilm.finetune import FinetuneBilm
from tasks.bilm.weight_file import export_elmo_files, weight_layout
from tests.helpers.repository import ROOT


def test_finetune_on_task_text_starts_from_the_given_biLM_and_exports(ner_environment, tiny_elmo, tmp_path):
    overrides = {
        "dataset_reader.num_streams": 2,
        "data_loader.batch_size": 2,
        "dataset_reader.unroll_steps": 5,
        "model.num_samples": 0,
        "vocabulary.min_count.tokens": 1,
    }
    FinetuneBilm().run(
        argparse.Namespace(
            task_config=str(ROOT / "configs" / "ner_elmo.jsonnet"),
            output_dir=str(tmp_path),
            epochs=1,
            overrides=json.dumps(overrides),
        )
    )
    assert len((tmp_path / "corpus" / "train.txt").read_text().splitlines()) == 10  # the tiny CoNLL file
    assert (tmp_path / "corpus" / "train.txt").read_text().splitlines()[0] == "Ada Lovelace visited Turin ."
    name = "RNN_0/RNN/MultiRNNCell/Cell0/LSTMCell/W_0"
    # Stage 1 fits the softmax alone: the biLM's weights are the given ones.
    export_elmo_files(load_archive(str(tmp_path / "softmax" / "model.tar.gz")).model, tmp_path / "softmax_elmo")
    with h5py.File(tiny_elmo[1], "r") as before, h5py.File(tmp_path / "softmax_elmo" / "weights.hdf5", "r") as fitted:
        assert numpy.allclose(fitted[name][...], before[name][...])
    with h5py.File(tiny_elmo[1], "r") as before, h5py.File(tmp_path / "elmo" / "weights.hdf5", "r") as after:
        options = json.loads((tmp_path / "elmo" / "options.json").read_text())
        assert all(name in after for name in weight_layout(options))
        assert after[name].shape == before[name].shape
        assert not numpy.allclose(after[name][...], before[name][...])  # trained, from the given weights
        assert numpy.allclose(after[name][...], before[name][...], atol=0.2)
    perplexity = json.loads((tmp_path / "perplexity.json").read_text())
    assert perplexity["text"]["train"]["lines"] == 10 and perplexity["epochs"] == 1
    for stage in ("before", "after"):
        assert set(perplexity[stage]) == {"forward_perplexity", "backward_perplexity", "perplexity"}
        assert 1 < perplexity[stage]["perplexity"] < 2 * perplexity["vocabulary_size"]
    # Table 7's direction: fine-tuned on the task's text, the biLM predicts it better, in both directions.
    for key in ("forward_perplexity", "backward_perplexity", "perplexity"):
        assert perplexity["after"][key] < 0.95 * perplexity["before"][key], (key, perplexity)
    # A rerun finds both stages finished and trains nothing.
    softmax_archive = (tmp_path / "softmax" / "model.tar.gz").stat().st_mtime_ns
    FinetuneBilm().run(
        argparse.Namespace(
            task_config=str(ROOT / "configs" / "ner_elmo.jsonnet"),
            output_dir=str(tmp_path),
            epochs=1,
            overrides=json.dumps(overrides),
        )
    )
    assert (tmp_path / "softmax" / "model.tar.gz").stat().st_mtime_ns == softmax_archive
    assert json.loads((tmp_path / "perplexity.json").read_text())["after"] == perplexity["after"]


def test_a_stage_stopped_before_its_first_checkpoint_starts_afresh(monkeypatch, tmp_path):
    """Its config.json may name another checkout's files, which `--recover` refuses; a checkpoint is resumed."""
    calls = []
    monkeypatch.setattr(finetune, "train_model_from_file", lambda *args, **kwargs: calls.append(kwargs["recover"]))
    stage = tmp_path / "softmax"
    stage.mkdir()
    (stage / "config.json").write_text('{"train_data_path": "/elsewhere/train.txt"}')
    (stage / "out.log").write_text("loading instances: 3456it\n")
    finetune._train_stage(stage, {})
    assert calls == [False] and not stage.exists()
    stage.mkdir()
    (stage / "config.json").write_text("{}")
    (stage / "training_state_e0_b1200.th").write_bytes(b"")
    finetune._train_stage(stage, {})
    assert calls == [False, True] and (stage / "training_state_e0_b1200.th").exists()
