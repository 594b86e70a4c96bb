"""Named entities in raw text: `{"sentence": "..."}` in, tokens, tags and typed entity spans out."""
import json
import logging
from typing import Any, Dict, List

from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from data_readers.tokenizers import BlankSpacyTokenizer
from tasks.ner.metrics import entity_spans

logger = logging.getLogger(__name__)


class InvalidInput(ValueError):
    """An input line the predictor cannot take, with the reason."""


@Predictor.register("ner_tagger")
class NerTaggerPredictor(Predictor):
    """
    Tokenises `sentence` offline (spaCy's blank English pipeline) and tags it. Each output holds
    `tokens`, `tags` (in the model's scheme) and `entities`: `text`, `type`, character offsets
    `start`/`end` into the sentence (end exclusive) and `token_start`/`token_end` (end exclusive).

    An input line that is not a JSON object with a non-empty `sentence` string, or whose sentence
    has more than `max_tokens` tokens, gets `{"error": ..., "input": ...}` in its place in the
    output (and a warning in the log); the other lines of the batch are predicted as usual.
    `--predictor-args '{"max_tokens": N}'` changes the cap.
    """

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

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        sentence = json_dict.get("sentence") if isinstance(json_dict, dict) else None
        if not isinstance(sentence, str):
            raise InvalidInput('expected a JSON object with a "sentence" string')
        tokens = self._tokenizer.tokenize(sentence)
        if not tokens:
            raise InvalidInput("the sentence is empty")
        if len(tokens) > self._max_tokens:
            raise InvalidInput(
                f"the sentence has {len(tokens)} tokens, more than max_tokens={self._max_tokens}: "
                "split it, or raise the cap with --predictor-args"
            )
        instance = self._dataset_reader.text_to_instance(tokens)
        instance.fields["metadata"].metadata["sentence"] = sentence  # type: ignore
        return instance

    @staticmethod
    def _describe(instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        """Tokens, tags and entities; character offsets only for raw text (not CoNLL input)."""
        tokens = instance.fields["tokens"].tokens  # type: ignore
        sentence = instance.fields["metadata"].metadata.get("sentence")  # type: ignore
        entities = []
        for entity_type, first, last in entity_spans(output["tags"]):
            entity = {
                "text": " ".join(token.text for token in tokens[first : last + 1]),
                "type": entity_type,
                "token_start": first,
                "token_end": last + 1,
            }
            if sentence is not None:
                start, end = tokens[first].idx, tokens[last].idx_end
                entity.update(text=sentence[start:end], start=start, end=end)
            entities.append(entity)
        return {"tokens": output["words"], "tags": output["tags"], "entities": entities}


def _abbreviated(json_dict: Any, limit: int = 80) -> str:
    text = repr(json_dict)
    return text if len(text) <= limit else text[: limit - 3] + "..."
