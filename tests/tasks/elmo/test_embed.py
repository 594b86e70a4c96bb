"""`allennlp elmo-embed`: a text file's ELMo vectors in hdf5, resumable, as tokens or sentence vectors."""

import json
from pathlib import Path

import h5py
import numpy
import pytest
import torch
from allennlp.common.checks import ConfigurationError

from data_readers.errors import DataFormatError
from tasks.elmo.embed import embed_file, masked_mean
from tests.helpers.repository import allennlp

LINES = ["The cat sat on the mat .", "", "Hello", "A longer sentence , with a comma and more words .", "Two words"]


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "input.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def _embed(text_file, output, tiny_elmo, **settings):
    return embed_file(str(text_file), str(output), str(tiny_elmo[0]), str(tiny_elmo[1]), tokenized=True, **settings)


def _read(path):
    with h5py.File(path, "r") as embeddings:
        return {name: embeddings[name][()] for name in embeddings}


def test_embed_writes_each_layer_choice(text_file, tiny_elmo, tmp_path):
    outputs = {}
    for layers, extra in [
        ("all", {}),
        ("top", {}),
        ("average", {}),
        ("mix", {"mix_weights": [0.2, 0.5, 0.3], "gamma": 2.0}),
    ]:
        _embed(text_file, tmp_path / f"{layers}.hdf5", tiny_elmo, layers=layers, batch_size=2, **extra)
        outputs[layers] = _read(tmp_path / f"{layers}.hdf5")
    every_layer = outputs["all"]
    assert sorted(every_layer) == ["0", "1", "2", "3", "4", "sentence_to_index"]
    for index, line in enumerate(LINES):
        tokens = len(line.split())
        assert every_layer[str(index)].shape == (3, tokens, 32)  # the tiny biLM: 3 layers of 2 x 16
        for layers in ("top", "average", "mix"):
            assert outputs[layers][str(index)].shape == (tokens, 32)
        numpy.testing.assert_allclose(outputs["top"][str(index)], every_layer[str(index)][2], atol=0)
        numpy.testing.assert_allclose(outputs["average"][str(index)], every_layer[str(index)].mean(axis=0), atol=1e-6)
        mixed = 2.0 * (
            0.2 * every_layer[str(index)][0] + 0.5 * every_layer[str(index)][1] + 0.3 * every_layer[str(index)][2]
        )
        numpy.testing.assert_allclose(outputs["mix"][str(index)], mixed, atol=1e-6)
    assert json.loads(every_layer["sentence_to_index"][0]) == {line: str(index) for index, line in enumerate(LINES)}


def test_an_interrupted_embedding_resumes_to_the_same_file(text_file, tiny_elmo, tmp_path, ner_environment):
    uninterrupted = tmp_path / "uninterrupted.hdf5"
    _embed(text_file, uninterrupted, tiny_elmo, batch_size=2)

    output = tmp_path / "resumed.hdf5"
    first = allennlp(
        "elmo-embed",
        str(text_file),
        str(output),
        "--tokenized",
        "--batch-size",
        "2",
        "--max-sentences",
        "2",
        environment=ner_environment,
    )  # the biLM from ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE: tiny_elmo
    assert "2 remain" in first.stderr and not output.exists()
    (Path(f"{output}.partial") / "lines-000000003.npz.tmp").write_bytes(b"half a batch, as a kill leaves it")
    report = _embed(text_file, output, tiny_elmo, batch_size=2)
    assert (report.computed, report.remaining, report.empty_lines) == (2, 0, 1)
    assert not Path(f"{output}.partial").exists()
    resumed, expected = _read(output), _read(uninterrupted)
    assert sorted(resumed) == sorted(expected)
    for name in expected:
        numpy.testing.assert_array_equal(resumed[name], expected[name])


def test_a_resumed_embedding_refuses_other_settings(text_file, tiny_elmo, tmp_path):
    output = tmp_path / "out.hdf5"
    _embed(text_file, output, tiny_elmo, layers="top", max_sentences=1)
    with pytest.raises(ConfigurationError, match="holds a run with other layers"):
        _embed(text_file, output, tiny_elmo, layers="all")
    with pytest.raises(ConfigurationError, match="cannot be split"):
        _embed(text_file, tmp_path / "carried.hdf5", tiny_elmo, lstm_state="carried", max_sentences=1)


def test_embed_names_the_line_that_is_not_utf8_and_keeps_a_finished_file(tiny_elmo, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nLatin-1 caf\xe9 here\n")
    with pytest.raises(DataFormatError, match="bad.txt, line 2: expected UTF-8 text, found byte 0xe9"):
        _embed(bad, tmp_path / "bad.hdf5", tiny_elmo)
    good = tmp_path / "good.txt"
    good.write_text("fine line\n", encoding="utf-8")
    _embed(good, tmp_path / "good.hdf5", tiny_elmo)
    with pytest.raises(ConfigurationError, match="good.hdf5 exists"):
        _embed(good, tmp_path / "good.hdf5", tiny_elmo)


def test_raw_text_is_tokenised_by_spacy(tiny_elmo, tmp_path):
    raw = tmp_path / "raw.txt"
    raw.write_text("Hello, world!\n", encoding="utf-8")
    embed_file(str(raw), str(tmp_path / "raw.hdf5"), str(tiny_elmo[0]), str(tiny_elmo[1]), layers="top")
    assert _read(tmp_path / "raw.hdf5")["0"].shape == (4, 32)  # Hello , world !


def test_masked_mean_ignores_padding():
    vectors = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [99.0, -99.0]], [[5.0, 6.0], [7.0, 8.0], [9.0, 10.0]]])
    mask = torch.tensor([[True, True, False], [True, True, True]])
    numpy.testing.assert_allclose(masked_mean(vectors, mask).numpy(), [[2.0, 3.0], [7.0, 8.0]])
    assert masked_mean(vectors, torch.zeros(2, 3, dtype=torch.bool)).abs().sum() == 0  # no position: zeros
    layered = torch.stack([vectors, 2 * vectors])  # leading layer axis
    numpy.testing.assert_allclose(masked_mean(layered, mask)[1].numpy(), [[4.0, 6.0], [14.0, 16.0]])


def test_sentence_vectors_are_the_mean_of_the_token_vectors_whatever_the_batch(tiny_elmo, tmp_path):
    lines = ["A short one .", "", "A much longer sentence that pads the short one in its batch ."]
    text = tmp_path / "lines.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    alone = tmp_path / "alone.txt"
    alone.write_text(lines[0] + "\n", encoding="utf-8")
    files = {}
    for name, source, settings in [
        ("tokens", text, {}),
        ("mean", text, {"sentence_vectors": True}),
        ("alone", alone, {"sentence_vectors": True}),
        ("top", text, {"sentence_vectors": True, "layers": "top"}),
    ]:
        files[name] = tmp_path / f"{name}.hdf5"
        embed_file(
            str(source),
            str(files[name]),
            str(tiny_elmo[0]),
            str(tiny_elmo[1]),
            tokenized=True,
            batch_size=8,
            **settings,
        )
    with (
        h5py.File(files["tokens"]) as tokens,
        h5py.File(files["mean"]) as means,
        h5py.File(files["alone"]) as alone_means,
        h5py.File(files["top"]) as top,
    ):
        for index in ("0", "2"):
            assert means[index].shape == (3, 32)
            numpy.testing.assert_allclose(means[index][()], tokens[index][()].mean(axis=1), atol=1e-6)
            numpy.testing.assert_allclose(top[index][()], means[index][2], atol=1e-6)
        numpy.testing.assert_allclose(
            alone_means["0"][()], means["0"][()], atol=1e-5
        )  # padding in the batch changes nothing
        numpy.testing.assert_array_equal(means["1"][()], numpy.zeros((3, 32)))  # the empty line
