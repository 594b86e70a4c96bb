"""`allennlp elmo-index` and `allennlp elmo-neighbours`: the tokens of a corpus nearest to one in context (Table 4)."""

import json

import pytest
from allennlp.common.checks import ConfigurationError

from tasks.inspect.neighbours import NeighbourIndex, build_index
from tasks.inspect.vectors import layer_stacks, unit_rows
from tests.helpers.repository import run_subcommand

CORPUS = [
    "We went out to play football after school .",
    "The children play in the garden every day .",
    "The play opened at the theatre last night .",
    "Critics praised the new play and its actors .",
    "",
    "Rain fell on the quiet town .",
]


def test_neighbours_come_from_the_indexed_corpus_per_layer(tiny_elmo, tmp_path, elmo_cache_directory):
    sentences = [line.split() for line in CORPUS]
    index_settings = build_index(
        sentences, str(tmp_path / "index"), str(tiny_elmo[0]), str(tiny_elmo[1]), str(elmo_cache_directory)
    )
    assert (index_settings["sentences"], index_settings["empty_lines_left_out"]) == (5, 1)
    with pytest.raises(ConfigurationError, match="already holds an index"):
        build_index(sentences, str(tmp_path / "index"), str(tiny_elmo[0]), str(tiny_elmo[1]), str(elmo_cache_directory))
    with pytest.raises(ConfigurationError, match="set ELMO_CACHE_DIR to a directory"):
        build_index(sentences, str(tmp_path / "other"), str(tiny_elmo[0]), str(tiny_elmo[1]), "none")

    index = NeighbourIndex(str(tmp_path / "index"))
    query = "The play opened at the theatre last night .".split()  # indexed itself: that token is left out
    found = index.nearest(query, 1, top=3)
    assert list(found) == ["0", "1", "2", "average"]
    # Layer 0: the other three "play" tokens, identical vectors whatever their context.
    assert [(n.tokens[n.position], round(n.similarity, 5)) for n in found["0"]] == [("play", 1.0)] * 3
    assert (2, 1) not in [(n.sentence, n.position) for view in found.values() for n in view]
    assert index.bilm.cache.misses == 0 or index.bilm.cache.hits > 0
    # The similarity reported is the cosine of the two tokens' vectors.
    best = found["2"][0]
    stacks = dict(layer_stacks(index.bilm, [query, best.tokens]))
    expected = float(unit_rows(stacks[0][2, 1]) @ unit_rows(stacks[1][2, best.position]))
    assert best.similarity == pytest.approx(expected, abs=1e-5)
    assert all(a.similarity >= b.similarity for a, b in zip(found["2"], found["2"][1:]))


def test_neighbours_command_prints_the_sentences(tiny_elmo, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    run_subcommand("elmo-index", str(corpus), str(tmp_path / "index"), "--tokenized")
    run_subcommand(
        "elmo-neighbours",
        str(tmp_path / "index"),
        "Let us play chess.",
        "--word",
        "play",
        "--top",
        "2",
        "--mix-weights",
        "0.5,0.25,0.25",
        "--output-json",
        str(tmp_path / "play.json"),
    )
    printed = capsys.readouterr().out
    assert "Source: Let us [play] chess ." in printed and "given mix:" in printed
    assert "1.0000  #0  We went out to [play] football after school ." in printed
    written = json.loads((tmp_path / "play.json").read_text())
    assert list(written["neighbours"]) == ["0", "1", "2", "average", "mix"] and len(written["neighbours"]["mix"]) == 2
    with pytest.raises(ConfigurationError, match="holds no neighbour index"):
        NeighbourIndex(str(tmp_path))
