"""Coreference through the plain `allennlp` command: train, evaluate and predict, as docs/coref.md shows."""

import json

import pytest

from tests.helpers.repository import allennlp, evaluate, predict

METRIC_NAMES = [
    f"{metric}_{measure}" for metric in ("muc", "b3", "ceafe", "coref") for measure in ("precision", "recall", "f1")
]


@pytest.fixture(scope="module")
def trained_coref_archive(tmp_path_factory, tiny_coref_conll, tiny_elmo):
    import os

    environment = dict(os.environ)
    environment.update(
        COREF_TRAIN_DATA=str(tiny_coref_conll),
        COREF_DEV_DATA=str(tiny_coref_conll),
        COREF_TEST_DATA=str(tiny_coref_conll),
        COREF_WORD_VECTORS="",
        ELMO_OPTIONS_FILE=str(tiny_elmo[0]),
        ELMO_WEIGHT_FILE=str(tiny_elmo[1]),
    )
    serialization_dir = tmp_path_factory.mktemp("runs") / "coref"
    allennlp(
        "train",
        "configs/coref_elmo.jsonnet",
        "-s",
        str(serialization_dir),
        "-o",
        json.dumps({"trainer.num_epochs": 2}),
        environment=environment,
    )
    return serialization_dir, environment


def test_train_reports_every_conll_metric(trained_coref_archive):
    serialization_dir, _ = trained_coref_archive
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    for name in METRIC_NAMES + ["mention_recall"]:
        for split in ("best_validation", "test"):
            assert 0.0 <= metrics[f"{split}_{name}"] <= 1.0, f"{split}_{name}"
    average = sum(metrics[f"test_{metric}_f1"] for metric in ("muc", "b3", "ceafe")) / 3
    assert metrics["test_coref_f1"] == pytest.approx(average)


def test_evaluate_scores_a_conll_file(trained_coref_archive, tiny_coref_conll):
    serialization_dir, environment = trained_coref_archive
    metrics = evaluate(serialization_dir / "model.tar.gz", tiny_coref_conll, environment=environment)
    # the training scored the same file as its test set, with the same archived weights
    trained = json.loads((serialization_dir / "metrics.json").read_text())
    for name in METRIC_NAMES:
        assert metrics[name] == pytest.approx(trained[f"test_{name}"], abs=1e-6), name


def test_predict_on_raw_documents_with_the_default_predictor(trained_coref_archive, tmp_path):
    serialization_dir, environment = trained_coref_archive
    text = "Ada Lovelace met Charles Babbage.  She admired his engine, and he showed it to her."
    inputs = tmp_path / "input.jsonl"
    lines = [{"document": text}, {"document": "  "}, {"document": "Alan Turing worked there.", "genre": "nw"}]
    inputs.write_text("".join(json.dumps(line) + "\n" for line in lines) + "not json\n")
    predictions = predict(serialization_dir / "model.tar.gz", inputs, environment=environment)
    assert len(predictions) == 4
    first = predictions[0]
    assert first["tokens"][:6] == ["Ada", "Lovelace", "met", "Charles", "Babbage", "."]
    for cluster in first["clusters"]:
        assert len(cluster) >= 2
        for mention in cluster:
            assert text[mention["start"] : mention["end"]] == mention["text"]
            assert mention["text"].startswith(first["tokens"][mention["token_start"]])
            assert 0 < mention["token_end"] - mention["token_start"] <= 10
    assert predictions[1] == {"error": "the document is empty", "input": {"document": "  "}}
    assert predictions[2]["tokens"] == ["Alan", "Turing", "worked", "there", "."]
    assert predictions[3] == {"error": 'expected a JSON object with a "document" string', "input": "not json"}


def test_predict_on_a_conll_file_gives_token_spans(trained_coref_archive, tiny_coref_conll):
    serialization_dir, environment = trained_coref_archive
    predictions = predict(
        serialization_dir / "model.tar.gz", tiny_coref_conll, "--use-dataset-reader", environment=environment
    )
    assert len(predictions) == 3
    assert predictions[1]["tokens"][:3] == ["I", "saw", "Grace"]
    for mention in (mention for prediction in predictions for cluster in prediction["clusters"] for mention in cluster):
        assert set(mention) == {"text", "token_start", "token_end"}
