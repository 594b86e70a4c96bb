"""
The BiLSTM-CRF tagger of the ELMo paper's NER experiment (Peters et al. 2018, §A.7; the model of
Peters et al. 2017 and Lample et al. 2016): token embeddings (words, a character CNN and, in the
ELMo configs, the ELMo vector), a stacked biLSTM, a linear layer to tag scores and a CRF.
"""

from typing import Any, Dict, List, Optional

import torch
from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import get_text_field_mask

from tasks.common.labels import SCHEME_PREFIXES
from tasks.ner.crf import ConstrainedCrf
from tasks.ner.metrics import SeqevalF1


@Model.register("bilstm_crf_tagger")
class BiLstmCrfTagger(Model):
    """
    Tags each token; trained by the CRF's negative log-likelihood (summed over the batch), decoded
    by Viterbi under the transition constraints of `label_encoding`.

    Registered as a `Model` with name "bilstm_crf_tagger"; its default predictor is "ner_tagger".

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds the `tokens` field (in the ELMo configs, one of its embedders is ELMo).
    encoder : `Lazy[Seq2SeqEncoder]`
        The biLSTM, built here with `input_size` set to the embedder's output size, so configs
        need not know the size of the ELMo vectors in a given weight file.
    label_encoding : `str`, optional (default = `"BIOUL"`)
        The tag scheme of the data (the reader's `coding_scheme`), which sets the CRF's constraints.
    dropout : `float`, optional (default = `0.5`)
        Applied to the embeddings and to the encoder output.
    label_namespace : `str`, optional (default = `"labels"`)
    """

    default_predictor = "ner_tagger"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Lazy[Seq2SeqEncoder],
        label_encoding: str = "BIOUL",
        dropout: float = 0.5,
        label_namespace: str = "labels",
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.label_encoding = label_encoding
        self.label_namespace = label_namespace
        self.text_field_embedder = text_field_embedder
        self.encoder = encoder.construct(input_size=text_field_embedder.get_output_dim())
        self.dropout = torch.nn.Dropout(dropout)
        labels = vocab.get_index_to_token_vocabulary(label_namespace)
        _check_scheme(labels.values(), label_encoding)
        self.tag_projection = torch.nn.Linear(self.encoder.get_output_dim(), len(labels))
        self.crf = ConstrainedCrf(labels, label_encoding)
        self.entity_f1 = SeqevalF1()
        initializer(self)

    def forward(  # type: ignore
        self,
        tokens: TextFieldTensors,
        metadata: List[Dict[str, Any]],
        tags: Optional[torch.LongTensor] = None,
    ) -> Dict[str, Any]:
        mask = get_text_field_mask(tokens)
        embedded = self.dropout(self.text_field_embedder(tokens))
        encoded = self.dropout(self.encoder(embedded, mask))
        logits = self.tag_projection(encoded)
        predicted = self.crf.decode(logits, mask)

        output: Dict[str, Any] = {
            "logits": logits,
            "mask": mask,
            "predicted_tag_ids": predicted,
            "words": [entry["words"] for entry in metadata],
        }
        if tags is not None:
            output["loss"] = -self.crf(logits, tags, mask=mask, reduction="sum")
            lengths = mask.sum(dim=1).tolist()
            gold = [
                entry.get("gold_tags") or self._tag_strings(row[:length])  # as read: tags the model lacks count
                for entry, row, length in zip(metadata, tags.tolist(), lengths)
            ]
            self.entity_f1([self._tag_strings(path) for path in predicted], gold)
        return output

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        output_dict["tags"] = [self._tag_strings(path) for path in output_dict.pop("predicted_tag_ids")]
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """Overall P/R/F1 for the progress bar; per entity type too at the end of an epoch or evaluation."""
        metrics = self.entity_f1.get_metric(reset)
        if reset:
            return metrics
        return {name: value for name, value in metrics.items() if name.endswith("-overall")}

    def _tag_strings(self, tag_ids: List[int]) -> List[str]:
        return [self.vocab.get_token_from_index(index, self.label_namespace) for index in tag_ids]


def _check_scheme(labels, label_encoding: str) -> None:
    """Every tag must be `O` or a prefix of `label_encoding` and a type: the CRF's constraints depend on it."""
    if label_encoding not in SCHEME_PREFIXES:
        raise ConfigurationError(f"label_encoding must be one of {sorted(SCHEME_PREFIXES)}, not {label_encoding!r}")
    prefixes = SCHEME_PREFIXES[label_encoding]
    foreign = sorted(tag for tag in labels if tag != "O" and not (tag[:1] in prefixes and tag[1:2] == "-"))
    if foreign:
        raise ConfigurationError(
            f"label_encoding is {label_encoding}, but the labels include {', '.join(foreign[:5])}: "
            "give the reader's coding_scheme and the model's label_encoding the same value"
        )
