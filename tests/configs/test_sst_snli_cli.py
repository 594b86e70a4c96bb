"""
`allennlp train` on each ELMo config as shipped (one epoch on the tiny fixtures), then the archive it
wrote: loaded with its default predictor, whose raw-text answers and hand-counted accuracy on the
test file must agree with the test accuracy `allennlp train` reported.
"""

import json
import subprocess

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.helpers.repository import ALLENNLP, ROOT

TASKS = {"sst": "configs/sst_elmo.jsonnet", "snli": "configs/snli_elmo.jsonnet"}


@pytest.fixture(params=sorted(TASKS))
def trained(request, sst_snli_environment, tmp_path):
    environment = dict(sst_snli_environment, OMP_NUM_THREADS="1")  # one thread: faster on a busy 2-core machine
    serialization_dir = tmp_path / request.param
    result = subprocess.run(
        [ALLENNLP, "train", TASKS[request.param], "-s", str(serialization_dir), "-o", '{"trainer.num_epochs": 1}'],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return request.param, serialization_dir


def test_the_archive_predicts_raw_text_and_its_accuracy_is_the_reported_one(trained, tiny_sst, tiny_snli):
    task, serialization_dir = trained
    metrics = json.loads((serialization_dir / "metrics.json").read_text())
    predictor = Predictor.from_archive(load_archive(serialization_dir / "model.tar.gz"))
    expected_predictor = {"sst": "SentimentClassifierPredictor", "snli": "EntailmentClassifierPredictor"}[task]
    assert type(predictor).__name__ == expected_predictor

    if task == "sst":
        output = predictor.predict_json({"sentence": "The ending is truly brilliant."})
        assert output["tokens"] == ["The", "ending", "is", "truly", "brilliant", "."]
    else:
        output = predictor.predict_json({"premise": "A man is riding a bicycle.", "hypothesis": "A person rides."})
        assert output["hypothesis_tokens"] == ["A", "person", "rides", "."]
    assert output["label"] == max(output["probabilities"], key=output["probabilities"].get)

    test_file = tiny_sst if task == "sst" else tiny_snli
    instances = list(predictor._dataset_reader.read(str(test_file)))
    predictions = predictor.predict_batch_instance(instances)
    correct = sum(
        prediction["label"] == instance["label"].label for prediction, instance in zip(predictions, instances)
    )
    assert len(instances) == (8 if task == "sst" else 9)  # sentences only; SNLI's '-' pair left out
    assert metrics["test_accuracy"] == pytest.approx(correct / len(instances), abs=1e-6)
