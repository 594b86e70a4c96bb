"""
The question answering model of the ELMo paper's SQuAD experiment (Peters et al. 2018, §A.4): the
model of Clark & Gardner (2017), "Simple and Effective Multi-Paragraph Reading Comprehension", a
BiDAF with GRUs, a residual self-attention layer after the bi-attention and a chained span
predictor; ELMo at the input and/or the output of its contextual GRU.
"""

from typing import Any, Dict, List, Optional

import torch
from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import InputVariationalDropout, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.modules.matrix_attention import LinearMatrixAttention
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import (
    get_text_field_mask,
    masked_log_softmax,
    masked_softmax,
    min_value_of_dtype,
    replace_masked_values,
    weighted_sum,
)
from torch.nn.functional import nll_loss, relu

from tasks.elmo import PaperElmo, check_elmo_places
from tasks.squad.metrics import SquadV1EmF1
from tasks.squad.spans import best_spans

ELMO_INDEXER = "elmo"


@Model.register("bidaf_self_attention")
class BidafSelfAttention(Model):
    """
    Predicts the answer span of `question` in `passage`:

    1. tokens: word embeddings and a character CNN (`text_field_embedder`), and ELMo if `elmo_at_input`;
    2. `contextual_encoder`, a bidirectional GRU shared by question and passage, then ELMo again if
       `elmo_at_output`;
    3. BiDAF's bi-attention with a tri-linear similarity (`w·[p; q; p⊙q] + b`): for each passage
       token the attended question `c`, and one question-to-passage vector `q2p`;
       `[p; c; p⊙c; p⊙q2p]` goes through a linear layer with ReLU;
    4. residual self-attention: a bidirectional GRU (`self_attention_encoder`), the same attention
       of the passage to itself (a token never attends to itself), `[s; a; s⊙a]` through a linear
       layer with ReLU, added to the layer's input;
    5. `span_start_encoder` (a GRU) and a linear layer give start scores; `span_end_encoder` reads
       the layer-5 input and the start GRU's states and a linear layer gives end scores.

    Variational dropout (one mask per sequence) is applied to the input of every GRU and of both
    attentions. Training minimises the negative log-likelihood of the gold start plus that of the
    gold end; decoding takes the best span of at most `max_span_length` tokens.

    Registered as a `Model` with name "bidaf_self_attention"; its default predictor is "squad_answerer".

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds the question and passage tokens (without ELMo: the `elmo` indexer's ids are read here).
    contextual_encoder, self_attention_encoder, span_start_encoder, span_end_encoder : `Lazy[Seq2SeqEncoder]`
        The four GRUs, built here with their input sizes, which depend on where ELMo enters.
    linear_dim : `int`, optional (default = `180`)
        Output size of the two linear layers; the self-attention residual needs it to equal the
        self-attention encoder's output size.
    dropout : `float`, optional (default = `0.2`)
    max_span_length : `int`, optional (default = `17`)
        The longest answer, in tokens, the model predicts; `None`: any length.
    elmo : `PaperElmo`, optional
        With one output representation for each of `elmo_at_input` and `elmo_at_output` that is true.
    elmo_at_input, elmo_at_output : `bool`, optional (default = `False`)
        Where ELMo enters: concatenated to the token embeddings, and to the contextual GRU's output.
    """

    default_predictor = "squad_answerer"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        contextual_encoder: Lazy[Seq2SeqEncoder],
        self_attention_encoder: Lazy[Seq2SeqEncoder],
        span_start_encoder: Lazy[Seq2SeqEncoder],
        span_end_encoder: Lazy[Seq2SeqEncoder],
        linear_dim: int = 180,
        dropout: float = 0.2,
        max_span_length: Optional[int] = 17,
        elmo: Optional[PaperElmo] = None,
        elmo_at_input: bool = False,
        elmo_at_output: bool = False,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_elmo_places(elmo, elmo_at_input, elmo_at_output)
        self._elmo = elmo
        self._elmo_at_input = elmo_at_input
        self._elmo_at_output = elmo_at_output
        elmo_dim = elmo.get_output_dim() if elmo is not None else 0

        self._text_field_embedder = text_field_embedder
        input_dim = text_field_embedder.get_output_dim() + (elmo_dim if elmo_at_input else 0)
        self._contextual_encoder = contextual_encoder.construct(input_size=input_dim)
        encoding_dim = self._contextual_encoder.get_output_dim() + (elmo_dim if elmo_at_output else 0)

        self._bi_attention = LinearMatrixAttention(encoding_dim, encoding_dim, combination="x,y,x*y")
        self._attention_projection = torch.nn.Linear(4 * encoding_dim, linear_dim)

        self._self_attention_encoder = self_attention_encoder.construct(input_size=linear_dim)
        self_dim = self._self_attention_encoder.get_output_dim()
        if self_dim != linear_dim:
            raise ConfigurationError(
                f"the self-attention layer is residual: its encoder's output size ({self_dim}) must equal "
                f"linear_dim ({linear_dim})"
            )
        self._self_attention = LinearMatrixAttention(self_dim, self_dim, combination="x,y,x*y")
        self._self_attention_projection = torch.nn.Linear(3 * self_dim, linear_dim)

        self._span_start_encoder = span_start_encoder.construct(input_size=linear_dim)
        start_dim = self._span_start_encoder.get_output_dim()
        self._span_end_encoder = span_end_encoder.construct(input_size=linear_dim + start_dim)
        self._span_start_predictor = torch.nn.Linear(start_dim, 1)
        self._span_end_predictor = torch.nn.Linear(self._span_end_encoder.get_output_dim(), 1)

        self._dropout = InputVariationalDropout(dropout)
        self._max_span_length = max_span_length
        self._squad_metrics = SquadV1EmF1()
        initializer(self)

    def forward(  # type: ignore
        self,
        question: TextFieldTensors,
        passage: TextFieldTensors,
        span_start: Optional[torch.LongTensor] = None,
        span_end: Optional[torch.LongTensor] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, Any]:
        """
        `span_start`, `span_end`: `(batch, 1)` inclusive token indices of the gold answer, for the
        loss. `metadata`: the reader's (`original_passage`, `token_offsets`, `answer_texts`), for the
        answer strings and exact match / F1.
        """
        question_mask = get_text_field_mask(question)
        passage_mask = get_text_field_mask(passage)
        encoded_question = self._dropout(self._encode(question, question_mask))
        encoded_passage = self._dropout(self._encode(passage, passage_mask))

        similarity = self._bi_attention(encoded_passage, encoded_question)
        attended_question = weighted_sum(encoded_question, masked_softmax(similarity, question_mask.unsqueeze(1)))
        most_similar = replace_masked_values(
            similarity, question_mask.unsqueeze(1), min_value_of_dtype(similarity.dtype)
        ).max(dim=-1)[0]
        question_to_passage = weighted_sum(encoded_passage, masked_softmax(most_similar, passage_mask))
        merged = torch.cat(
            [
                encoded_passage,
                attended_question,
                encoded_passage * attended_question,
                encoded_passage * question_to_passage.unsqueeze(1),
            ],
            dim=-1,
        )
        attended = relu(self._attention_projection(merged))

        modeled = self._dropout(attended + self._self_attend(attended, passage_mask))
        start_states = self._span_start_encoder(modeled, passage_mask)
        end_states = self._span_end_encoder(torch.cat([modeled, start_states], dim=-1), passage_mask)
        span_start_logits = self._span_start_predictor(start_states).squeeze(-1)
        span_end_logits = self._span_end_predictor(end_states).squeeze(-1)

        very_negative = min_value_of_dtype(span_start_logits.dtype)
        span_start_logits = replace_masked_values(span_start_logits, passage_mask, very_negative)
        span_end_logits = replace_masked_values(span_end_logits, passage_mask, very_negative)
        best_span, _ = best_spans(span_start_logits, span_end_logits, self._max_span_length)
        output: Dict[str, Any] = {
            "span_start_logits": span_start_logits,
            "span_end_logits": span_end_logits,
            "span_start_probs": masked_softmax(span_start_logits, passage_mask),
            "span_end_probs": masked_softmax(span_end_logits, passage_mask),
            "best_span": best_span,
        }
        if span_start is not None and span_end is not None:
            output["loss"] = nll_loss(
                masked_log_softmax(span_start_logits, passage_mask), span_start.squeeze(-1)
            ) + nll_loss(masked_log_softmax(span_end_logits, passage_mask), span_end.squeeze(-1))
        if metadata is not None:
            output["best_span_str"] = [
                _span_text(entry, start, end) for entry, (start, end) in zip(metadata, best_span.tolist())
            ]
            scored = [
                (text, entry["answer_texts"])
                for text, entry in zip(output["best_span_str"], metadata)
                if entry.get("answer_texts")
            ]
            if scored:
                self._squad_metrics([text for text, _ in scored], [gold for _, gold in scored])
        return output

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """`em` and `f1`: the official SQuAD v1.1 exact match and F1, as fractions."""
        return self._squad_metrics.get_metric(reset)

    def _encode(self, tokens: TextFieldTensors, mask: torch.BoolTensor) -> torch.Tensor:
        """Token embeddings (with ELMo where it enters) through the contextual GRU."""
        elmo = self._elmo_representations(tokens)
        embedded = self._text_field_embedder({name: ids for name, ids in tokens.items() if name != ELMO_INDEXER})
        if self._elmo_at_input:
            embedded = torch.cat([embedded, elmo.pop(0)], dim=-1)
        encoded = self._contextual_encoder(self._dropout(embedded), mask)
        if self._elmo_at_output:
            encoded = torch.cat([encoded, elmo.pop(0)], dim=-1)
        return encoded

    def _elmo_representations(self, tokens: TextFieldTensors) -> List[torch.Tensor]:
        """ELMo's mixes, in order: the input's (if it enters there), then the output's."""
        if self._elmo is None:
            return []
        if ELMO_INDEXER not in tokens:
            raise ConfigurationError(
                f"the model takes ELMo, but the reader has no token indexer named {ELMO_INDEXER!r}"
            )
        return list(self._elmo(tokens[ELMO_INDEXER]["elmo_tokens"])["elmo_representations"])

    def _self_attend(self, attended: torch.Tensor, passage_mask: torch.BoolTensor) -> torch.Tensor:
        """The self-attention layer's output (before the residual sum)."""
        encoded = self._dropout(self._self_attention_encoder(self._dropout(attended), passage_mask))
        similarity = self._self_attention(encoded, encoded)
        passage_length = passage_mask.size(1)
        not_itself = ~torch.eye(passage_length, dtype=torch.bool, device=passage_mask.device)
        attention = masked_softmax(similarity, passage_mask.unsqueeze(1) & not_itself.unsqueeze(0))
        context = weighted_sum(encoded, attention)
        return relu(self._self_attention_projection(torch.cat([encoded, context, encoded * context], dim=-1)))


def _span_text(metadata: Dict[str, Any], start: int, end: int) -> str:
    """The passage text from the first character of token `start` to the last of token `end`."""
    offsets = metadata["token_offsets"]
    return metadata["original_passage"][offsets[start][0] : offsets[end][1]]
