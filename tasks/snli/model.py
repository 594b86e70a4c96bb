"""
ESIM (Chen et al. 2017) as the ELMo paper's entailment experiment uses it (Peters et al. 2018,
§5 and §A.3): ELMo at the input of the lowest biLSTM (the encoder) and at its output, each a
scalar mix of one frozen biLM, and 50% dropout after the attention in the ELMo model.

allennlp-models' `esim` cannot take ELMo after its encoder: its constructor requires the encoder's
input and output sizes to be those of the embedder and the projection, and its forward is one
block. `ElmoEsim` is the same network, with the same config keys and parameter names (so an
`esim` config and state dict carry over; a test checks that both compute the same without ELMo),
and the ELMo places in between.
"""

from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import FeedForward, InputVariationalDropout, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.modules.matrix_attention import MatrixAttention
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import get_text_field_mask, masked_max, masked_mean, masked_softmax, weighted_sum
from allennlp.training.metrics import CategoricalAccuracy

from tasks.elmo import PaperElmo, check_elmo_places

ELMO_KEY = "elmo"


@Model.register("elmo_esim")
class ElmoEsim(Model):
    """
    Classifies a premise-hypothesis pair: encode each text with a biLSTM, align them by attention,
    enhance each position with its aligned vector (`[a; b; a - b; a * b]`), project, compose
    with a second biLSTM, pool (mean and max) and classify with a feed-forward layer.

    Registered as a `Model` with name "elmo_esim"; its default predictor is "entailment_classifier".

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds the word indexers of the `premise` and `hypothesis` fields; the `elmo` indexer's
        character ids go to `elmo`, not to the embedder.
    encoder : `Lazy[Seq2SeqEncoder]`
        The lowest biLSTM, built here with `input_size` = embedder + input ELMo.
    matrix_attention : `MatrixAttention`
        Similarity of premise and hypothesis positions (ESIM: dot product).
    projection_feedforward : `Lazy[FeedForward]`
        Projects the enhanced vectors; built here with `input_dim` = 4 × (encoder + output ELMo).
    inference_encoder : `Seq2SeqEncoder`
        The composition biLSTM.
    output_feedforward, output_logit : `FeedForward`
        The final two layers, on `[mean; max]` pooling of both texts.
    dropout : `float`, optional (default = `0.5`)
        Variational dropout on the input of both biLSTMs, and dropout on the input of the output
        layers (`output_feedforward` brings its own dropout for `output_logit`'s input).
    attention_dropout : `float`, optional (default = `0.0`)
        Dropout on the enhanced vectors, after the attention (the paper: 0.5 in the ELMo model).
    elmo : `PaperElmo`, optional
        One scalar mix per place ELMo enters, in order: the input's, then the encoder output's.
    use_input_elmo, use_output_elmo : `bool`, optional (default = `False`)
        Where ELMo enters: concatenated to the word embeddings, to the encoder's output.
    initializer : `InitializerApplicator`, optional
    """

    default_predictor = "entailment_classifier"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Lazy[Seq2SeqEncoder],
        matrix_attention: MatrixAttention,
        projection_feedforward: Lazy[FeedForward],
        inference_encoder: Seq2SeqEncoder,
        output_feedforward: FeedForward,
        output_logit: FeedForward,
        dropout: float = 0.5,
        attention_dropout: float = 0.0,
        elmo: Optional[PaperElmo] = None,
        use_input_elmo: bool = False,
        use_output_elmo: bool = False,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_elmo_places(elmo, use_input_elmo, use_output_elmo, ("use_input_elmo", "use_output_elmo"))
        if ELMO_KEY in getattr(text_field_embedder, "_token_embedders", {}):
            raise ConfigurationError(
                f"give ELMo to elmo_esim as `elmo` (with use_input_elmo / use_output_elmo), not as the "
                f"text field embedder's {ELMO_KEY!r} token embedder"
            )
        self._text_field_embedder = text_field_embedder
        self._elmo = elmo
        self._use_input_elmo = use_input_elmo
        self._use_output_elmo = use_output_elmo
        elmo_dim = elmo.get_output_dim() if elmo is not None else 0

        self._encoder = encoder.construct(
            input_size=text_field_embedder.get_output_dim() + (elmo_dim if use_input_elmo else 0)
        )
        self._encoded_dim = self._encoder.get_output_dim() + (elmo_dim if use_output_elmo else 0)
        self._matrix_attention = matrix_attention
        self._projection_feedforward = projection_feedforward.construct(input_dim=4 * self._encoded_dim)
        self._inference_encoder = inference_encoder
        self._output_feedforward = output_feedforward
        self._output_logit = output_logit
        _check_size(
            self._projection_feedforward.get_output_dim(),
            inference_encoder.get_input_dim(),
            "projection_feedforward output",
            "inference_encoder input",
        )
        _check_size(
            4 * inference_encoder.get_output_dim(),
            output_feedforward.get_input_dim(),
            "4 x inference_encoder output (mean and max of both texts)",
            "output_feedforward input",
        )
        _check_size(
            output_feedforward.get_output_dim(),
            output_logit.get_input_dim(),
            "output_feedforward output",
            "output_logit input",
        )
        _check_size(
            output_logit.get_output_dim(), vocab.get_vocab_size("labels"), "output_logit output", "number of labels"
        )

        self.rnn_input_dropout = InputVariationalDropout(dropout) if dropout else None
        self.dropout = torch.nn.Dropout(dropout) if dropout else None
        self.attention_dropout = torch.nn.Dropout(attention_dropout) if attention_dropout else None
        self._accuracy = CategoricalAccuracy()
        self._loss = torch.nn.CrossEntropyLoss()
        initializer(self)

    def forward(  # type: ignore
        self,
        premise: TextFieldTensors,
        hypothesis: TextFieldTensors,
        label: Optional[torch.IntTensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, torch.Tensor]:
        """
        `label_logits` and `label_probs` `(batch, labels)`, and `loss` when `label` is given.
        `metadata` (the tokens) is accepted for the predictor's sake and not used.
        """
        premise_mask = get_text_field_mask(premise)
        hypothesis_mask = get_text_field_mask(hypothesis)
        encoded_premise = self._encode(premise, premise_mask)
        encoded_hypothesis = self._encode(hypothesis, hypothesis_mask)

        # Soft alignment: each position's attention over the other text.
        similarity = self._matrix_attention(encoded_premise, encoded_hypothesis)
        aligned_hypothesis = weighted_sum(encoded_hypothesis, masked_softmax(similarity, hypothesis_mask))
        aligned_premise = weighted_sum(
            encoded_premise, masked_softmax(similarity.transpose(1, 2).contiguous(), premise_mask)
        )

        composed_premise = self._compose(encoded_premise, aligned_hypothesis, premise_mask)
        composed_hypothesis = self._compose(encoded_hypothesis, aligned_premise, hypothesis_mask)

        pooled = torch.cat(
            [*_mean_and_max(composed_premise, premise_mask), *_mean_and_max(composed_hypothesis, hypothesis_mask)],
            dim=-1,
        )
        if self.dropout is not None:
            pooled = self.dropout(pooled)
        label_logits = self._output_logit(self._output_feedforward(pooled))
        output = {"label_logits": label_logits, "label_probs": torch.softmax(label_logits, dim=-1)}
        if label is not None:
            output["loss"] = self._loss(label_logits, label.long().view(-1))
            self._accuracy(label_logits, label)
        return output

    def _encode(self, text: TextFieldTensors, mask: torch.BoolTensor) -> torch.Tensor:
        """The lowest biLSTM over the word embeddings, with ELMo at its input and/or output."""
        elmo_at_input, elmo_at_output = self._elmo_representations(text)
        words = {key: tensors for key, tensors in text.items() if key != ELMO_KEY}
        pieces = [self._text_field_embedder(words)] if words else []
        if elmo_at_input is not None:
            pieces.append(elmo_at_input)
        embedded = torch.cat(pieces, dim=-1)
        if self.rnn_input_dropout is not None:
            embedded = self.rnn_input_dropout(embedded)
        encoded = self._encoder(embedded, mask)
        if elmo_at_output is not None:
            encoded = torch.cat([encoded, elmo_at_output], dim=-1)
        return encoded

    def _elmo_representations(self, text: TextFieldTensors) -> Tuple[Optional[torch.Tensor], Optional[torch.Tensor]]:
        """`(ELMo for the input, ELMo for the encoder output)`, each None where ELMo does not enter."""
        if self._elmo is None:
            return None, None
        if ELMO_KEY not in text:
            raise ConfigurationError(f"the model uses ELMo, but the text has no {ELMO_KEY!r} indexer (elmo_characters)")
        representations = list(self._elmo(text[ELMO_KEY]["elmo_tokens"])["elmo_representations"])
        at_input = representations.pop(0) if self._use_input_elmo else None
        at_output = representations.pop(0) if self._use_output_elmo else None
        return at_input, at_output

    def _compose(self, encoded: torch.Tensor, aligned: torch.Tensor, mask: torch.BoolTensor) -> torch.Tensor:
        """ESIM's enhancement `[a; b; a - b; a * b]`, projected and run through the inference biLSTM."""
        enhanced = torch.cat([encoded, aligned, encoded - aligned, encoded * aligned], dim=-1)
        if self.attention_dropout is not None:
            enhanced = self.attention_dropout(enhanced)
        projected = self._projection_feedforward(enhanced)
        if self.rnn_input_dropout is not None:
            projected = self.rnn_input_dropout(projected)
        return self._inference_encoder(projected, mask)

    def make_output_human_readable(self, output_dict: Dict[str, torch.Tensor]) -> Dict[str, Any]:
        """Adds `label`: the most probable label of each pair."""
        labels = self.vocab.get_index_to_token_vocabulary("labels")
        output_dict["label"] = [labels[int(index)] for index in output_dict["label_probs"].argmax(dim=-1)]
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        return {"accuracy": self._accuracy.get_metric(reset)}


def _mean_and_max(encoded: torch.Tensor, mask: torch.BoolTensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """Mean and max over the unmasked positions, `(batch, dim)` each."""
    expanded = mask.unsqueeze(-1)
    return masked_mean(encoded, expanded, dim=1), masked_max(encoded, expanded, dim=1)


def _check_size(first: int, second: int, first_name: str, second_name: str) -> None:
    if first != second:
        raise ConfigurationError(f"{first_name} ({first}) must equal {second_name} ({second})")
