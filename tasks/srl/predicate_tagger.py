"""
A small token classifier for PropBank predicates, so the SRL predictor can label raw text: the
paper's SRL is given gold predicates, and spaCy's tagger (AllenNLP's usual source of verbs)
cannot be downloaded offline.
"""

from typing import Any, Dict, List, Optional

import torch
from allennlp.common import Lazy
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import get_text_field_mask, sequence_cross_entropy_with_logits
from allennlp.training.metrics import F1Measure

from data_readers.propbank_predicates import PREDICATE

LABEL_NAMESPACE = "predicate_labels"


@Model.register("predicate_tagger")
class PredicateTagger(Model):
    """
    Says for each word whether it is a PropBank predicate: embeddings, an encoder, and a linear
    layer to two scores (`V`, `O`) per word, trained by cross-entropy. Reports precision, recall
    and F1 of the predicates found (`predicate-precision`, `predicate-recall`, `predicate-f1`).

    Registered as a `Model` with name "predicate_tagger".

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
    encoder : `Lazy[Seq2SeqEncoder]`
        Built here with the embedder's output size as its input size.
    dropout : `float`, optional (default = `0.3`)
        On the embeddings and on the encoder's output.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Lazy[Seq2SeqEncoder],
        dropout: float = 0.3,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.text_field_embedder = text_field_embedder
        self.encoder = encoder.construct(input_size=text_field_embedder.get_output_dim())
        self.dropout = torch.nn.Dropout(dropout)
        self.projection = torch.nn.Linear(self.encoder.get_output_dim(), vocab.get_vocab_size(LABEL_NAMESPACE))
        self.predicate_index = vocab.get_token_index(PREDICATE, LABEL_NAMESPACE)
        self.predicate_f1 = F1Measure(positive_label=self.predicate_index)
        initializer(self)

    def forward(  # type: ignore
        self,
        tokens: TextFieldTensors,
        metadata: List[Dict[str, Any]],
        tags: Optional[torch.LongTensor] = None,
    ) -> Dict[str, Any]:
        mask = get_text_field_mask(tokens)
        embedded = self.dropout(self.text_field_embedder(tokens))
        logits = self.projection(self.dropout(self.encoder(embedded, mask)))
        output: Dict[str, Any] = {
            "logits": logits,
            "mask": mask,
            "words": [entry["words"] for entry in metadata],
        }
        if tags is not None:
            output["loss"] = sequence_cross_entropy_with_logits(logits, tags, mask)
            self.predicate_f1(logits, tags, mask)
        return output

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        """Adds `predicates`: the word indices of the predicates found in each sentence."""
        best = output_dict["logits"].argmax(dim=-1)
        lengths = output_dict["mask"].sum(dim=-1).tolist()
        output_dict["predicates"] = [
            [index for index in range(length) if row[index] == self.predicate_index]
            for row, length in zip(best.tolist(), lengths)
        ]
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        scores = self.predicate_f1.get_metric(reset)
        return {f"predicate-{name}": value for name, value in scores.items()}
