"""Fixtures of the SRL tests."""

import pytest
from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.modules.seq2seq_encoders import LstmSeq2SeqEncoder
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding

from tasks.srl.model import DeepSrl


@pytest.fixture
def tiny_srl_model():
    """Builds a `DeepSrl` over the labels it is given (in their order), for its decoding."""

    def build(labels):
        vocabulary = Vocabulary(non_padded_namespaces=["labels"])
        for label in labels:
            vocabulary.add_token_to_namespace(label, "labels")
        embedder = BasicTextFieldEmbedder({"tokens": Embedding(embedding_dim=2, num_embeddings=3)})
        encoder = Lazy(lambda input_size: LstmSeq2SeqEncoder(input_size=input_size, hidden_size=2))
        return DeepSrl(vocabulary, embedder, encoder, binary_feature_dim=2).eval()

    return build
