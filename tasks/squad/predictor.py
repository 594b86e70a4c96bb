"""Answers a question about a raw-text passage: `{"passage": ..., "question": ...}` in, the answer span out."""

from typing import Any, Dict

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
    span, P(start) · P(end). Works for `bidaf_self_attention` and allennlp-models' `bidaf`.

    Passages and questions are tokenised offline (spaCy's blank pipeline); a line without both
    strings, or with more than `max_tokens` tokens in either, gets `{"error": ..., "input": ...}`
    in its place (`RawTextPredictor`).
    """

    def __init__(
        self, model: Model, dataset_reader: DatasetReader, max_tokens: int = 1000, language: str = "en"
    ) -> None:
        super().__init__(model, dataset_reader, max_tokens=max_tokens, language=language)

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        passage, passage_tokens = self._tokenized(json_dict, "passage")
        question, question_tokens = self._tokenized(json_dict, "question")
        return self._dataset_reader.text_to_instance(
            question, passage, question_tokens=question_tokens, passage_tokens=passage_tokens
        )

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        metadata = instance.fields["metadata"].metadata  # type: ignore
        first, last = (int(index) for index in output["best_span"])
        start, end = metadata["token_offsets"][first][0], metadata["token_offsets"][last][1]
        return {
            "answer": metadata["original_passage"][start:end],
            "start": start,
            "end": end,
            "token_start": first,
            "token_end": last + 1,
            "score": float(output["span_start_probs"][first] * output["span_end_probs"][last]),
        }
