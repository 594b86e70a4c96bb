"""The trainable biLM: the original weight format both ways, pretraining, and what it refuses."""

import json
import shutil
import subprocess
import sys

import h5py
import numpy
import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.modules.elmo import Elmo, _ElmoBiLm, batch_to_ids
from allennlp.nn.util import remove_sentence_boundaries

from data_readers.lm_corpus import LanguageModelStreamsReader
from tasks.bilm.model import BidirectionalLm
from tasks.bilm.weight_file import export_elmo_files, load_original_layout, tiny_options, to_original_layout
from tests.helpers.bilm_options import unclipped
from tests.helpers.repository import ALLENNLP, ROOT, SHARED_DATA

SENTENCES = [["The", "cat", "sat", "."], ["Hello"], ["A", "longer", "sentence", "than", "the", "first", "one", "!"]]


def test_export_then_allennlp_computes_our_activations(random_bilm, tmp_path):
    export_elmo_files(random_bilm, tmp_path / "exported")
    allennlp_bilm = _ElmoBiLm(str(tmp_path / "exported" / "options.json"), str(tmp_path / "exported" / "weights.hdf5"))
    ids = batch_to_ids(SENTENCES)
    with torch.no_grad():
        ours, _ = random_bilm.elmo_layers(ids)
        theirs = allennlp_bilm(ids)
    assert len(ours) == len(theirs["activations"]) == 3
    for our_layer, their_layer in zip(ours, theirs["activations"]):
        their_layer, _ = remove_sentence_boundaries(their_layer, theirs["mask"])
        torch.testing.assert_close(our_layer, their_layer, atol=1e-5, rtol=0)


def test_import_reproduces_the_exported_model(random_bilm, tmp_path):
    export_elmo_files(random_bilm, tmp_path)
    imported = BidirectionalLm(
        random_bilm.vocab, str(tmp_path / "options.json"), initial_weight_file=str(tmp_path / "weights.hdf5")
    ).eval()
    ids = batch_to_ids(SENTENCES)
    with torch.no_grad():
        for expected, actual in zip(random_bilm.elmo_layers(ids)[0], imported.elmo_layers(ids)[0]):
            torch.testing.assert_close(actual, expected, atol=1e-5, rtol=0)
    for name, array in to_original_layout(imported).items():
        numpy.testing.assert_allclose(array, to_original_layout(random_bilm)[name], atol=1e-6, err_msg=name)


def test_weight_files_with_missing_groups_or_wrong_shapes_are_named(random_bilm, tmp_path):
    export_elmo_files(random_bilm, tmp_path)
    weight_file = tmp_path / "weights.hdf5"
    with h5py.File(weight_file, "a") as datasets:
        del datasets["CNN_high_0/W_carry"]
    with pytest.raises(
        ValueError, match=r"weights.hdf5: no dataset 'CNN_high_0/W_carry' \(expected shape \(28, 28\)\)"
    ):
        load_original_layout(random_bilm, weight_file)
    export_elmo_files(random_bilm, tmp_path)
    with h5py.File(weight_file, "a") as datasets:
        del datasets["CNN_proj/b_proj"]
        datasets["CNN_proj/b_proj"] = numpy.zeros(3, dtype=numpy.float32)
    with pytest.raises(ValueError, match=r"'CNN_proj/b_proj' has shape \(3,\), expected \(16,\)"):
        load_original_layout(random_bilm, weight_file)


@pytest.mark.skipif(
    not (SHARED_DATA / "elmo_reference").is_dir(),
    reason=f"no ELMo reference files at {SHARED_DATA}/elmo_reference (set SHARED_DATA_DIR)",
)
def test_reproduces_the_original_tensorflow_activations():
    """bilm-tf ran lm_weights.hdf5 over ten batches of three sentences, the state carried along."""
    reference = SHARED_DATA / "elmo_reference"
    model = BidirectionalLm(
        Vocabulary(), str(reference / "options.json"), initial_weight_file=str(reference / "lm_weights.hdf5")
    ).eval()
    sentence_lists = json.loads((reference / "sentences.json").read_text())
    expected = [h5py.File(reference / f"lm_embeddings_{k}.hdf5", "r") for k in range(3)]
    states = None
    with torch.no_grad():
        for batch_index in range(10):
            batch = [sentences[batch_index].split() for sentences in sentence_lists]
            layers, states = model.elmo_layers(batch_to_ids(batch), states)
            for row, sentence in enumerate(batch):
                forward_and_backward = expected[row][str(batch_index)][...]
                top_layer = numpy.concatenate([forward_and_backward[0], forward_and_backward[1]], axis=-1)
                numpy.testing.assert_allclose(layers[2][row, : len(sentence)].numpy(), top_layer, atol=1e-5, rtol=0)


@pytest.mark.slow
def test_pretraining_config_lowers_perplexity_and_exports(tmp_path, monkeypatch):
    sentences = ["the cat sat on the mat .", "the dog sat on the log .", "a cat saw a dog ."] * 40
    (tmp_path / "train.txt").write_text("\n".join(sentences) + "\n")
    (tmp_path / "heldout.txt").write_text("\n".join(sentences[:12]) + "\n")
    (tmp_path / "options.json").write_text(json.dumps(unclipped(tiny_options())))
    monkeypatch.setenv("BILM_TRAIN_CORPUS", str(tmp_path / "train.txt"))
    monkeypatch.setenv("BILM_HELDOUT_CORPUS", str(tmp_path / "heldout.txt"))
    monkeypatch.setenv("BILM_OPTIONS_FILE", str(tmp_path / "options.json"))
    overrides = {
        "dataset_reader.num_streams": 4,
        "data_loader.batch_size": 4,
        "dataset_reader.unroll_steps": 10,
        "model.num_samples": 0,
        "trainer.num_epochs": 4,
        "trainer.optimizer.lr": 0.5,
    }
    run = tmp_path / "run"
    train_model_from_file(str(ROOT / "configs" / "bilm_pretrain.jsonnet"), str(run), overrides=json.dumps(overrides))
    first = json.loads((run / "metrics_epoch_0.json").read_text())
    last = json.loads((run / "metrics_epoch_3.json").read_text())
    assert last["validation_perplexity"] < 0.9 * first["validation_perplexity"]
    assert last["training_perplexity"] < first["training_perplexity"]

    result = subprocess.run(
        [ALLENNLP, "export-bilm", str(run / "model.tar.gz"), str(tmp_path / "elmo")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    elmo = Elmo(str(tmp_path / "elmo" / "options.json"), str(tmp_path / "elmo" / "weights.hdf5"), 1, dropout=0.0)
    assert elmo(batch_to_ids([["the", "cat"]]))["elmo_representations"][0].shape == (1, 2, 32)

    # the per-source perplexity script scores held-out text as validation did (streams cut differently)
    script = [sys.executable, "scripts/bilm_perplexity.py", str(run), str(tmp_path / "heldout.txt")]
    table = subprocess.run(script, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    [row] = [line for line in table.splitlines() if line.startswith("| heldout.txt")]
    _, tokens, forward, backward, perplexity = [cell.strip() for cell in row.strip("|").split("|")]
    assert int(tokens) == 100  # 12 sentences, 104 tokens with boundaries: 1 stream of 10 windows of 10
    assert float(perplexity) == pytest.approx(last["validation_perplexity"], rel=0.25)
    assert float(perplexity) < 0.9 * first["validation_perplexity"]
    # a checkpoint's folder (config, vocabulary, weights), as the model card exports one: the same model here
    snapshot = tmp_path / "snapshot"
    snapshot.mkdir()
    shutil.copy(run / "config.json", snapshot)
    shutil.copytree(run / "vocabulary", snapshot / "vocabulary")
    (snapshot / "weights.th").symlink_to(run / "best.th")
    script[2] = str(snapshot)
    table = subprocess.run(script, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert [line for line in table.splitlines() if line.startswith("| heldout.txt")] == [row]


def test_batches_out_of_stream_order_are_refused(random_bilm):
    reader = LanguageModelStreamsReader(num_streams=2, unroll_steps=2)
    instance = reader.text_to_instance(["<S>", "a", "b"], ["</S>", "b", "a"], stream=1, stream_position=0)
    from allennlp.data import Batch

    reader.apply_token_indexers(instance)
    batch = Batch([instance])
    batch.index_instances(random_bilm.vocab)
    with pytest.raises(ConfigurationError, match="batch_size to the reader's num_streams"):
        random_bilm(**batch.as_tensor_dict())
