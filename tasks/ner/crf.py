"""pytorch-crf's linear-chain CRF, restricted to the transitions a tag scheme allows."""

from typing import Dict

import torch
from allennlp.modules.conditional_random_field import allowed_transitions
from torchcrf import CRF

# Finite rather than -inf, so the forward algorithm's logsumexp never sees an all -inf row.
IMPOSSIBLE = -10000.0


class ConstrainedCrf(CRF):
    """
    A `torchcrf.CRF` (batch first) whose scores for transitions that `coding_scheme` forbids
    (for BIOUL: `O -> I-X`, `B-PER -> I-LOC`, starting on `L-X`, ending on `B-X`, ...) are fixed at
    `IMPOSSIBLE`, so neither training nor Viterbi decoding can use them. The allowed transitions
    are AllenNLP's `allowed_transitions`; the learned scores and pytorch-crf's algorithms are kept.

    `labels` maps tag index to tag string; `coding_scheme` is one of AllenNLP's constraint types
    ("BIOUL", "BIO", "IOB1", "BMES").
    """

    def __init__(self, labels: Dict[int, str], coding_scheme: str) -> None:
        num_tags = len(labels)
        super().__init__(num_tags, batch_first=True)
        start, end = num_tags, num_tags + 1  # AllenNLP's indices for the start and end states
        allowed = torch.zeros(num_tags + 2, num_tags + 2, dtype=torch.bool)
        for from_index, to_index in allowed_transitions(coding_scheme, labels):
            allowed[from_index, to_index] = True
        self.register_buffer("_allowed_transitions", allowed[:num_tags, :num_tags], persistent=False)
        self.register_buffer("_allowed_starts", allowed[start, :num_tags], persistent=False)
        self.register_buffer("_allowed_ends", allowed[:num_tags, end], persistent=False)
        # pytorch-crf reads `self.transitions` (and the start and end scores) in its algorithms:
        # the learned scores move to `free_*` parameters and those names become masked views.
        self.free_transitions = torch.nn.Parameter(self._parameters.pop("transitions").detach())
        self.free_start_transitions = torch.nn.Parameter(self._parameters.pop("start_transitions").detach())
        self.free_end_transitions = torch.nn.Parameter(self._parameters.pop("end_transitions").detach())

    @property
    def transitions(self) -> torch.Tensor:
        return self.free_transitions.masked_fill(~self._allowed_transitions, IMPOSSIBLE)

    @property
    def start_transitions(self) -> torch.Tensor:
        return self.free_start_transitions.masked_fill(~self._allowed_starts, IMPOSSIBLE)

    @property
    def end_transitions(self) -> torch.Tensor:
        return self.free_end_transitions.masked_fill(~self._allowed_ends, IMPOSSIBLE)
