"""Coreference in raw text: `{"document": "..."}` in, clusters of mentions with token and character spans out."""

from typing import Any, Dict, List

from allennlp.common.util import JsonDict
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model
from allennlp.predictors import Predictor

from tasks.common.predictor import InvalidInput, RawTextPredictor


@Predictor.register("coref_resolver")
class CorefResolverPredictor(RawTextPredictor):
    """
    Splits `document` into sentences (spaCy's rule-based sentencizer, offline) and tokens, and
    predicts its clusters. Each output holds `tokens` and `clusters`: lists of mentions in document
    order, each with `text`, `token_start`/`token_end` and, for raw text, character offsets
    `start`/`end` into the document (ends exclusive). An optional `"genre"` string (OntoNotes' `bc`,
    `bn`, `mz`, `nw`, `pt`, `tc`, `wb`) gives the genre feature; without it the document gets the
    embedding of genres the model has no own embedding for (all of LitBank's documents). Every
    word has the same (unknown) speaker. Bad lines get an error in their place (`RawTextPredictor`);
    documents over `max_tokens` (default 5000) tokens are refused.
    """

    def __init__(
        self, model: Model, dataset_reader: DatasetReader, max_tokens: int = 5000, language: str = "en"
    ) -> None:
        super().__init__(model, dataset_reader, max_tokens=max_tokens, language=language)

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        text, _ = self._tokenized(json_dict, "document")  # checks the input and the length
        genre = json_dict.get("genre")
        if genre is not None and not isinstance(genre, str):
            raise InvalidInput('"genre" must be a string')
        sentences = [sentence for sentence in self._tokenizer.split_sentences(text) if sentence]
        instance = self._dataset_reader.text_to_instance(
            [[token.text for token in sentence] for sentence in sentences], genre=genre
        )
        metadata = instance.fields["metadata"].metadata  # type: ignore
        metadata["raw_text"] = text
        metadata["character_offsets"] = [(token.idx, token.idx_end) for sentence in sentences for token in sentence]
        return instance

    def _describe(self, instance: Instance, output: Dict[str, Any]) -> Dict[str, Any]:
        """Tokens and clusters; character offsets only for raw text (not for CoNLL input)."""
        metadata = instance.fields["metadata"].metadata  # type: ignore
        tokens: List[str] = output["document"]
        text, offsets = metadata.get("raw_text"), metadata.get("character_offsets")
        clusters = []
        for cluster in output["clusters"]:
            mentions = []
            for first, last in sorted(cluster):
                mention = {"text": " ".join(tokens[first : last + 1]), "token_start": first, "token_end": last + 1}
                if text is not None:
                    start, end = offsets[first][0], offsets[last][1]
                    mention.update(text=text[start:end], start=start, end=end)
                mentions.append(mention)
            clusters.append(mentions)
        return {"tokens": tokens, "clusters": clusters}
