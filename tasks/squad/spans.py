"""Answer-span decoding under the paper's length limit (Peters et al. 2018, §A.4: at most 17 tokens)."""

from typing import Optional, Tuple

import torch
from allennlp.nn.util import min_value_of_dtype


def best_spans(
    span_start_logits: torch.Tensor, span_end_logits: torch.Tensor, max_span_length: Optional[int] = None
) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    The `(start, end)` (end inclusive) maximising `start_logit + end_logit` over the spans with
    `start <= end < start + max_span_length` (any length when `None`), and that sum.

    `span_*_logits` are `(batch, passage_length)`, with padding already set very negative; they may
    be log-probabilities, which leaves the argmax unchanged. Returns `(batch, 2)` token indices and
    `(batch,)` scores.
    """
    if span_start_logits.dim() != 2 or span_start_logits.shape != span_end_logits.shape:
        raise ValueError("span_start_logits and span_end_logits must both be (batch_size, passage_length)")
    batch_size, passage_length = span_start_logits.shape
    ones = torch.ones(passage_length, passage_length, dtype=torch.bool, device=span_start_logits.device)
    allowed = ones.triu()
    if max_span_length is not None:
        allowed &= ~ones.triu(diagonal=max_span_length)
    span_scores = span_start_logits.unsqueeze(2) + span_end_logits.unsqueeze(1)
    span_scores = span_scores.masked_fill(~allowed, min_value_of_dtype(span_scores.dtype))
    scores, flat_indices = span_scores.view(batch_size, -1).max(dim=-1)
    starts = torch.div(flat_indices, passage_length, rounding_mode="floor")
    ends = flat_indices % passage_length
    return torch.stack([starts, ends], dim=-1), scores
