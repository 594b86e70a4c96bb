"""Looking inside a biLM: contextual similarity, nearest neighbours, layer probes, sentence vectors (tasks/inspect)."""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import h5py
import numpy
import pytest
import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError

from data_readers.conllu_words import read_conllu_words
from data_readers.errors import DataFormatError
from tasks.elmo import FrozenBilm
from tasks.elmo.embed import embed_file, masked_mean
from tasks.inspect.neighbours import NeighbourIndex, build_index
from tasks.inspect.probes import most_frequent_sense, most_frequent_tag_accuracy, sense_probe, tag_probe, train_linear_probe
from tasks.inspect.similarity import contextual_similarity, word_positions
from tasks.inspect.vectors import layer_stacks, unit_rows

ROOT = Path(__file__).resolve().parent.parent
ALLENNLP = str(Path(sys.executable).parent / "allennlp")

BANK = [
    "The boat drifted to the bank of the river .".split(),
    "She paid the cheque into the bank on Monday .".split(),
    "Bank staff went on strike .".split(),
    "They sat on the grassy bank and ate .".split(),
]


@pytest.fixture(scope="module")
def bilm(tiny_elmo):
    return FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]))


def run_subcommand(name, *arguments):
    """Parses `arguments` with the registered subcommand's own parser and runs it, in this process."""
    parser = argparse.ArgumentParser()
    Subcommand.by_name(name)().add_subparser(parser.add_subparsers())
    parsed = parser.parse_args([name, *arguments])
    parsed.func(parsed)


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
    numpy.testing.assert_allclose(similarities.matrices["mix"], similarities.matrices["2"], atol=1e-6)  # all weight on layer 2
    stacks = dict(layer_stacks(bilm, sentences))
    numpy.testing.assert_array_equal(stacks[0][0, 5], stacks[2][0, 5])  # the very same numbers, not just the same direction


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
    run_subcommand("elmo-similarity", str(text), "--word", "bank", "--heatmap", str(tmp_path / "bank.svg"),
                   "--output-json", str(tmp_path / "bank.json"))
    printed = capsys.readouterr().out
    assert "layer 0 (characters): cosine similarity (mean off the diagonal 1.0000)" in printed
    assert "S2: She went to the [bank] to pay ." in printed
    written = json.loads((tmp_path / "bank.json").read_text())
    assert list(written["cosine"]) == ["0", "1", "2", "average"] and written["positions"] == [5, 4]
    svg = (tmp_path / "bank.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<rect") == 1 + 4 * 4 and "layer 2 (biLSTM)" in svg


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
    index_settings = build_index(sentences, str(tmp_path / "index"), str(tiny_elmo[0]), str(tiny_elmo[1]), str(elmo_cache_directory))
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
    run_subcommand("elmo-neighbours", str(tmp_path / "index"), "Let us play chess.", "--word", "play", "--top", "2",
                   "--mix-weights", "0.5,0.25,0.25", "--output-json", str(tmp_path / "play.json"))
    printed = capsys.readouterr().out
    assert "Source: Let us [play] chess ." in printed and "given mix:" in printed
    assert "1.0000  #0  We went out to [play] football after school ." in printed
    written = json.loads((tmp_path / "play.json").read_text())
    assert list(written["neighbours"]) == ["0", "1", "2", "average", "mix"] and len(written["neighbours"]["mix"]) == 2
    with pytest.raises(ConfigurationError, match="holds no neighbour index"):
        NeighbourIndex(str(tmp_path))


def test_a_linear_probe_learns_a_separable_toy_task():
    generator = numpy.random.default_rng(0)
    centres = generator.normal(size=(3, 8)) * 4

    def sample(count):
        labels = generator.integers(0, 3, size=count)
        return centres[labels] + generator.normal(size=(count, 8)) * 0.5, labels

    train_features, train_labels = sample(300)
    test_features, test_labels = sample(100)
    names = numpy.array(["NOUN", "VERB", "ADJ"])
    assert tag_probe(train_features, names[train_labels], test_features, names[test_labels]) == 1.0
    probe = train_linear_probe(train_features, train_labels, 3)
    with torch.no_grad():
        assert (probe(torch.tensor(test_features, dtype=torch.float32)).argmax(1).numpy() == test_labels).all()
    # A tag training never saw cannot be predicted: it counts as an error.
    assert tag_probe(train_features, names[train_labels], test_features[:4], ["X", *names[test_labels[1:4]]]) == 0.75
    # Noise features carry nothing the probe could learn.
    noise = generator.normal(size=(300, 8))
    assert tag_probe(noise[:200], names[train_labels[:200]], noise[200:], names[train_labels[200:]]) < 0.6


def test_most_frequent_tag_baseline():
    # run: VERB (2 of 3); dog: NOUN; an unseen word: NOUN, the most frequent tag overall
    train_words, train_tags = ["run", "run", "run", "dog", "dog"], ["VERB", "VERB", "NOUN", "NOUN", "NOUN"]
    assert most_frequent_tag_accuracy(train_words, train_tags, ["run", "dog", "cat"], ["VERB", "VERB", "NOUN"]) == pytest.approx(2 / 3)


def test_sense_probe_takes_the_nearest_roleset_of_the_same_lemma():
    east, north, west = [1.0, 0.0], [0.0, 1.0], [-1.0, 0.1]
    train = numpy.array([east, east, north, west])
    train_rolesets = ["run.01", "run.01", "run.02", "walk.01"]
    test = numpy.array([[0.9, 0.2], [0.1, 0.8], [0.9, 0.0], [0.0, 1.0]])
    # run.01 near east, run.02 near north; walk has one roleset; "jump" was never seen: jump.01
    test_rolesets = ["run.01", "run.02", "walk.01", "jump.01"]
    result = sense_probe(train, train_rolesets, test, test_rolesets)
    assert (result.accuracy, result.ambiguous_accuracy, result.predicates, result.ambiguous_predicates) == (1.0, 1.0, 4, 2)
    baseline = most_frequent_sense(train_rolesets, test_rolesets)
    assert (baseline.accuracy, baseline.ambiguous_accuracy) == (0.75, 0.5)


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
    for name, source, settings in [("tokens", text, {}), ("mean", text, {"sentence_vectors": True}),
                                   ("alone", alone, {"sentence_vectors": True}),
                                   ("top", text, {"sentence_vectors": True, "layers": "top"})]:
        files[name] = tmp_path / f"{name}.hdf5"
        embed_file(str(source), str(files[name]), str(tiny_elmo[0]), str(tiny_elmo[1]), tokenized=True, batch_size=8, **settings)
    with h5py.File(files["tokens"]) as tokens, h5py.File(files["mean"]) as means, h5py.File(files["alone"]) as alone_means, \
            h5py.File(files["top"]) as top:
        for index in ("0", "2"):
            assert means[index].shape == (3, 32)
            numpy.testing.assert_allclose(means[index][()], tokens[index][()].mean(axis=1), atol=1e-6)
            numpy.testing.assert_allclose(top[index][()], means[index][2], atol=1e-6)
        numpy.testing.assert_allclose(alone_means["0"][()], means["0"][()], atol=1e-5)  # padding in the batch changes nothing
        numpy.testing.assert_array_equal(means["1"][()], numpy.zeros((3, 32)))  # the empty line


UP_FILE = """# sent_id = one
# text = Kim ran the shop.
1\tKim\tKim\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\t_\tARG0
2\tran\trun\tVERB\tVBD\t_\t0\troot\t_\t_\trun.02\tV
3\tthe\tthe\tDET\tDT\t_\t4\tdet\t_\t_\t_\t_
4\tshop\tshop\tNOUN\tNN\t_\t2\tobj\t_\tSpaceAfter=No\t_\tARG1
5\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\t_\t_

# sent_id = two
# propbank = no-up
1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\t_
1\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\t_
2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\t_
3\trun\trun\tVERB\tVB\t_\t0\troot\t_\t_\trun.01
3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t_\t_\t_

"""


def test_conllu_words_reader_keeps_tags_and_rolesets_and_counts_what_it_skips(tmp_path, caplog):
    path = tmp_path / "up.conllu"
    path.write_text(UP_FILE, encoding="utf-8")
    with caplog.at_level("INFO"):
        first, second = read_conllu_words(str(path))
    assert first.words == ["Kim", "ran", "the", "shop", "."] and first.xpos[1] == "VBD" and first.upos[3] == "NOUN"
    assert first.rolesets == [None, "run.02", None, None, None]
    assert second.words == ["do", "n't", "run"] and second.rolesets == [None, None, None]  # no-up: no roleset read
    assert "1 multiword-token lines, 1 empty nodes, 1 sentences without PropBank annotation" in caplog.text
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tKim\tKim\tPROPN\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="bad.conllu, line 1: expected the 10 tab-separated columns"):
        read_conllu_words(str(bad))
    bad.write_text("1\tKim\tKim\tPROPN\tNNP\t_\t0\troot\t_\t_\n3\tran\trun\tVERB\tVBD\t_\t1\tx\t_\t_\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="line 2: expected word ID 2"):
        read_conllu_words(str(bad))


def test_probe_command_writes_table_json_and_chart(tiny_elmo, tmp_path, ner_environment):
    path = tmp_path / "up.conllu"
    path.write_text(UP_FILE * 3, encoding="utf-8")
    output = tmp_path / "probe"
    result = subprocess.run(
        [ALLENNLP, "elmo-probe", str(path), str(path), str(output), "--iterations", "20"],
        cwd=ROOT, env=ner_environment, capture_output=True, text=True, timeout=600,
    )  # the biLM from ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE: tiny_elmo
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads((output / "probe.json").read_text())
    assert results["views"] == ["0", "1", "2", "average"] and list(results["tasks"]) == ["upos", "xpos", "sense"]
    assert results["train"] == {"sentences": 6, "tokens": 24, "predicates": 3}
    assert results["tasks"]["sense"]["views"]["1"] == 1.0  # run.02 is the only roleset of "run" in training
    table = (output / "probe.md").read_text()
    assert "| layer 1 (biLSTM) |" in table and "train: 6 sentences, 24 tokens, 3 predicates" in table
    assert (output / "probe.svg").read_text().startswith("<svg") and "| view | UPOS |" in result.stdout
