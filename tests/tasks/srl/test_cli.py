"""
docs/srl.md's commands, run as a user runs them from the repository root: `allennlp train`,
`evaluate` and `predict`, and scripts/compare_srl_scores.py.
"""

import contextlib
import io
import json
import os
import runpy
import shutil
import sys

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.helpers.repository import ROOT, allennlp, evaluate, predict
from tests.helpers.srl_data import conllu_text, expected_frames, write_fixtures

TINY_SRL = json.dumps({"model.encoder.hidden_size": 8, "model.encoder.num_layers": 2, "trainer.num_epochs": 2})


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_elmo):
    """An SRL model (ELMo config) and a predicate tagger trained on the fixture, and their environment."""
    directory = tmp_path_factory.mktemp("srl")
    conllu, _ = write_fixtures(directory)
    environment = dict(os.environ)
    environment.update(
        SRL_DATA_FORMAT="universal_propbank",
        SRL_TRAIN_DATA=str(conllu),
        SRL_DEV_DATA=str(conllu),
        SRL_TEST_DATA=str(conllu),
        SRL_WORD_VECTORS="",
        SRL_PREDICATE_MODEL="",
        ELMO_OPTIONS_FILE=str(tiny_elmo[0]),
        ELMO_WEIGHT_FILE=str(tiny_elmo[1]),
    )
    allennlp("train", "configs/srl_elmo.jsonnet", "-s", str(directory / "srl"), "-o", TINY_SRL, environment=environment)
    allennlp(
        "train",
        "configs/srl_predicates.jsonnet",
        "-s",
        str(directory / "predicates"),
        "-o",
        json.dumps({"trainer.num_epochs": 2}),
        environment=environment,
    )
    return directory, conllu, environment


def test_train_reports_the_official_score_per_label(trained):
    directory, _, _ = trained
    metrics = json.loads((directory / "srl" / "metrics.json").read_text())
    for key in ("best_validation_f1-measure-overall", "test_f1-measure-overall", "test_recall-ARG1"):
        assert 0.0 <= metrics[key] <= 1.0, key
    predicate_metrics = json.loads((directory / "predicates" / "metrics.json").read_text())
    assert 0.0 <= predicate_metrics["test_predicate-f1"] <= 1.0


@pytest.fixture(scope="module")
def evaluated(trained):
    """What `allennlp evaluate` reports for the trained SRL model on the fixture."""
    directory, conllu, environment = trained
    return evaluate(directory / "srl" / "model.tar.gz", conllu, environment=environment)


@pytest.fixture(scope="module")
def compared(trained):
    """What scripts/compare_srl_scores.py prints and writes for the same model and file (run in this
    process, as `python scripts/compare_srl_scores.py ...` runs it, to save a second start-up)."""
    directory, conllu, _ = trained
    output = directory / "scores.json"
    archive = str(directory / "srl" / "model.tar.gz")
    arguments = [archive, str(conllu), "--batch-size", "3", "--output-file", str(output)]
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(printed):
        patch.setattr(sys, "argv", ["compare_srl_scores.py", *arguments])
        runpy.run_path(str(ROOT / "scripts" / "compare_srl_scores.py"), run_name="__main__")
    return json.loads(output.read_text()), printed.getvalue()


def test_evaluate_reads_the_data_with_the_archived_reader(trained, evaluated):
    # the training scored the same file as its test set, with the same archived weights
    trained_metrics = json.loads((trained[0] / "srl" / "metrics.json").read_text())
    for name in ("f1-measure-overall", "precision-overall", "recall-overall", "f1-measure-ARG0"):
        assert evaluated[name] == pytest.approx(trained_metrics[f"test_{name}"], abs=1e-6), name


def test_compare_scores_official_is_what_evaluate_reports(evaluated, compared):
    scores, printed = compared
    for name in ("precision", "recall", "f1-measure"):
        assert scores["official"][name] == pytest.approx(100 * evaluated[f"{name}-overall"], abs=0.01), name
    frames = len(expected_frames())
    assert scores["propositions"]["count"] == frames
    assert 0 <= scores["propositions"]["argmax_invalid_bio"] <= frames
    printed_names = {line.split()[0] for line in printed.splitlines() if line.strip()}
    for name in ("official", "span_f1", "span_f1/argmax", "official/prob"):
        assert set(scores[name]) == {"precision", "recall", "f1-measure"} and 0 <= scores[name]["f1-measure"] <= 100
        assert name in printed_names, name


def test_a_role_the_training_data_lacked_is_scored_as_a_miss(trained, tmp_path):
    """A valid role seen only in test data (here ARGM-MNR, for the fixture's ARGM-TMP) counts against the model."""
    directory, _, environment = trained
    renamed = tmp_path / "renamed.conllu"
    renamed.write_text(conllu_text().replace("ARGM-TMP", "ARGM-MNR"), encoding="utf-8")
    labels = (directory / "srl" / "vocabulary" / "labels.txt").read_text().split()
    assert "B-ARGM-MNR" not in labels and {"B-ARGM-TMP", "I-ARGM-TMP", "B-C-V", "I-C-V"} <= set(labels)
    metrics = evaluate(directory / "srl" / "model.tar.gz", renamed, environment=environment)
    assert metrics["recall-ARGM-MNR"] == 0.0  # three gold arguments the model cannot predict
    assert metrics["recall-overall"] < 1.0 and metrics["f1-measure-ARG0"] >= 0.0


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is needed to run the official srl-eval.pl")
def test_compare_scores_official_is_what_srl_eval_pl_computes(compared):
    scores, _ = compared
    for name in ("precision", "recall", "f1-measure"):
        assert scores["srl-eval.pl"][name] == pytest.approx(scores["official"][name], abs=0.01), name


def test_predict_finds_predicates_and_labels_their_arguments(trained, tmp_path):
    directory, _, environment = trained
    inputs = tmp_path / "input.jsonl"
    lines = [
        {"sentence": "Ada repaired the old bridge."},
        {"sentence": "The pilot sold it.", "predicates": [2]},
        {"sentence": ""},
        {"sentence": "Ben left.", "predicates": [7]},
    ]
    inputs.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    predictor_args = json.dumps({"predicate_model": str(directory / "predicates" / "model.tar.gz")})
    predictions = predict(
        directory / "srl" / "model.tar.gz", inputs, "--predictor-args", predictor_args, environment=environment
    )
    assert len(predictions) == 4
    assert predictions[0]["tokens"] == ["Ada", "repaired", "the", "old", "bridge", "."]
    for frame in predictions[0]["frames"]:  # whichever predicates the two-epoch tagger found
        assert 0 <= frame["predicate"]["token_index"] < 6 and len(frame["tags"]) == 6
    sold = predictions[1]["frames"]
    assert [frame["predicate"] for frame in sold] == [{"text": "sold", "token_index": 2, "start": 10, "end": 14}]
    for argument in sold[0]["arguments"]:
        assert "The pilot sold it."[argument["start"] : argument["end"]] == argument["text"]
        assert argument["label"] != "V" and 0 <= argument["token_start"] < argument["token_end"] <= 5
    assert predictions[2] == {"error": "the sentence is empty", "input": {"sentence": ""}}
    assert predictions[3]["error"] == '"predicates" must be a list of word indices from 0 to 2'


def test_the_srl_archive_alone_finds_the_predicates_of_raw_text(trained, tmp_path):
    """`allennlp predict` with the SRL archive and nothing else: its predicate finder marks the predicates."""
    directory, _, environment = trained
    inputs = tmp_path / "input.jsonl"
    inputs.write_text(json.dumps({"sentence": "Ada repaired the old bridge."}) + "\n", encoding="utf-8")
    (prediction,) = predict(directory / "srl" / "model.tar.gz", inputs, environment=environment)
    assert "error" not in prediction
    predictor = Predictor.from_archive(load_archive(str(directory / "srl" / "model.tar.gz")))
    found = predictor._tag_predicates(
        [predictor._tokenized({"sentence": "Ada repaired the old bridge."}, "sentence")[1]]
    )
    assert [frame["predicate"]["token_index"] for frame in prediction["frames"]] == found[0]
    metrics = json.loads((directory / "srl" / "metrics.json").read_text())
    assert 0 <= metrics["best_validation_predicate-f1"] <= 1 and "test_predicate-f1" in metrics


def test_predictor_without_a_finder_or_a_tagger_asks_for_predicates(trained):
    directory, _, _ = trained
    predictor = Predictor.from_archive(load_archive(str(directory / "srl" / "model.tar.gz")))
    predictor._model.predicate_finder = None  # as an archive trained without one
    result = predictor.predict_json({"sentence": "Ada slept."})
    assert result["error"].startswith('no predicates: this model has no predicate finder; give "predicates"')
    result = predictor.predict_json({"sentence": "Ada slept.", "predicates": [1]})
    assert [frame["predicate"]["text"] for frame in result["frames"]] == ["slept"]


def test_predictor_on_data_file_instances_gives_one_frame_each(trained):
    directory, conllu, _ = trained
    archive = load_archive(str(directory / "srl" / "model.tar.gz"))
    predictor = Predictor.from_archive(archive)
    instances = list(archive.validation_dataset_reader.read(str(conllu)))[:2]
    results = predictor.predict_batch_instance(instances)
    assert [result["frames"][0]["predicate"] for result in results] == [
        {"text": "repaired", "token_index": 1},
        {"text": "built", "token_index": 3},
    ]
    assert all("start" not in argument for result in results for argument in result["frames"][0]["arguments"])
