"""Entailment between raw texts: `{"premise": "...", "hypothesis": "..."}` in, the label and its probabilities out."""

from typing import Any, Dict

from allennlp.common.util import JsonDict
from allennlp.data import Instance
from allennlp.predictors import Predictor

from data_readers.snli import SNLI_LABELS
from tasks.common.labels import probabilities_by_label
from tasks.common.predictor import RawTextPredictor


@Predictor.register("entailment_classifier")
class EntailmentClassifierPredictor(RawTextPredictor):
    """
    Says whether `premise` entails, contradicts or is neutral to `hypothesis` (both tokenised
    offline). Each output holds `premise_tokens`, `hypothesis_tokens`, `label` and `probabilities`
    (entailment, neutral, contradiction). Bad lines get an error in their place
    (`RawTextPredictor`). With `--use-dataset-reader`, SNLI jsonl files are read as they are.
    """

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        _, premise = self._tokenized(json_dict, "premise")
        _, hypothesis = self._tokenized(json_dict, "hypothesis")
        return self._dataset_reader.text_to_instance(premise, hypothesis)

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        return {
            "premise_tokens": [token.text for token in instance.fields["premise"].tokens],  # type: ignore
            "hypothesis_tokens": [token.text for token in instance.fields["hypothesis"].tokens],  # type: ignore
            "label": output["label"],
            "probabilities": probabilities_by_label(output["label_probs"], self._model.vocab, SNLI_LABELS),
        }
