"""
Semantic roles in raw text: `{"sentence": "..."}` in, one frame per predicate out, each with its
labelled argument spans (text, label, token and character offsets).
"""

import logging
import os
from typing import Any, Dict, List, Optional, Tuple

from allennlp.common.util import JsonDict, sanitize
from allennlp.data import DatasetReader, Instance, Token
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tasks.common.predictor import InvalidInput, RawTextPredictor, _abbreviated
from tasks.srl.metrics import bio_spans

logger = logging.getLogger(__name__)

PREDICATE_MODEL_VARIABLE = "SRL_PREDICATE_MODEL"
BATCH_SIZE = 64


@Predictor.register("srl_frames")
class SrlFramesPredictor(RawTextPredictor):
    """
    Finds the predicates of `sentence` and labels each one's arguments. The predicates come from
    the input's `"predicates"` (word indices into the tokenised sentence) when given; otherwise
    from a trained `predicate_tagger` archive when one is named, `predicate_model`
    (`--predictor-args '{"predicate_model": "runs/srl_predicates/model.tar.gz"}'`) or, unset, the
    `SRL_PREDICATE_MODEL` environment variable; otherwise from the SRL model's own predicate
    finder (the configs train one). A line none of these can serve, or whose input is bad, gets
    `{"error": ..., "input": ...}` (`RawTextPredictor`).

    Each output holds `tokens` and `frames`, one per predicate in word order: `predicate`
    (`text`, `token_index`), `tags` (BIO) and `arguments` (`text`, `label`,
    `token_start`/`token_end`; the predicate's own `V` is not an argument), with character offsets
    `start`/`end` into the sentence for raw text (ends exclusive). With `--use-dataset-reader`,
    each instance (one predicate of a data file) gives one frame.

    Registered as a `Predictor` with name "srl_frames".
    """

    def __init__(
        self,
        model: Model,
        dataset_reader: DatasetReader,
        predicate_model: Optional[str] = None,
        max_tokens: int = 250,
        language: str = "en",
    ) -> None:
        super().__init__(model, dataset_reader, max_tokens=max_tokens, language=language)
        predicate_model = predicate_model or os.environ.get(PREDICATE_MODEL_VARIABLE) or None
        self._predicate_tagger: Optional[Model] = None
        if predicate_model is not None:
            archive = load_archive(predicate_model)
            self._predicate_tagger = archive.model.eval()
            self._predicate_reader = archive.validation_dataset_reader
            logger.info("Predicates from the predicate tagger in %s", predicate_model)

    def predict_batch_json(self, inputs: List[JsonDict]) -> List[JsonDict]:
        results: List[Any] = [None] * len(inputs)
        sentences: List[Tuple[int, str, List[Token], Optional[List[int]]]] = []
        for position, json_dict in enumerate(inputs):
            try:
                sentence, tokens = self._tokenized(json_dict, "sentence")
                sentences.append((position, sentence, tokens, self._given_predicates(json_dict, tokens)))
            except InvalidInput as error:
                logger.warning("Input %s not predicted: %s", _abbreviated(json_dict), error)
                results[position] = {"error": str(error), "input": json_dict}
        found = self._tag_predicates([tokens for _, _, tokens, given in sentences if given is None])
        frames_wanted = []
        for position, sentence, tokens, given in sentences:
            predicates = given if given is not None else found.pop(0)
            frames_wanted.extend((position, sentence, tokens, predicate) for predicate in predicates)
            results[position] = {"tokens": [token.text for token in tokens], "frames": []}
        instances = [self._frame_instance(tokens, predicate) for _, _, tokens, predicate in frames_wanted]
        for (position, sentence, _, _), instance, output in zip(frames_wanted, instances, self._labelled(instances)):
            results[position]["frames"].append(self._frame(instance, output, sentence))
        return results

    def predict_batch_instance(self, instances: List[Instance]) -> List[JsonDict]:
        outputs = self._labelled(instances)
        return [
            sanitize({"tokens": output["words"], "frames": [self._frame(instance, output, None)]})
            for instance, output in zip(instances, outputs)
        ]

    def _given_predicates(self, json_dict: JsonDict, tokens: List[Token]) -> Optional[List[int]]:
        given = json_dict.get("predicates")
        if given is None:
            if self._predicate_tagger is None and getattr(self._model, "predicate_finder", None) is None:
                raise InvalidInput(
                    'no predicates: this model has no predicate finder; give "predicates" (word indices), or a '
                    f'predicate tagger with --predictor-args \'{{"predicate_model": "path/to/model.tar.gz"}}\' '
                    f"or {PREDICATE_MODEL_VARIABLE}"
                )
            return None
        if not (
            isinstance(given, list) and all(isinstance(index, int) and 0 <= index < len(tokens) for index in given)
        ):
            raise InvalidInput(f'"predicates" must be a list of word indices from 0 to {len(tokens) - 1}')
        return sorted(set(given))

    def _tag_predicates(self, sentences: List[List[Token]]) -> List[List[int]]:
        if not sentences:
            return []
        if self._predicate_tagger is None:  # the SRL model's own finder, on sentences with no predicate marked
            instances = [self._dataset_reader.text_to_instance(tokens, [0] * len(tokens)) for tokens in sentences]
            return [output["predicates"] for output in self._labelled(instances)]
        instances = [self._predicate_reader.text_to_instance(tokens) for tokens in sentences]
        for instance in instances:
            self._predicate_reader.apply_token_indexers(instance)
        outputs = _in_batches(self._predicate_tagger, instances)
        return [output["predicates"] for output in outputs]

    def _frame_instance(self, tokens: List[Token], predicate: int) -> Instance:
        indicator = [0] * len(tokens)
        indicator[predicate] = 1
        return self._dataset_reader.text_to_instance(tokens, indicator)

    def _labelled(self, instances: List[Instance]) -> List[Dict[str, Any]]:
        for instance in instances:
            self._dataset_reader.apply_token_indexers(instance)
        return _in_batches(self._model, instances)

    @staticmethod
    def _frame(instance: Instance, output: Dict[str, Any], sentence: Optional[str]) -> Dict[str, Any]:
        """The predicate, tags and argument spans; character offsets only for raw text."""
        tokens = instance.fields["tokens"].tokens  # type: ignore
        predicate = output["verb_index"]

        def located(item: Dict[str, Any], first: int, last: int) -> Dict[str, Any]:
            if sentence is not None:
                start, end = tokens[first].idx, tokens[last].idx_end
                item.update(text=sentence[start:end], start=start, end=end)
            return item

        arguments = [
            located(
                {
                    "text": " ".join(t.text for t in tokens[first : last + 1]),
                    "label": label,
                    "token_start": first,
                    "token_end": last + 1,
                },
                first,
                last,
            )
            for first, last, label in bio_spans(output["tags"])
            if label != "V"
        ]
        return {
            "predicate": located({"text": tokens[predicate].text, "token_index": predicate}, predicate, predicate),
            "tags": output["tags"],
            "arguments": arguments,
        }


def _in_batches(model: Model, instances: List[Instance]) -> List[Dict[str, Any]]:
    outputs: List[Dict[str, Any]] = []
    for start in range(0, len(instances), BATCH_SIZE):
        outputs.extend(model.forward_on_instances(instances[start : start + BATCH_SIZE]))
    return outputs
