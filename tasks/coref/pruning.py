"""Lee et al. (2017)'s mention pruning: the best-scoring spans that cross no better one."""

from typing import List, Sequence, Tuple

import torch


def non_crossing_top_spans(spans: Sequence[Tuple[int, int]], scores: Sequence[float], num_to_keep: int) -> List[int]:
    """
    Indices of up to `num_to_keep` spans, in increasing order, accepted greedily by decreasing
    score, skipping any span that crosses one already accepted: i and j cross when
    start(i) < start(j) <= end(i) < end(j) or start(j) < start(i) <= end(j) < end(i).
    Nested and disjoint spans are both allowed. Spans are `(first, last)` tokens, inclusive.
    """
    order = sorted(range(len(spans)), key=lambda index: -scores[index])
    longest_end_from = {}  # token -> largest end of an accepted span starting there
    earliest_start_to = {}  # token -> smallest start of an accepted span ending there
    accepted: List[int] = []
    for index in order:
        if len(accepted) == num_to_keep:
            break
        start, end = spans[index]
        # an accepted span starting inside (start, end] and ending after `end` ...
        if any(longest_end_from.get(token, -1) > end for token in range(start + 1, end + 1)):
            continue
        # ... or ending inside [start, end) and starting before `start` would cross this one
        if any(earliest_start_to.get(token, start) < start for token in range(start, end)):
            continue
        accepted.append(index)
        longest_end_from[start] = max(longest_end_from.get(start, end), end)
        earliest_start_to[end] = min(earliest_start_to.get(end, start), start)
    return sorted(accepted)


def batched_non_crossing_top_spans(
    spans: torch.LongTensor, scores: torch.Tensor, span_mask: torch.BoolTensor, num_to_keep: List[int]
) -> Tuple[torch.LongTensor, torch.BoolTensor]:
    """
    `non_crossing_top_spans` for each document of a batch: spans `(batch, num_spans, 2)`, scores
    and mask `(batch, num_spans)`, `num_to_keep[b]` for document b. Returns the kept indices
    `(batch, max(num_to_keep))` in increasing order, padded with 0 after each document's own, and
    their mask.
    """
    width = max(num_to_keep)
    indices = torch.zeros(len(num_to_keep), width, dtype=torch.long)
    mask = torch.zeros(len(num_to_keep), width, dtype=torch.bool)
    for row, (document_spans, document_scores, document_mask, keep) in enumerate(
        zip(spans.tolist(), scores.detach().cpu().tolist(), span_mask.tolist(), num_to_keep)
    ):
        valid = [index for index, is_valid in enumerate(document_mask) if is_valid]
        kept = non_crossing_top_spans(
            [tuple(document_spans[index]) for index in valid], [document_scores[index] for index in valid], keep
        )
        indices[row, : len(kept)] = torch.tensor([valid[index] for index in kept], dtype=torch.long)
        mask[row, : len(kept)] = True
    return indices.to(spans.device), mask.to(spans.device)
