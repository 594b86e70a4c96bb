import random

import pytest
from seqeval.metrics import classification_report

from tasks.ner.metrics import SeqevalF1, entity_spans


def test_hand_computed_case():
    gold = [
        ["B-PER", "L-PER", "O", "U-LOC", "O"],  # PER(0-1), LOC(3)
        ["U-ORG", "O", "B-LOC", "I-LOC", "L-LOC"],  # ORG(0), LOC(2-4)
    ]
    predicted = [
        ["B-PER", "L-PER", "O", "U-ORG", "O"],  # PER right; ORG(3) wrong type
        ["U-ORG", "O", "B-LOC", "L-LOC", "O"],  # ORG right; LOC(2-3) wrong boundary
    ]
    metric = SeqevalF1()
    metric(predicted, gold)
    result = metric.get_metric(reset=True)
    # 4 predicted, 4 gold, 2 correct (PER, ORG in sentence 2).
    assert result["precision-overall"] == pytest.approx(2 / 4)
    assert result["recall-overall"] == pytest.approx(2 / 4)
    assert result["f1-measure-overall"] == pytest.approx(0.5)
    # ORG: predicted 2, gold 1, correct 1. LOC: predicted 1, gold 2, correct 0.
    assert result["precision-ORG"] == pytest.approx(0.5)
    assert result["recall-ORG"] == pytest.approx(1.0)
    assert result["f1-measure-ORG"] == pytest.approx(2 / 3)
    assert result["f1-measure-LOC"] == 0.0
    assert result["f1-measure-PER"] == 1.0
    assert metric.get_metric()["f1-measure-overall"] == 0.0  # reset


def test_entity_spans_in_each_scheme():
    assert entity_spans(["B-PER", "I-PER", "L-PER", "O", "U-LOC"]) == [("PER", 0, 2), ("LOC", 4, 4)]
    assert entity_spans(["B-PER", "I-PER", "B-PER"]) == [("PER", 0, 1), ("PER", 2, 2)]
    assert entity_spans(["I-PER", "I-PER", "B-PER", "O"]) == [("PER", 0, 1), ("PER", 2, 2)]  # IOB1


def _random_tags(generator, length):
    return [generator.choice(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]) for _ in range(length)]


def test_agrees_with_seqeval_classification_report():
    generator = random.Random(0)
    gold = [_random_tags(generator, generator.randint(1, 12)) for _ in range(200)]
    predicted = [_random_tags(generator, len(sentence)) for sentence in gold]
    metric = SeqevalF1()
    for start in range(0, 200, 32):  # in batches, as during training
        metric(predicted[start : start + 32], gold[start : start + 32])
    ours = metric.get_metric(reset=True)
    report = classification_report(gold, predicted, output_dict=True, zero_division=0)
    for entity_type in ("PER", "LOC", "ORG"):
        assert ours[f"precision-{entity_type}"] == pytest.approx(report[entity_type]["precision"])
        assert ours[f"recall-{entity_type}"] == pytest.approx(report[entity_type]["recall"])
        assert ours[f"f1-measure-{entity_type}"] == pytest.approx(report[entity_type]["f1-score"])
    assert ours["precision-overall"] == pytest.approx(report["micro avg"]["precision"])
    assert ours["recall-overall"] == pytest.approx(report["micro avg"]["recall"])
    assert ours["f1-measure-overall"] == pytest.approx(report["micro avg"]["f1-score"])
