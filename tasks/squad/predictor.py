"""Answers a question about a raw-text passage: `{"passage": ..., "question": ...}` in, the answer span out."""

from typing import Any, Dict, List, Tuple

import torch
from allennlp.common.util import JsonDict
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from tasks.common.predictor import RawTextPredictor


@Predictor.register("squad_answerer")
class SquadAnswererPredictor(RawTextPredictor):
    """
    Each output holds `answer` (the passage text of the predicted span), `start` and `end`
    (character offsets into the passage, end exclusive: `passage[start:end] == answer`),
    `token_start` and `token_end` (end exclusive), and `score`: the model's probability of that
    span, P(start) · P(end); and `alternatives`: the next `alternatives` best spans (default 3),
    each with the same keys, best first, of at most the model's longest span. Works for
    `bidaf_self_attention` and allennlp-models' `bidaf`.

    Passages and questions are tokenised offline (spaCy's blank pipeline); a line without both
    strings, or with more than `max_tokens` tokens in either, gets `{"error": ..., "input": ...}`
    in its place (`RawTextPredictor`).
    """

    def __init__(
        self,
        model: Model,
        dataset_reader: DatasetReader,
        max_tokens: int = 1000,
        language: str = "en",
        alternatives: int = 3,
    ) -> None:
        super().__init__(model, dataset_reader, max_tokens=max_tokens, language=language)
        self._alternatives = alternatives
        self._max_span_length = getattr(model, "_max_span_length", None)

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        passage, passage_tokens = self._tokenized(json_dict, "passage")
        question, question_tokens = self._tokenized(json_dict, "question")
        return self._dataset_reader.text_to_instance(
            question, passage, question_tokens=question_tokens, passage_tokens=passage_tokens
        )

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        metadata = instance.fields["metadata"].metadata  # type: ignore
        best = tuple(int(index) for index in output["best_span"])
        starts, ends = (torch.as_tensor(output[key]) for key in ("span_start_probs", "span_end_probs"))
        described = self._span(metadata, best, starts, ends)
        described["alternatives"] = [
            self._span(metadata, span, starts, ends) for span in self._ranked(starts, ends) if span != best
        ][: self._alternatives]
        return described

    @staticmethod
    def _span(metadata: Dict[str, Any], span, starts: torch.Tensor, ends: torch.Tensor) -> Dict[str, Any]:
        first, last = span
        start, end = metadata["token_offsets"][first][0], metadata["token_offsets"][last][1]
        return {
            "answer": metadata["original_passage"][start:end],
            "start": start,
            "end": end,
            "token_start": first,
            "token_end": last + 1,
            "score": float(starts[first] * ends[last]),
        }

    def _ranked(self, starts: torch.Tensor, ends: torch.Tensor) -> List[Tuple[int, int]]:
        """The spans that can be answers (start <= end, at most the model's longest), most probable first."""
        scores = starts.unsqueeze(1) * ends.unsqueeze(0)
        allowed = torch.ones_like(scores, dtype=torch.bool).triu()
        if self._max_span_length is not None:
            allowed &= ~torch.ones_like(allowed).triu(diagonal=self._max_span_length)
        flat = scores.masked_fill(~allowed, -1.0).flatten()
        top = torch.topk(flat, min(self._alternatives + 1, int(allowed.sum()))).indices.tolist()
        return [divmod(index, scores.size(1)) for index in top]
