"""
SQuAD 1.1 in its JSON format (Rajpurkar et al. 2016), read with the checks and counts the suite asks
of every reader: a malformed record stops reading with the file and the record (article, paragraph,
question id); anything left out or approximated is counted and logged.
"""

import json
import logging
from typing import Any, Dict, Iterable, List, Optional, Tuple

from allennlp.data import DatasetReader, Instance, Token
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenIndexer
from allennlp.data.tokenizers import Tokenizer
from allennlp_models.rc.dataset_readers.utils import (
    char_span_to_token_span,
    make_reading_comprehension_instance,
)

from data_readers.errors import DataFormatError
from data_readers.tokenizers import BlankSpacyTokenizer

logger = logging.getLogger(__name__)

Answer = Tuple[str, int]  # the answer text and its answer_start, a character offset into the passage


class SquadFormatError(DataFormatError):
    """A malformed record of a SQuAD JSON file: the file, which record, and what was expected."""

    def __init__(self, path: str, record: str, message: str) -> None:
        ValueError.__init__(self, f"{path}, {record}: {message}")
        self.path, self.record, self.line_number = str(path), record, None


@DatasetReader.register("squad_v1")
class SquadV1Reader(DatasetReader):
    """
    Reads a SQuAD 1.1 JSON file (`{"data": [{"title", "paragraphs": [{"context", "qas": [{"id",
    "question", "answers": [{"text", "answer_start"}]}]}]}]}`) into one instance per question, with
    the fields of allennlp-models' `squad` reader (`question`, `passage`, `span_start`, `span_end`
    and `metadata` with the passage text, token offsets, answer texts and `id`), so `bidaf` reads
    them too.

    Answer character spans become token spans with allennlp-models' `char_span_to_token_span`. With
    several gold answers (dev), the span most annotators gave is the training target; all answer
    texts are kept for exact match and F1.

    Stops with `SquadFormatError` on: a file that is not SQuAD JSON, a paragraph without a context
    string, a question without text or without answers (SQuAD 2.0 unanswerable questions
    included), an answer whose `answer_start` is outside the context or whose text is not the
    context at `answer_start`. Logs, after each file: answers whose character span does not fall
    on token boundaries (the span is widened to whole tokens, as allennlp-models does), answers
    whose text occurs more than once in the passage with `answer_start` at the first occurrence
    (in a file whose starts were reconstructed as first occurrences, such as the suite's
    train-v1.1.reconstructed.json, some of these point at the wrong repeat of the text), passages
    cut to `passage_length_limit`, and questions dropped because every answer was cut off.

    Registered as a `DatasetReader` with name "squad_v1".

    # Parameters

    tokenizer : `Tokenizer`, optional (default = `blank_spacy`)
        For passages and questions; it must set each token's character offset `idx`.
    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": single_id}`)
    passage_length_limit : `int`, optional
        Cut passages to this many tokens; questions whose answers all lie beyond are dropped (and
        counted). Unset: passages are read whole.
    """

    def __init__(
        self,
        tokenizer: Optional[Tokenizer] = None,
        token_indexers: Optional[Dict[str, TokenIndexer]] = None,
        passage_length_limit: Optional[int] = None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self._tokenizer = tokenizer or BlankSpacyTokenizer()
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        if passage_length_limit is not None and passage_length_limit < 1:
            raise ValueError(f"passage_length_limit must be a positive number of tokens, not {passage_length_limit}")
        self._passage_length_limit = passage_length_limit

    def _read(self, file_path: str) -> Iterable[Instance]:
        counts = {"questions": 0, "inexact": 0, "first_of_repeats": 0, "truncated": 0, "dropped": 0}
        for article_index, article in enumerate(_articles(file_path)):
            title = article.get("title", "") if isinstance(article, dict) else ""
            paragraphs = article.get("paragraphs") if isinstance(article, dict) else None
            if not isinstance(paragraphs, list):
                raise SquadFormatError(
                    file_path, f"article {article_index} ({title!r})", 'expected a "paragraphs" list'
                )
            for paragraph_index, paragraph in enumerate(paragraphs):
                where = f"article {article_index} ({title!r}), paragraph {paragraph_index}"
                context = paragraph.get("context") if isinstance(paragraph, dict) else None
                if not isinstance(context, str) or not context.strip():
                    raise SquadFormatError(file_path, where, 'expected a non-empty "context" string')
                questions = paragraph.get("qas")
                if not isinstance(questions, list):
                    raise SquadFormatError(file_path, where, 'expected a "qas" list')
                passage_tokens = self._tokenizer.tokenize(context)
                if self._passage_length_limit is not None and len(passage_tokens) > self._passage_length_limit:
                    passage_tokens = passage_tokens[: self._passage_length_limit]
                    counts["truncated"] += 1
                offsets = _offsets(passage_tokens)
                for question_index, question in enumerate(questions):
                    question_id = question.get("id") if isinstance(question, dict) else None
                    record = f"{where}, question {question_index} (id {question_id!r})"
                    question_text, answers = _question_and_answers(file_path, record, question, context)
                    counts["questions"] += 1
                    counts["first_of_repeats"] += sum(
                        context.find(text) == start and context.find(text, start + 1) != -1 for text, start in answers
                    )
                    spans, inexact = _token_spans(offsets, answers)
                    counts["inexact"] += inexact
                    if not spans:
                        counts["dropped"] += 1
                        continue
                    yield make_reading_comprehension_instance(
                        self._tokenizer.tokenize(question_text),
                        passage_tokens,
                        self._token_indexers,
                        context,
                        spans,
                        [text for text, _ in answers],
                        {"id": question_id},
                    )
        _log_counts(file_path, counts, self._passage_length_limit)

    def text_to_instance(  # type: ignore
        self,
        question_text: str,
        passage_text: str,
        answers: Optional[List[Answer]] = None,
        question_tokens: Optional[List[Token]] = None,
        passage_tokens: Optional[List[Token]] = None,
        question_id: Optional[str] = None,
    ) -> Instance:
        """
        One question on one passage; `answers` as `(text, answer_start)` pairs when known. Tokens
        may be given already (the predictor does); the passage is cut to `passage_length_limit`.
        """
        passage_tokens = passage_tokens or self._tokenizer.tokenize(passage_text)
        if self._passage_length_limit is not None:
            passage_tokens = passage_tokens[: self._passage_length_limit]
        spans = _token_spans(_offsets(passage_tokens), answers)[0] if answers else None
        return make_reading_comprehension_instance(
            question_tokens or self._tokenizer.tokenize(question_text),
            passage_tokens,
            self._token_indexers,
            passage_text,
            spans,
            [text for text, _ in answers] if answers else None,
            {"id": question_id},
        )


def _articles(file_path: str) -> List[Any]:
    """The file's `data` list, or an error saying why it is not SQuAD JSON."""
    try:
        with open(file_path, encoding="utf-8-sig") as squad_file:  # a byte order mark is not JSON
            dataset = json.load(squad_file)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SquadFormatError(file_path, "the file", f"not JSON ({error})") from error
    if not isinstance(dataset, dict) or not isinstance(dataset.get("data"), list):
        raise SquadFormatError(file_path, "the file", 'expected a JSON object with a "data" list of articles')
    return dataset["data"]


def _question_and_answers(file_path: str, record: str, question: Any, context: str) -> Tuple[str, List[Answer]]:
    """The question text and its `(text, answer_start)` answers, checked against the context."""
    if not isinstance(question, dict):
        raise SquadFormatError(file_path, record, "expected a JSON object")
    text = question.get("question")
    if not isinstance(text, str) or not text.strip():
        raise SquadFormatError(file_path, record, 'expected a non-empty "question" string')
    if question.get("is_impossible"):
        raise SquadFormatError(file_path, record, "an unanswerable (SQuAD 2.0) question: this reader takes SQuAD 1.1")
    answers = question.get("answers")
    if not isinstance(answers, list) or not answers:
        raise SquadFormatError(
            file_path, record, 'expected a non-empty "answers" list (SQuAD 1.1 questions all have answers)'
        )
    checked = []
    for answer_index, answer in enumerate(answers):
        where = f"{record}, answer {answer_index}"
        answer_text = answer.get("text") if isinstance(answer, dict) else None
        start = answer.get("answer_start") if isinstance(answer, dict) else None
        if not isinstance(answer_text, str) or not answer_text.strip():
            raise SquadFormatError(file_path, where, 'expected a non-empty "text" string')
        if not isinstance(start, int) or isinstance(start, bool):
            raise SquadFormatError(file_path, where, 'expected an integer "answer_start"')
        if not 0 <= start <= len(context) - len(answer_text):
            raise SquadFormatError(
                file_path,
                where,
                f"answer_start {start} with an answer of {len(answer_text)} characters is outside the context "
                f"({len(context)} characters)",
            )
        found = context[start : start + len(answer_text)]
        if found != answer_text:
            raise SquadFormatError(
                file_path,
                where,
                f"the context at answer_start {start} reads {found!r}, not the answer text {answer_text!r}",
            )
        checked.append((answer_text, start))
    return text.strip(), checked


def _offsets(tokens: List[Token]) -> List[Tuple[int, int]]:
    """Each token's first and one-past-last character in the text."""
    return [(token.idx, token.idx + len(token.text)) for token in tokens]


def _token_spans(offsets: List[Tuple[int, int]], answers: List[Answer]) -> Tuple[List[Tuple[int, int]], int]:
    """
    Inclusive token spans of the answers that lie within the tokens of `offsets` (the passage,
    perhaps cut), and how many of those do not start and end on token boundaries (widened to whole
    tokens).
    """
    spans, inexact = [], 0
    for text, start in answers:
        end = start + len(text)
        if end > offsets[-1][1]:
            continue  # the passage was cut before the answer ends
        span, error = char_span_to_token_span(offsets, (start, end))
        spans.append(span)
        inexact += error
    return spans, inexact


def _log_counts(file_path: str, counts: Dict[str, int], passage_length_limit: Optional[int]) -> None:
    logger.info(
        "%s: %d questions, %d read, %d dropped",
        file_path,
        counts["questions"],
        counts["questions"] - counts["dropped"],
        counts["dropped"],
    )
    if counts["inexact"]:
        logger.info(
            "%s: %d answer spans do not start and end on token boundaries; each was widened to whole tokens",
            file_path,
            counts["inexact"],
        )
    if counts["first_of_repeats"]:
        logger.info(
            "%s: %d answers occur more than once in their passage and have answer_start at the first occurrence; "
            "if this file's starts were reconstructed as first occurrences, some of these mark the wrong repeat",
            file_path,
            counts["first_of_repeats"],
        )
    if counts["truncated"]:
        logger.warning(
            "%s: %d passages cut to passage_length_limit=%s tokens; %d questions dropped because all their answers "
            "were cut off",
            file_path,
            counts["truncated"],
            passage_length_limit,
            counts["dropped"],
        )
