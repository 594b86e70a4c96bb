"""
Offline tokenisation: spaCy's blank pipeline, which needs no model download.

AllenNLP's `spacy` tokenizer loads a trained pipeline (`en_core_web_sm`) and downloads it when
missing, which fails without a network. Tokenisation itself is rule-based in spaCy and lives in
the blank pipeline; only tagging and parsing need a trained model, and the suite uses neither.
"""

from typing import List, Optional

import spacy
from allennlp.data.tokenizers import Token, Tokenizer


@Tokenizer.register("blank_spacy")
class BlankSpacyTokenizer(Tokenizer):
    """
    Splits text into tokens with spaCy's rule-based tokenizer for `language` (default English),
    keeping each token's character offsets (`idx`, `idx_end`) so predictions can point back into
    the raw text. `split_sentences` adds spaCy's rule-based sentencizer.

    Registered as a `Tokenizer` with name "blank_spacy".
    """

    def __init__(
        self,
        language: str = "en",
        start_tokens: Optional[List[str]] = None,
        end_tokens: Optional[List[str]] = None,
    ) -> None:
        self._language = language
        self._nlp = spacy.blank(language)
        self._nlp.add_pipe("sentencizer")
        self._start_tokens = list(start_tokens or [])
        self._end_tokens = list(end_tokens or [])

    def tokenize(self, text: str) -> List[Token]:
        return self._with_boundaries(self._convert(self._nlp.make_doc(text)))

    def batch_tokenize(self, texts: List[str]) -> List[List[Token]]:
        return [self.tokenize(text) for text in texts]

    def split_sentences(self, text: str) -> List[List[Token]]:
        """Tokens of each sentence found by the rule-based sentencizer, offsets into `text`."""
        document = self._nlp(text)
        return [self._with_boundaries(self._convert(sentence)) for sentence in document.sents]

    @staticmethod
    def _convert(spacy_tokens) -> List[Token]:
        return [
            Token(text=token.text, idx=token.idx, idx_end=token.idx + len(token.text))
            for token in spacy_tokens
            if not token.is_space
        ]

    def _with_boundaries(self, tokens: List[Token]) -> List[Token]:
        return [Token(text) for text in self._start_tokens] + tokens + [Token(text) for text in self._end_tokens]

    def _to_params(self):
        return {
            "type": "blank_spacy",
            "language": self._language,
            "start_tokens": self._start_tokens,
            "end_tokens": self._end_tokens,
        }
