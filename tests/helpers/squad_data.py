"""A tiny SQuAD 1.1 file written for the tests, and a helper to write variants of it."""

import json
from pathlib import Path
from typing import Any, Dict

# Invented passages; answer_start values checked by hand (and by the reader's own checks).
TINY_SQUAD: Dict[str, Any] = {
    "version": "1.1",
    "data": [
        {
            "title": "Velmora",
            "paragraphs": [
                {
                    "context": "Velmora is a small town on the Orwen river. It was founded in 1214 by Ada Marrow, "
                    "a miller from Kalvik. The town is known for its blue pottery.",
                    "qas": [
                        {
                            "id": "q-founded",
                            "question": "When was Velmora founded?",
                            "answers": [{"text": "1214", "answer_start": 62}],
                        },
                        {
                            "id": "q-founder",
                            "question": "Who founded Velmora?",
                            "answers": [
                                {"text": "Ada Marrow", "answer_start": 70},
                                {"text": "Ada Marrow, a miller", "answer_start": 70},
                                {"text": "Ada Marrow", "answer_start": 70},
                            ],
                        },
                        {
                            "id": "q-river",
                            "question": "On which river is Velmora?",
                            "answers": [{"text": "the Orwen river", "answer_start": 27}],
                        },
                        {
                            "id": "q-known",
                            "question": "What is Velmora known for?",
                            "answers": [{"text": "blue pottery", "answer_start": 130}],
                        },
                    ],
                },
                {
                    "context": "Kalvik lies north of Velmora. About 4,000 people live in Kalvik, and its mayor is "
                    "Tomas Varga.",
                    "qas": [
                        {
                            "id": "q-mayor",
                            "question": "Who is the mayor of Kalvik?",
                            "answers": [{"text": "Tomas Varga", "answer_start": 82}],
                        },
                        {
                            "id": "q-people",
                            "question": "How many people live in Kalvik?",
                            "answers": [{"text": "4,000", "answer_start": 36}],
                        },
                    ],
                },
            ],
        },
        {
            "title": "Grey Heron",
            "paragraphs": [
                {
                    "context": "The Grey Heron was a schooner built in Ostrick in 1871. She carried tea to the "
                    "Ember Islands until she sank in March 1902.",
                    "qas": [
                        {
                            "id": "q-kind",
                            "question": "What kind of ship was the Grey Heron?",
                            "answers": [{"text": "schooner", "answer_start": 21}],
                        },
                        {
                            "id": "q-built",
                            "question": "When was the Grey Heron built?",
                            "answers": [{"text": "1871", "answer_start": 50}],
                        },
                        {
                            "id": "q-cargo",
                            "question": "What did the Grey Heron carry?",
                            "answers": [{"text": "tea", "answer_start": 68}],
                        },
                        {
                            "id": "q-sank",
                            "question": "When did the Grey Heron sink?",
                            "answers": [{"text": "March 1902", "answer_start": 111}],
                        },
                    ],
                },
            ],
        },
    ],
}


def write_squad(path: Path, dataset: Dict[str, Any] = TINY_SQUAD) -> Path:
    path.write_text(json.dumps(dataset), encoding="utf-8")
    return path
