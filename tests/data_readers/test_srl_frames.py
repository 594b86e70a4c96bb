"""What the SRL readers share (data_readers/srl_frames.py): instances in allennlp-models' `srl` layout."""

from data_readers.universal_propbank import UniversalPropBankSrlReader


def test_instances_follow_allennlp_srl_layout(srl_files):
    instance = next(iter(UniversalPropBankSrlReader().read(str(srl_files[0]))))
    # allennlp-models' fields, and every predicate of the sentence for the model's predicate finder
    assert set(instance.fields) == {"tokens", "verb_indicator", "tags", "metadata", "sentence_predicates"}
    assert instance["verb_indicator"].labels == [0, 1, 0, 0, 0, 0, 0, 0]
    assert instance["metadata"]["verb"] == "repaired"
    assert instance["metadata"]["gold_tags"] == instance["tags"].labels
    predicates = instance["metadata"]["sentence_predicates"]
    assert 1 in predicates
    assert instance["sentence_predicates"].labels == [int(index in predicates) for index in range(8)]


def test_indicator_marks_the_predicate_alone_not_its_particle(srl_files):
    picked = [i for i in UniversalPropBankSrlReader().read(str(srl_files[0])) if i["metadata"]["verb"] == "picked"][0]
    assert picked["tags"].labels[:3] == ["B-ARG0", "B-V", "B-C-V"]
    assert picked["verb_indicator"].labels == [0, 1, 0, 0, 0, 0]
