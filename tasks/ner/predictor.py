"""Named entities in raw text: `{"sentence": "..."}` in, tokens, tags and typed entity spans out."""

from typing import Any, Dict

from allennlp.common.util import JsonDict
from allennlp.data import Instance
from allennlp.predictors import Predictor

from tasks.common.predictor import RawTextPredictor
from tasks.ner.metrics import entity_spans


@Predictor.register("ner_tagger")
class NerTaggerPredictor(RawTextPredictor):
    """
    Tags `sentence`. Each output holds `tokens`, `tags` (in the model's scheme) and `entities`:
    `text`, `type`, `token_start`/`token_end` and, for raw text, character offsets `start`/`end`
    into the sentence (ends exclusive). Bad lines get an error in their place (`RawTextPredictor`).
    """

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        sentence, tokens = self._tokenized(json_dict, "sentence")
        instance = self._dataset_reader.text_to_instance(tokens)
        instance.fields["metadata"].metadata["sentence"] = sentence  # type: ignore
        return instance

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
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
