"""Sentiment of raw text: `{"sentence": "..."}` in, the label and each label's probability out."""

from typing import Any, Dict

from allennlp.common.util import JsonDict
from allennlp.data import Instance
from allennlp.predictors import Predictor

from data_readers.sst import class_names
from tasks.common.labels import probabilities_by_label
from tasks.common.predictor import RawTextPredictor


@Predictor.register("sentiment_classifier")
class SentimentClassifierPredictor(RawTextPredictor):
    """
    Classifies `sentence` (tokenised offline, as the treebank is: `does n't`). Each output holds
    `tokens`, `label` (e.g. `very positive`) and `probabilities`: each label's, from the most
    negative to the most positive. Bad lines get an error in their place (`RawTextPredictor`).
    """

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        _, tokens = self._tokenized(json_dict, "sentence")
        return self._dataset_reader.text_to_instance(tokens)

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        granularity = getattr(self._dataset_reader, "granularity", "5-class")
        return {
            "tokens": [token.text for token in instance.fields["tokens"].tokens],  # type: ignore
            "label": output["label"],
            "probabilities": probabilities_by_label(
                output["class_probabilities"], self._model.vocab, class_names(granularity)
            ),
        }
