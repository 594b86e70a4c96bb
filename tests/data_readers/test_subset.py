import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from data_readers.conll2003 import Conll2003NerReader

BASE = {"type": "conll2003_ner", "coding_scheme": "BIOUL"}


def _sentences(reader, path):
    return [" ".join(token.text for token in instance["tokens"]) for instance in reader.read(path)]


def test_keeps_a_seeded_fraction_in_order_and_smaller_parts_nest(tiny_conll):
    every = _sentences(Conll2003NerReader(coding_scheme="BIOUL"), tiny_conll)
    half = _sentences(
        DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "fraction": 0.5})),
        tiny_conll,
    )
    fifth = _sentences(
        DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "fraction": 0.2})),
        tiny_conll,
    )
    assert len(every) == 10 and len(half) == 5 and len(fifth) == 2
    assert set(fifth) <= set(half) <= set(every)
    assert half == [sentence for sentence in every if sentence in half]  # original order
    again = _sentences(
        DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "fraction": 0.5})),
        tiny_conll,
    )
    assert again == half


def test_limit_caps_the_count_and_bad_values_are_refused(tiny_conll):
    reader = DatasetReader.from_params(
        Params({"type": "training_subset", "reader": dict(BASE), "fraction": 1.0, "limit": 3})
    )
    assert len(list(reader.read(tiny_conll))) == 3
    with pytest.raises(ConfigurationError, match="fraction must be in"):
        DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "fraction": 1.5}))
    with pytest.raises(ConfigurationError, match="limit must be a positive"):
        DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "limit": 0}))


def test_configs_train_on_the_subset_and_evaluate_on_everything(monkeypatch):
    monkeypatch.setenv("TRAIN_FRACTION", "0.25")
    monkeypatch.setenv("TRAIN_LIMIT", "")
    params = Params.from_file("configs/ner_elmo.jsonnet").as_dict()
    assert params["dataset_reader"]["type"] == "training_subset" and params["dataset_reader"]["fraction"] == 0.25
    assert params["validation_dataset_reader"]["type"] == "conll2003_ner"


def test_an_evaluation_subset_keeps_the_same_seeded_part_and_says_so(tiny_conll, caplog):
    def evaluation_reader():
        return DatasetReader.from_params(Params({"type": "evaluation_subset", "reader": dict(BASE), "limit": 4}))

    with caplog.at_level("INFO", logger="data_readers.subset"):
        first = _sentences(evaluation_reader(), tiny_conll)
    assert len(first) == 4 and _sentences(evaluation_reader(), tiny_conll) == first
    assert "evaluating on 4 of 10 instances" in caplog.text


def test_eval_limit_wraps_the_dev_and_test_reader_of_every_task(monkeypatch):
    monkeypatch.setenv("TRAIN_FRACTION", "1.0")
    monkeypatch.setenv("TRAIN_LIMIT", "")
    monkeypatch.setenv("EVAL_LIMIT", "50")
    for task in ("ner", "sst", "snli", "squad", "srl", "coref"):
        params = Params.from_file(f"configs/{task}_elmo.jsonnet").as_dict()
        validation = params["validation_dataset_reader"]
        assert validation["type"] == "evaluation_subset" and validation["limit"] == 50, task
        assert params["dataset_reader"]["type"] != "training_subset", task
    sst = Params.from_file("configs/sst_elmo.jsonnet").as_dict()
    # SST trains on phrases and evaluates on whole sentences: the part is of the sentence reader.
    assert sst["validation_dataset_reader"]["reader"]["use_subtrees"] is False


def test_distributed_processes_share_the_single_process_choice(tiny_conll):
    """Each process of a distributed run reads its share of the same subset a single process keeps."""
    from allennlp.data.dataset_readers.dataset_reader import DistributedInfo

    def subset_reader():
        return DatasetReader.from_params(Params({"type": "training_subset", "reader": dict(BASE), "fraction": 0.6}))

    alone = _sentences(subset_reader(), tiny_conll)
    shares = []
    for rank in range(2):
        reader = subset_reader()
        # What the reader and the reader it wraps hold when they are built inside a worker of two.
        reader._set_distributed_info(DistributedInfo(world_size=2, global_rank=rank))
        reader.reader._set_distributed_info(DistributedInfo(world_size=2, global_rank=rank))
        shares.append(_sentences(reader, tiny_conll))
    assert len(alone) == 6
    assert sorted(shares[0] + shares[1]) == sorted(alone) and not set(shares[0]) & set(shares[1])
