import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance, Token, Vocabulary
from allennlp.data.fields import SequenceLabelField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from tasks.common.labels import complete_tag_scheme


def _vocabulary(tags):
    vocab = Vocabulary(non_padded_namespaces=["labels"])
    vocab.add_tokens_to_namespace(tags, "labels")
    return vocab


def test_each_type_gets_every_tag_of_its_scheme_after_the_tags_it_had():
    vocab = _vocabulary(["O", "U-LOC", "B-PER", "L-PER"])
    added = complete_tag_scheme(vocab, "labels", "BIOUL")
    assert added == ["B-LOC", "I-LOC", "L-LOC", "I-PER", "U-PER"]  # in order: per type, per prefix
    labels = vocab.get_index_to_token_vocabulary("labels")
    assert [labels[index] for index in range(4)] == ["O", "U-LOC", "B-PER", "L-PER"]  # indices kept
    assert complete_tag_scheme(vocab, "labels", "BIOUL") == []


def test_an_open_set_of_roles_gets_b_and_i_of_each():
    vocab = _vocabulary(["B-ARG0", "B-V", "I-ARG1"])
    assert set(complete_tag_scheme(vocab, "labels", "BIO")) == {"O", "I-ARG0", "I-V", "B-ARG1"}
    with pytest.raises(ConfigurationError, match="label encoding must be one of"):
        complete_tag_scheme(vocab, "labels", "BILOU")


def test_the_vocabulary_type_completes_what_the_instances_give():
    tokens = TextField([Token("Rome"), Token("fell")], {"tokens": SingleIdTokenIndexer()})
    instance = Instance({"tokens": tokens, "tags": SequenceLabelField(["U-LOC", "O"], tokens)})
    params = Params({"type": "complete_tag_schemes", "tag_schemes": {"labels": "BIOUL"}})
    vocab = Vocabulary.from_params(params, instances=[instance])
    assert set(vocab.get_token_to_index_vocabulary("labels")) == {"O", "U-LOC", "B-LOC", "I-LOC", "L-LOC"}
    assert vocab.get_token_index("fell", "tokens") > 1  # the words as from_instances reads them
