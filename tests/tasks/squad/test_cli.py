"""SQuAD through the plain `allennlp` command: train, evaluate and predict, and what the archive holds."""

import json
import os

import pytest
import torch
from allennlp.models.archival import load_archive

from tests.helpers.repository import allennlp, evaluate, predict
from tests.helpers.squad_data import write_squad


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_elmo):
    """configs/squad_elmo.jsonnet trained for 2 epochs on the tiny fixture, in batches of 4."""
    squad = write_squad(tmp_path_factory.mktemp("squad") / "tiny.json")
    environment = dict(os.environ)
    environment.update(
        SQUAD_TRAIN_DATA=str(squad),
        SQUAD_DEV_DATA=str(squad),
        SQUAD_WORD_VECTORS="",
        ELMO_OPTIONS_FILE=str(tiny_elmo[0]),
        ELMO_WEIGHT_FILE=str(tiny_elmo[1]),
    )
    serialization_dir = tmp_path_factory.mktemp("runs") / "squad"
    overrides = json.dumps({"trainer.num_epochs": 2, "data_loader.batch_sampler.batch_size": 4})
    allennlp(
        "train", "configs/squad_elmo.jsonnet", "-s", str(serialization_dir), "-o", overrides, environment=environment
    )
    return serialization_dir, squad, environment


def test_the_archive_holds_the_moving_average_of_the_best_epoch(trained):
    serialization_dir, _, _ = trained
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    checkpoint = f"e{metrics['best_epoch'] + 1}_b0.th"
    averages = torch.load(serialization_dir / f"training_state_{checkpoint}")["moving_average"]["shadows"]
    raw = torch.load(serialization_dir / f"model_state_{checkpoint}")
    archived = load_archive(str(serialization_dir / "model.tar.gz")).model.state_dict()
    assert averages and set(averages) <= set(archived)
    assert not any("_elmo_lstm" in name for name in averages)  # the frozen biLM is not averaged
    for name, average in averages.items():
        assert torch.equal(archived[name], average), name
    assert any(not torch.equal(archived[name], raw[name]) for name in averages)


def test_evaluate_on_the_archive_reproduces_the_best_validation_scores(trained):
    serialization_dir, squad, environment = trained
    evaluated = evaluate(serialization_dir / "model.tar.gz", squad, environment=environment)
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    assert evaluated["em"] == pytest.approx(metrics["best_validation_em"], abs=1e-9)
    assert evaluated["f1"] == pytest.approx(metrics["best_validation_f1"], abs=1e-9)


def test_predict_answers_raw_text_with_the_default_predictor(trained, tmp_path):
    serialization_dir, _, environment = trained
    passage = "The Grey Heron was a schooner built in Ostrick in 1871. She carried tea to the Ember Islands."
    lines = [{"passage": passage, "question": "What did the Grey Heron carry?"}, {"question": "Who?"}]
    inputs = tmp_path / "input.jsonl"
    inputs.write_text("".join(json.dumps(line) + "\n" for line in lines))
    answer, error = predict(serialization_dir / "model.tar.gz", inputs, environment=environment)
    assert passage[answer["start"] : answer["end"]] == answer["answer"]
    assert 0 < answer["token_end"] - answer["token_start"] <= 17
    assert 0.0 < answer["score"] <= 1.0
    assert error == {"error": 'expected a JSON object with a "passage" string', "input": {"question": "Who?"}}
