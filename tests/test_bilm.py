import json
import os
import subprocess
import sys
from pathlib import Path

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

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR", ROOT.parent / "shared" / "data"))
SENTENCES = [["The", "cat", "sat", "."], ["Hello"], ["A", "longer", "sentence", "than", "the", "first", "one", "!"]]


def _unclipped(options):
    """Options without cell and projection clipping (null, as AllenNLP reads them): the fused torch LSTM runs them."""
    options["lstm"].update(cell_clip=None, proj_clip=None)
    return options


@pytest.fixture(params=["clipped", "unclipped"])
def random_bilm(tmp_path, request):
    options = tiny_options() if request.param == "clipped" else _unclipped(tiny_options())
    (tmp_path / "options.json").write_text(json.dumps(options))
    torch.manual_seed(0)
    model = BidirectionalLm(Vocabulary({"tokens": {"a": 3, "b": 2}}), str(tmp_path / "options.json")).eval()
    with torch.no_grad():  # larger than the default initialisation, so every gate and clip matters
        for parameter in model.parameters():
            parameter.uniform_(-0.5, 0.5)
    return model


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


def test_character_encoder_skips_padding_positions_without_changing_its_output(random_bilm, monkeypatch):
    encoder = random_bilm.character_encoder
    # A 60-character word is cut to ELMo's 50; the short ones leave most positions to padding.
    ids = batch_to_ids([["a", "mid-sized", "x" * 60], ["tiny"]])
    with torch.no_grad():
        trimmed = encoder(ids)
        short_words_only = encoder(ids[1:, :1])
        monkeypatch.setattr(encoder, "_trim_padding", lambda character_ids: character_ids)
        every_position = encoder(ids)
    torch.testing.assert_close(trimmed, every_position, atol=0, rtol=0)
    torch.testing.assert_close(short_words_only, every_position[1:, :1], atol=1e-6, rtol=0)  # other batch shape: other BLAS order


def test_import_reproduces_the_exported_model(random_bilm, tmp_path):
    export_elmo_files(random_bilm, tmp_path)
    imported = BidirectionalLm(random_bilm.vocab, str(tmp_path / "options.json"), initial_weight_file=str(tmp_path / "weights.hdf5")).eval()
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
    with pytest.raises(ValueError, match=r"weights.hdf5: no dataset 'CNN_high_0/W_carry' \(expected shape \(28, 28\)\)"):
        load_original_layout(random_bilm, weight_file)
    export_elmo_files(random_bilm, tmp_path)
    with h5py.File(weight_file, "a") as datasets:
        del datasets["CNN_proj/b_proj"]
        datasets["CNN_proj/b_proj"] = numpy.zeros(3, dtype=numpy.float32)
    with pytest.raises(ValueError, match=r"'CNN_proj/b_proj' has shape \(3,\), expected \(16,\)"):
        load_original_layout(random_bilm, weight_file)


@pytest.mark.skipif(not (SHARED_DATA / "elmo_reference").is_dir(),
                    reason=f"no ELMo reference files at {SHARED_DATA}/elmo_reference (set SHARED_DATA_DIR)")
def test_reproduces_the_original_tensorflow_activations():
    """bilm-tf ran lm_weights.hdf5 over ten batches of three sentences, the state carried along."""
    reference = SHARED_DATA / "elmo_reference"
    model = BidirectionalLm(Vocabulary(), str(reference / "options.json"),
                            initial_weight_file=str(reference / "lm_weights.hdf5")).eval()
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


def test_reader_cuts_streams_and_reverses_the_backward_ones(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a b c\nd e\n\nf g h i\n", encoding="utf-8")
    instances = list(LanguageModelStreamsReader(num_streams=2, unroll_steps=3).read(str(corpus)))
    words = [[[t.text for t in instance[field].tokens] for field in ("forward", "backward")] for instance in instances]
    # <S> a b c </S> <S> d e </S> <S> f g h i </S>: 15 tokens, 2 streams of 7 (the last </S> unused),
    # 2 windows of 3 steps each; the backward streams are the same streams read from the end.
    assert words == [
        [["<S>", "a", "b", "c"], ["d", "<S>", "</S>", "c"]],
        [["e", "</S>", "<S>", "f"], ["i", "h", "g", "f"]],
        [["c", "</S>", "<S>", "d"], ["c", "b", "a", "<S>"]],
        [["f", "g", "h", "i"], ["f", "<S>", "</S>", "e"]],
    ]
    assert [(i["metadata"]["stream"], i["metadata"]["stream_position"]) for i in instances] == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_reader_refuses_a_corpus_too_small_and_bad_encoding(tmp_path):
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("a b\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="tiny.txt: 4 tokens .* cannot fill one window"):
        list(LanguageModelStreamsReader(num_streams=2).read(str(corpus)))
    corpus.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="tiny.txt: the corpus is empty"):
        list(LanguageModelStreamsReader(num_streams=2).read(str(corpus)))
    corpus.write_bytes(b"fine line\nbad \xff line\n")
    with pytest.raises(ValueError, match=r"tiny.txt, line 2: expected UTF-8 text, found byte 0xff"):
        list(LanguageModelStreamsReader(num_streams=1, unroll_steps=1).read(str(corpus)))


def test_pretraining_config_lowers_perplexity_and_exports(tmp_path, monkeypatch):
    sentences = ["the cat sat on the mat .", "the dog sat on the log .", "a cat saw a dog ."] * 40
    (tmp_path / "train.txt").write_text("\n".join(sentences) + "\n")
    (tmp_path / "heldout.txt").write_text("\n".join(sentences[:12]) + "\n")
    (tmp_path / "options.json").write_text(json.dumps(_unclipped(tiny_options())))
    monkeypatch.setenv("BILM_TRAIN_CORPUS", str(tmp_path / "train.txt"))
    monkeypatch.setenv("BILM_HELDOUT_CORPUS", str(tmp_path / "heldout.txt"))
    monkeypatch.setenv("BILM_OPTIONS_FILE", str(tmp_path / "options.json"))
    overrides = {"dataset_reader.num_streams": 4, "data_loader.batch_size": 4, "dataset_reader.unroll_steps": 10,
                 "model.num_samples": 0, "trainer.num_epochs": 4, "trainer.optimizer.lr": 0.5}
    run = tmp_path / "run"
    train_model_from_file(str(ROOT / "configs" / "bilm_pretrain.jsonnet"), str(run), overrides=json.dumps(overrides))
    first = json.loads((run / "metrics_epoch_0.json").read_text())
    last = json.loads((run / "metrics_epoch_3.json").read_text())
    assert last["validation_perplexity"] < 0.9 * first["validation_perplexity"]
    assert last["training_perplexity"] < first["training_perplexity"]

    result = subprocess.run([str(Path(sys.executable).parent / "allennlp"), "export-bilm", str(run / "model.tar.gz"),
                             str(tmp_path / "elmo")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    elmo = Elmo(str(tmp_path / "elmo" / "options.json"), str(tmp_path / "elmo" / "weights.hdf5"), 1, dropout=0.0)
    assert elmo(batch_to_ids([["the", "cat"]]))["elmo_representations"][0].shape == (1, 2, 32)


def test_batches_out_of_stream_order_are_refused(random_bilm):
    reader = LanguageModelStreamsReader(num_streams=2, unroll_steps=2)
    instance = reader.text_to_instance(["<S>", "a", "b"], ["</S>", "b", "a"], stream=1, stream_position=0)
    from allennlp.data import Batch

    reader.apply_token_indexers(instance)
    batch = Batch([instance])
    batch.index_instances(random_bilm.vocab)
    with pytest.raises(ConfigurationError, match="batch_size to the reader's num_streams"):
        random_bilm(**batch.as_tensor_dict())


def test_finetune_on_task_text_starts_from_the_given_biLM_and_exports(ner_environment, tiny_elmo, tmp_path):
    import argparse

    from allennlp.models.archival import load_archive

    from tasks.bilm.finetune import _finetune
    from tasks.bilm.weight_file import weight_layout

    overrides = {"dataset_reader.num_streams": 2, "data_loader.batch_size": 2, "dataset_reader.unroll_steps": 5,
                 "model.num_samples": 0, "vocabulary.min_count.tokens": 1}
    _finetune(argparse.Namespace(task_config=str(ROOT / "configs" / "ner_elmo.jsonnet"), output_dir=str(tmp_path),
                                 epochs=1, overrides=json.dumps(overrides)))
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
    # A rerun finds both stages finished and trains nothing.
    softmax_archive = (tmp_path / "softmax" / "model.tar.gz").stat().st_mtime_ns
    _finetune(argparse.Namespace(task_config=str(ROOT / "configs" / "ner_elmo.jsonnet"), output_dir=str(tmp_path),
                                 epochs=1, overrides=json.dumps(overrides)))
    assert (tmp_path / "softmax" / "model.tar.gz").stat().st_mtime_ns == softmax_archive
    assert json.loads((tmp_path / "perplexity.json").read_text())["after"] == perplexity["after"]


def test_paired_inference_computes_what_each_direction_computes_alone():
    """Both directions in one batched time loop over packed tokens: the step-by-step stacks' values and states."""
    from tasks.bilm.modules import LstmStack, paired_inference, reverse_padded

    torch.manual_seed(3)
    lstm = {"dim": 24, "projection_dim": 8, "n_layers": 2, "cell_clip": 0.5, "proj_clip": 0.4, "use_skip_connections": True}
    stacks = torch.nn.ModuleList(LstmStack(lstm) for _ in range(2))
    inputs = torch.randn(4, 6, 8)
    mask = torch.arange(6).unsqueeze(0) < torch.tensor([[3], [6], [1], [5]])
    inputs = inputs * mask.unsqueeze(-1)
    backward_inputs = reverse_padded(inputs, mask.sum(dim=1))
    states = [[(torch.randn(4, 8), torch.randn(4, 24)) for _ in range(2)] for _ in range(2)]
    expected = [stacks[0](inputs, mask, states[0]), stacks[1](backward_inputs, mask, states[1])]  # with gradient: step by step
    with torch.no_grad():
        forward_layers, backward_layers, forward_states, backward_states = paired_inference(
            stacks, inputs, backward_inputs, mask, states
        )
    for (layers, final), paired_layers, paired_states in zip(expected, (forward_layers, backward_layers), (forward_states, backward_states)):
        for layer, paired in zip(layers, paired_layers):
            assert torch.allclose(layer, paired, atol=1e-6)
            assert not paired[~mask].any()  # zero on padding
        for (hidden, memory), (paired_hidden, paired_memory) in zip(final, paired_states):
            assert torch.allclose(hidden, paired_hidden, atol=1e-6) and torch.allclose(memory, paired_memory, atol=1e-6)


def test_shared_direction_storage_is_used_without_a_copy_and_follows_loaded_weights():
    from tasks.bilm.modules import LstmStack, _stacked, share_direction_storage

    lstm = {"dim": 12, "projection_dim": 4, "n_layers": 1, "cell_clip": 3, "proj_clip": 3}
    stacks = torch.nn.ModuleList(LstmStack(lstm) for _ in range(2))
    new_values = {name: torch.randn_like(value) for name, value in stacks.state_dict().items()}
    share_direction_storage(stacks)
    pair = (stacks[0].layers[0], stacks[1].layers[0])
    assert _stacked(pair, "weight_hh_l0") is pair[0].direction_pair_weights["weight_hh_l0"]
    stacks.load_state_dict(new_values)  # in place, into the shared storage
    assert torch.equal(_stacked(pair, "weight_hh_l0")[1], new_values["1.layers.0.lstm.weight_hh_l0"])
    stacks[1].layers[0].lstm.weight_hh_l0.data = torch.zeros(48, 4)  # no longer shared: a copy, with the new values
    assert not _stacked(pair, "weight_hh_l0")[1].any()
