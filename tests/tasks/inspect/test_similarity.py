"""`allennlp elmo-similarity`: one word followed through several contexts, layer by layer."""

import json

import numpy
import pytest
from allennlp.common.checks import ConfigurationError

from tasks.elmo import FrozenBilm
from tasks.inspect.similarity import contextual_similarity, word_positions
from tasks.inspect.vectors import layer_stacks
from tests.helpers.repository import run_subcommand

BANK = [
    "The boat drifted to the bank of the river .".split(),
    "She paid the cheque into the bank on Monday .".split(),
    "Bank staff went on strike .".split(),
    "They sat on the grassy bank and ate .".split(),
]


@pytest.fixture(scope="module")
def bilm(tiny_elmo):
    return FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]))


def test_layer_0_gives_one_word_the_same_vector_in_every_context_and_the_lstm_layers_do_not(bilm):
    sentences = [BANK[0], BANK[1], BANK[3]]
    positions = word_positions(sentences, "bank")
    assert positions == [5, 6, 5]
    similarities = contextual_similarity(bilm, sentences, positions, mix_weights=[0.0, 0.0, 1.0])
    assert sorted(similarities.matrices) == ["0", "1", "2", "average", "mix"]
    numpy.testing.assert_allclose(similarities.matrices["0"], numpy.ones((3, 3)), atol=1e-6)
    off_diagonal = ~numpy.eye(3, dtype=bool)
    for view in ("1", "2", "average"):
        assert similarities.matrices[view][off_diagonal].max() < 0.9999  # the context changes the vector
    numpy.testing.assert_allclose(
        similarities.matrices["mix"], similarities.matrices["2"], atol=1e-6
    )  # all weight on layer 2
    stacks = dict(layer_stacks(bilm, sentences))
    numpy.testing.assert_array_equal(
        stacks[0][0, 5], stacks[2][0, 5]
    )  # the very same numbers, not just the same direction


def test_the_followed_word_must_be_in_every_sentence():
    with pytest.raises(ConfigurationError, match="sentence 3 has no token 'bank': Bank staff"):
        word_positions(BANK, "bank", None)  # "Bank" is another token
    with pytest.raises(ConfigurationError, match="4 sentences but 2 positions"):
        word_positions(BANK, None, [1, 2])
    with pytest.raises(ConfigurationError, match="sentence 3 has 6 tokens: position 7"):
        word_positions(BANK, None, [0, 0, 7, 0])


def test_similarity_command_prints_every_layer_and_writes_heatmap_and_json(tiny_elmo, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    text = tmp_path / "bank.txt"
    text.write_text("The boat drifted to the bank .\n\nShe went to the bank to pay .\n", encoding="utf-8")
    run_subcommand(
        "elmo-similarity",
        str(text),
        "--word",
        "bank",
        "--heatmap",
        str(tmp_path / "bank.svg"),
        "--output-json",
        str(tmp_path / "bank.json"),
    )
    printed = capsys.readouterr().out
    assert "layer 0 (characters): cosine similarity (mean off the diagonal 1.0000)" in printed
    assert "S2: She went to the [bank] to pay ." in printed
    written = json.loads((tmp_path / "bank.json").read_text())
    assert list(written["cosine"]) == ["0", "1", "2", "average"] and written["positions"] == [5, 4]
    svg = (tmp_path / "bank.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<rect") == 1 + 4 * 4 and "layer 2 (biLSTM)" in svg
