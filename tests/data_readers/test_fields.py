import logging

from allennlp.data import Token, Vocabulary
from allennlp.data.fields import TextField

from data_readers.fields import OpenSequenceLabelField


def test_a_tag_the_vocabulary_lacks_is_indexed_as_the_fallback_and_kept_as_read(caplog):
    vocab = Vocabulary(non_padded_namespaces=["labels"])
    vocab.add_tokens_to_namespace(["O", "B-LOC", "L-LOC"], "labels")
    tokens = TextField([Token(word) for word in ("New", "York", "City", "Hall")])
    field = OpenSequenceLabelField(["B-LOC", "I-LOC", "I-LOC", "L-LOC"], tokens)
    with caplog.at_level(logging.WARNING):
        field.index(vocab)
    assert field._indexed_labels == [1, 0, 0, 2]
    assert field.labels == ["B-LOC", "I-LOC", "I-LOC", "L-LOC"]
    assert "Tag 'I-LOC' is not among the model's 3 labels" in caplog.text
    assert field.as_tensor(field.get_padding_lengths()).tolist() == [1, 0, 0, 2]
