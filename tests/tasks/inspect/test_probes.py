"""`allennlp elmo-probe`: part of speech and predicate sense probed per biLM layer (Tables 5 and 6)."""

import json

import numpy
import pytest
import torch

from tasks.inspect.probes import (
    most_frequent_sense,
    most_frequent_tag_accuracy,
    sense_probe,
    tag_probe,
    train_linear_probe,
)
from tests.helpers.repository import allennlp
from tests.helpers.srl_data import UP_FILE


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
    assert most_frequent_tag_accuracy(
        train_words, train_tags, ["run", "dog", "cat"], ["VERB", "VERB", "NOUN"]
    ) == pytest.approx(2 / 3)


def test_sense_probe_takes_the_nearest_roleset_of_the_same_lemma():
    east, north, west = [1.0, 0.0], [0.0, 1.0], [-1.0, 0.1]
    train = numpy.array([east, east, north, west])
    train_rolesets = ["run.01", "run.01", "run.02", "walk.01"]
    test = numpy.array([[0.9, 0.2], [0.1, 0.8], [0.9, 0.0], [0.0, 1.0]])
    # run.01 near east, run.02 near north; walk has one roleset; "jump" was never seen: jump.01
    test_rolesets = ["run.01", "run.02", "walk.01", "jump.01"]
    result = sense_probe(train, train_rolesets, test, test_rolesets)
    assert (result.accuracy, result.ambiguous_accuracy, result.predicates, result.ambiguous_predicates) == (
        1.0,
        1.0,
        4,
        2,
    )
    baseline = most_frequent_sense(train_rolesets, test_rolesets)
    assert (baseline.accuracy, baseline.ambiguous_accuracy) == (0.75, 0.5)


def test_probe_command_writes_table_json_and_chart(tiny_elmo, tmp_path, ner_environment):
    path = tmp_path / "up.conllu"
    path.write_text(UP_FILE * 3, encoding="utf-8")
    output = tmp_path / "probe"
    result = allennlp(
        "elmo-probe", str(path), str(path), str(output), "--iterations", "20", environment=ner_environment, check=False
    )  # the biLM from ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE: tiny_elmo
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads((output / "probe.json").read_text())
    assert results["views"] == ["0", "1", "2", "average"] and list(results["tasks"]) == ["upos", "xpos", "sense"]
    assert results["train"] == {"sentences": 6, "tokens": 24, "predicates": 3}
    assert results["tasks"]["sense"]["views"]["1"] == 1.0  # run.02 is the only roleset of "run" in training
    table = (output / "probe.md").read_text()
    assert "| layer 1 (biLSTM) |" in table and "train: 6 sentences, 24 tokens, 3 predicates" in table
    assert (output / "probe.svg").read_text().startswith("<svg") and "| view | UPOS |" in result.stdout
