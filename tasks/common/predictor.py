"""The base of the suite's predictors on raw text, and its handling of bad input lines."""

import json
import logging
from typing import Any, Dict, List, Tuple

from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance, Token
from allennlp.models import Model
from allennlp.predictors import Predictor

from allennlp_compat.predict_input import UnreadableLine
from data_readers.tokenizers import BlankSpacyTokenizer

logger = logging.getLogger(__name__)


class InvalidInput(ValueError):
    """An input line the predictor cannot take, with the reason."""


class RawTextPredictor(Predictor):
    """
    Takes JSON lines holding raw text, tokenised offline (spaCy's blank pipeline). A line that is
    not a JSON object with the expected non-empty strings, or whose text has more than
    `max_tokens` tokens, gets `{"error": ..., "input": ...}` in its place in the output (and a
    warning in the log); the other lines of the batch are predicted as usual.
    `--predictor-args '{"max_tokens": N}'` changes the cap.

    `allennlp predict` gives it every input line in order (`allennlp_compat.predict_input`): a blank
    line, or one that is not UTF-8, is answered with an error object too, so output line k always
    answers input line k.

    Subclasses build the instance in `_json_to_instance` (with `_tokenized`) and shape each
    output in `_describe`.
    """

    answers_unreadable_lines = True

    def __init__(
        self, model: Model, dataset_reader: DatasetReader, max_tokens: int = 250, language: str = "en"
    ) -> None:
        super().__init__(model, dataset_reader)
        self._tokenizer = BlankSpacyTokenizer(language=language)
        self._max_tokens = max_tokens

    def load_line(self, line: str) -> Any:
        """The line's JSON, or the line itself when it is not JSON (answered with an error)."""
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            return line.rstrip("\n")

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: List[JsonDict]) -> List[JsonDict]:
        results: List[Any] = [None] * len(inputs)
        valid_positions, instances = [], []
        for position, json_dict in enumerate(inputs):
            try:
                instances.append(self._json_to_instance(json_dict))
                valid_positions.append(position)
            except InvalidInput as error:
                logger.warning("Input %s not predicted: %s", _abbreviated(json_dict), error)
                results[position] = {"error": str(error), "input": json_dict}
        if instances:
            for position, output in zip(valid_positions, self.predict_batch_instance(instances)):
                results[position] = output
        return results

    def predict_instance(self, instance: Instance) -> JsonDict:
        return self.predict_batch_instance([instance])[0]

    def predict_batch_instance(self, instances: List[Instance]) -> List[JsonDict]:
        for instance in instances:
            self._dataset_reader.apply_token_indexers(instance)
        outputs = self._model.forward_on_instances(instances)
        return [sanitize(self._describe(instance, output)) for instance, output in zip(instances, outputs)]

    def _tokenized(self, json_dict: Any, key: str) -> Tuple[str, List[Token]]:
        """`json_dict[key]` and its tokens, or `InvalidInput` saying what is wrong."""
        if isinstance(json_dict, UnreadableLine):
            raise InvalidInput(json_dict.reason)
        text = json_dict.get(key) if isinstance(json_dict, dict) else None
        if not isinstance(text, str):
            raise InvalidInput(f'expected a JSON object with a "{key}" string')
        tokens = self._tokenizer.tokenize(text)
        if not tokens:
            raise InvalidInput(f"the {key} is empty")
        if len(tokens) > self._max_tokens:
            raise InvalidInput(
                f"the {key} has {len(tokens)} tokens, more than max_tokens={self._max_tokens}: "
                "split it, or raise the cap with --predictor-args"
            )
        return text, tokens

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        raise NotImplementedError


def _abbreviated(json_dict: Any, limit: int = 80) -> str:
    text = repr(json_dict)
    return text if len(text) <= limit else text[: limit - 3] + "..."
