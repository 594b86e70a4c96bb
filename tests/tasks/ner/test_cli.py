"""NER through the plain `allennlp` command, as docs/ner.md shows: train, recover, evaluate and predict."""

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.helpers.repository import allennlp, evaluate, predict


@pytest.fixture(scope="module")
def trained_archive(tmp_path_factory, tiny_conll, tiny_elmo):
    environment = _environment(tiny_conll, tiny_elmo)
    serialization_dir = tmp_path_factory.mktemp("runs") / "ner"
    overrides = json.dumps({"trainer.num_epochs": 2})
    allennlp(
        "train", "configs/ner_elmo.jsonnet", "-s", str(serialization_dir), "-o", overrides, environment=environment
    )
    return serialization_dir, environment


def _environment(tiny_conll, tiny_elmo):
    import os

    environment = dict(os.environ)
    environment.update(
        NER_TRAIN_DATA=str(tiny_conll),
        NER_DEV_DATA=str(tiny_conll),
        NER_TEST_DATA=str(tiny_conll),
        ELMO_OPTIONS_FILE=str(tiny_elmo[0]),
        ELMO_WEIGHT_FILE=str(tiny_elmo[1]),
        NER_WORD_VECTORS="",
    )
    return environment


def test_train_writes_an_archive_with_entity_metrics(trained_archive):
    serialization_dir, _ = trained_archive
    assert (serialization_dir / "model.tar.gz").is_file()
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    for key in ("best_validation_f1-measure-overall", "test_f1-measure-overall", "validation_f1-measure-PER"):
        assert 0.0 <= metrics[key] <= 1.0, key


def test_recover_continues_from_the_last_checkpoint(trained_archive):
    serialization_dir, environment = trained_archive
    overrides = json.dumps({"trainer.num_epochs": 2})
    result = allennlp(
        "train",
        "configs/ner_elmo.jsonnet",
        "-s",
        str(serialization_dir),
        "-o",
        overrides,
        "--recover",
        environment=environment,
    )
    assert "Recovering from prior training" in result.stderr
    # Both epochs were checkpointed: a restored state leaves none to run, a failed restore reruns them.
    assert "Epoch 0/1" not in result.stderr and "Epoch 1/1" not in result.stderr


def test_evaluate_reports_overall_and_per_type_scores(trained_archive, tiny_conll):
    serialization_dir, environment = trained_archive
    metrics = evaluate(serialization_dir / "model.tar.gz", tiny_conll, environment=environment)
    # the training scored the same file as its test set, with the same archived weights
    trained = json.loads((serialization_dir / "metrics.json").read_text())
    for name in ("f1-measure-overall", "precision-overall", "recall-overall", "f1-measure-LOC", "f1-measure-PER"):
        assert metrics[name] == pytest.approx(trained[f"test_{name}"], abs=1e-6), name


LONG_LOCATION = """-DOCSTART- -X- -X- O

They PRP I-NP O
visited VBD I-VP O
New NNP I-NP I-LOC
York NNP I-NP I-LOC
City NNP I-NP I-LOC
Hall NNP I-NP I-LOC
. . O O
"""


def test_an_entity_longer_than_any_in_training_is_scored(trained_archive, tmp_path):
    """
    Every location of the fixture is one word long, so its BIOUL tags are U-LOC only; a four-word
    location (B-LOC I-LOC I-LOC L-LOC) is a valid gold entity that evaluation scores.
    """
    serialization_dir, environment = trained_archive
    labels = (serialization_dir / "vocabulary" / "labels.txt").read_text().split()
    assert {f"{prefix}-{kind}" for prefix in "BIUL" for kind in ("PER", "LOC", "ORG", "MISC")} | {"O"} == set(labels)
    data = tmp_path / "long_location.conll"
    data.write_text(LONG_LOCATION, encoding="utf-8")
    metrics = evaluate(serialization_dir / "model.tar.gz", data, environment=environment)
    assert metrics["recall-LOC"] in (0.0, 1.0)  # one gold location: found whole or not
    assert metrics["f1-measure-overall"] == metrics["f1-measure-LOC"]


def test_predict_on_raw_text_with_the_default_predictor(trained_archive, tmp_path):
    serialization_dir, environment = trained_archive
    inputs = tmp_path / "input.jsonl"
    lines = [{"sentence": "Alan Turing worked at Bletchley Park."}, {"sentence": ""}, {"sentence": "Rome fell."}]
    # A byte order mark, a blank line and a line of Latin-1 among them: each answered in its place.
    text = "".join(json.dumps(line) + "\n" for line in lines) + "not json\n\n"
    inputs.write_bytes(
        b"\xef\xbb\xbf" + text.encode() + '{"sentence": "Zürich"}\n'.encode("latin-1") + b'{"sentence": "Ada."}\n'
    )
    predictions = predict(serialization_dir / "model.tar.gz", inputs, environment=environment)
    assert len(predictions) == 7
    assert predictions[0]["tokens"] == ["Alan", "Turing", "worked", "at", "Bletchley", "Park", "."]
    assert len(predictions[0]["tags"]) == 7
    assert predictions[1] == {"error": "the sentence is empty", "input": {"sentence": ""}}
    assert predictions[2]["tokens"] == ["Rome", "fell", "."]
    assert predictions[3] == {"error": 'expected a JSON object with a "sentence" string', "input": "not json"}
    assert predictions[4] == {"error": "input line 5: blank line, expected a JSON object", "input": ""}
    assert predictions[5]["error"] == "input line 6: not UTF-8 text (byte 0xfc at byte 16)"
    assert predictions[6]["tokens"] == ["Ada", "."]


def test_a_variable_naming_a_missing_file_stops_the_run(tiny_conll, tiny_elmo, tmp_path):
    environment = _environment(tiny_conll, tiny_elmo)
    environment["NER_TRAIN_DATA"] = str(tmp_path / "missing" / "eng.train")
    result = allennlp(
        "train", "configs/ner_elmo.jsonnet", "-s", str(tmp_path / "run"), environment=environment, check=False
    )
    assert result.returncode != 0
    assert f"NER_TRAIN_DATA names '{tmp_path / 'missing' / 'eng.train'}', which is not a file" in result.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "variable, damage, message",
    [
        ("NER_TRAIN_DATA", b"", "no instances: the file is empty"),
        ("ELMO_WEIGHT_FILE", b"\x89HDF\r\n\x1a\n", "cannot read the biLM weights"),
    ],
)
def test_an_empty_or_truncated_input_stops_the_run_naming_it(
    tiny_conll, tiny_elmo, tmp_path, variable, damage, message
):
    environment = _environment(tiny_conll, tiny_elmo)
    damaged = tmp_path / "damaged"
    damaged.write_bytes(damage)
    environment[variable] = str(damaged)
    result = allennlp(
        "train", "configs/ner_elmo.jsonnet", "-s", str(tmp_path / "run"), environment=environment, check=False
    )
    assert result.returncode != 0
    assert f"{damaged}: {message}" in result.stderr


@pytest.mark.slow
def test_an_archive_predicts_from_any_directory_once_tasks_is_imported(trained_archive, tmp_path):
    """
    Outside the repository there is no .allennlp_plugins: `--include-package tasks`, or `import
    tasks`, registers the suite.
    """
    serialization_dir, environment = trained_archive
    archive = str(serialization_dir / "model.tar.gz")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "input.jsonl").write_text(json.dumps({"sentence": "Ada visited Turin."}) + "\n", encoding="utf-8")
    unregistered = allennlp(
        "predict", archive, "input.jsonl", "--silent", environment=environment, check=False, cwd=elsewhere
    )
    assert unregistered.returncode != 0 and "not in acceptable choices" in unregistered.stderr
    allennlp(
        "predict",
        archive,
        "input.jsonl",
        "--silent",
        "--output-file",
        "predictions.jsonl",
        "--include-package",
        "tasks",
        environment=environment,
        cwd=elsewhere,
    )
    prediction = json.loads((elsewhere / "predictions.jsonl").read_text(encoding="utf-8"))
    assert prediction["tokens"] == ["Ada", "visited", "Turin", "."]
    in_python = (
        "import json, tasks\n"
        "from allennlp.predictors import Predictor\n"
        f"predictor = Predictor.from_path({archive!r})\n"
        "print(json.dumps(predictor.predict_json({'sentence': 'Ada visited Turin.'})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", in_python], cwd=elsewhere, env=environment, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == prediction


def _as_if_trained_elsewhere(archive: Path, copy: Path, **elmo_values) -> Path:
    """A copy of `archive` whose config gives its ELMo other values: another machine's paths."""
    with tarfile.open(archive) as tar:
        members = {member.name: tar.extractfile(member).read() for member in tar.getmembers() if member.isfile()}
    config = json.loads(members["config.json"])
    config["model"]["text_field_embedder"]["token_embedders"]["elmo"].update(elmo_values)
    members["config.json"] = json.dumps(config).encode()
    with tarfile.open(copy, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return copy


def test_an_archive_takes_this_machines_cache_not_the_trainers(trained_archive, tmp_path):
    serialization_dir, environment = trained_archive
    unmakeable = tmp_path / "a_file"
    unmakeable.write_text("not a folder")
    trainers_cache = unmakeable / "trainer" / "cache"  # cannot be made here: its parent is a file
    archive = _as_if_trained_elsewhere(
        serialization_dir / "model.tar.gz", tmp_path / "elsewhere.tar.gz", cache_directory=str(trainers_cache)
    )
    inputs = tmp_path / "input.jsonl"
    inputs.write_text('{"sentence": "Ada Lovelace visited Turin."}\n')
    for setting in ("none", str(tmp_path / "here")):
        predictions = predict(archive, inputs, environment={**environment, "ELMO_CACHE_DIR": setting})
        assert predictions[0]["tokens"] == ["Ada", "Lovelace", "visited", "Turin", "."]
    assert [path.name for path in (tmp_path / "here").iterdir()]  # this machine's cache was filled
    metrics = evaluate(archive, environment["NER_TEST_DATA"], environment={**environment, "ELMO_CACHE_DIR": "none"})
    assert 0.0 <= metrics["f1-measure-overall"] <= 1.0


def test_an_archive_whose_biLM_is_elsewhere_says_how_to_point_at_it(trained_archive, tiny_elmo, tmp_path):
    serialization_dir, environment = trained_archive
    options, weights = (str(tmp_path / "gone" / name) for name in ("options.json", "weights.hdf5"))
    archive = _as_if_trained_elsewhere(
        serialization_dir / "model.tar.gz", tmp_path / "elsewhere.tar.gz", options_file=options, weight_file=weights
    )
    inputs = tmp_path / "input.jsonl"
    inputs.write_text('{"sentence": "Rome fell."}\n')
    # The environment names the biLM the model was trained with: it is used in place of the missing files.
    assert predict(archive, inputs, environment=environment)[0]["tokens"] == ["Rome", "fell", "."]
    # Another biLM (the bundled one) is refused by the weights' sha256, saying how to give the right one.
    bundled = {key: value for key, value in environment.items() if not key.startswith("ELMO_")}
    result = allennlp("predict", str(archive), str(inputs), "--silent", environment=bundled, check=False)
    assert result.returncode != 0
    assert "give the weight file the model was trained with" in result.stderr
    assert "ELMO_OPTIONS_FILE and ELMO_WEIGHT_FILE, or its path with --overrides" in result.stderr
