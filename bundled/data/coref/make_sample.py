"""Generate a small, invented English coreference dataset in the CoNLL-2012 format.

OntoNotes (the paper's coreference data) is licensed by the LDC and cannot be shipped with this
repository. This script writes an offline stand-in, ``train.conll`` / ``dev.conll`` /
``test.conll``, so the coreference configs run end to end in minutes without it. The files
follow the CoNLL-2012 layout: ``#begin document (ID); part 000`` ... ``#end document``, blank lines
between sentences, 12 space-separated columns per token (document id, part, word number, word,
POS, parse, lemma, frameset, sense, speaker, named entities, coreference; the columns we do not
generate are ``-`` or ``*``), and coreference brackets ``(3``, ``3)``, ``(3)`` joined by ``|``.

All text is invented, from hand-written templates:

* stories (genre ``nw``): a person, a second person, an object and a place, referred to by
  names, pronouns, definite descriptions and possessives, with nested mentions (``[her [bicycle]]``
  is not allowed, but ``[[her] bicycle]`` is) and a pleonastic "it" that is not a mention;
* conversations (genre ``bc``) between ``Speaker#1`` and ``Speaker#2``, whose "I", "me" and "you"
  corefer only through the speaker column.

As in OntoNotes, entities mentioned only once are not annotated (no singleton clusters). A few
names and objects are kept out of ``train`` and appear only in ``dev`` / ``test``. Output is fully
determined by ``--seed``.
"""

import argparse
import random
from pathlib import Path
from typing import Dict, List, Tuple

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
DEFAULT_SEED = 2012
SPLIT_SIZES = {"train": 40, "dev": 10, "test": 10}
CONVERSATION_SHARE = 0.3

FEMALE = ["Maria", "Elena", "Priya", "Lucia", "Ingrid", "Nadia", "Rosa", "Amara", "Clara", "Greta", "Sofia", "Leona"]
MALE = ["Tomas", "Jonas", "Omar", "Daniel", "Samuel", "Felix", "Viktor", "Henrik", "Yusuf", "Oscar", "Emil", "Ravi"]
ADJECTIVES = ["red", "old", "small", "heavy", "new", "blue", "wooden", "broken"]
NOUNS = ["bicycle", "lamp", "violin", "suitcase", "kettle", "map", "camera", "clock", "kite", "radio"]
PLACES = ["market", "harbour", "library", "station", "bakery", "museum", "garden", "bridge"]
HELD_OUT = {"Leona", "Emil", "Ravi", "Sofia", "kite", "radio", "bridge"}  # only in dev and test

PRONOUNS = {
    "female": {"subj": "she", "obj": "her", "poss": "her"},
    "male": {"subj": "he", "obj": "him", "poss": "his"},
}

# Templates: words, and mentions in brackets. `[A.name]` is a mention of entity A in the form
# `name`; `[X [A.poss] @X.noun]` is a mention of X containing a mention of A. A capitalised form
# (`Subj`, `Def`) capitalises its first word. Conversation lines start with their speaker, `1:` or `2:`.
STORY_OPENINGS = [
    "[A.name] walked to [L.def] one morning .",
    "[A.name] lived near [L.def] .",
    "On Sunday , [A.name] visited [L.def] .",
]
STORY_OBJECTS = [
    "[A.Subj] bought [X.indef] there .",
    "There [A.subj] found [X.indef] .",
    "[A.Subj] was carrying [X.indef] .",
]
STORY_SECOND_PERSON = [
    "Soon [B.name] arrived .",
    "[A.Subj] met [B.name] at [L.def] .",
    "[B.name] was waiting for [A.obj] .",
]
STORY_MIDDLE = [
    "[B.Subj] asked where [A.subj] got [X.pron] .",
    "[A.name] showed [X.def] to [B.obj] .",
    "[X.Def] was heavy , so [B.subj] helped [A.obj] .",
    "[B.name] said [X.pron] looked old .",
    "[A.Subj] told [B.obj] that [L.def] was busy .",
    "[L.Def] was crowded and noisy .",
    "It was raining , and [A.subj] stayed inside .",
    "[B.Subj] laughed and took [X [A.poss] @X.noun] .",
    "Later [A.name] cleaned [X [A.poss] @X.noun] carefully .",
    "[A.Subj] thanked [B.name] .",
    "[B.Subj] gave [A.obj] [B.poss] address .",
]
STORY_ENDINGS = [
    "In the evening , [A.subj] went home with [X.def] .",
    "[B.name] walked back to [L.def] alone .",
    "[A.name] and [B.name] left [L.def] together .",
]
CONVERSATION_OPENINGS = [
    "1: [S1.I] saw [A.name] at [L.def] yesterday .",
    "1: [S1.I] met [A.name] near [L.def] .",
]
CONVERSATION_MIDDLE = [
    "2: Did [S1.you] talk to [A.obj] ?",
    "1: Yes , [A.subj] showed [S1.me] [X.indef] .",
    "2: [S2.I] would like to see [X.pron] .",
    "1: [A.Subj] said [S2.you] can borrow [X.pron] .",
    "2: Thank [S1.you] , [S2.I] will call [A.obj] .",
    "1: [L.Def] opens at nine .",
    "2: Is [X.def] expensive ?",
    "1: [S1.I] think [A.subj] wants to sell [X.pron] .",
]

Mention = Tuple[str, int, int]  # entity, first and last word of the sentence (inclusive)


class Story:
    """The entities of one document and how each is written."""

    def __init__(self, rng: random.Random, allow_held_out: bool) -> None:
        def pick(options):
            pool = [option for option in options if allow_held_out or option not in HELD_OUT]
            return rng.choice(pool)

        gender_a = rng.choice(["female", "male"])
        # Mostly different genders, so pronouns can be resolved; sometimes the same.
        gender_b = gender_a if rng.random() < 0.2 else ("male" if gender_a == "female" else "female")
        name_a = pick(FEMALE if gender_a == "female" else MALE)
        name_b = name_a
        while name_b == name_a:
            name_b = pick(FEMALE if gender_b == "female" else MALE)
        self.people = {"A": (name_a, gender_a), "B": (name_b, gender_b)}
        self.object = (pick(ADJECTIVES), pick(NOUNS))
        self.place = pick(PLACES)

    def form(self, entity: str, form: str) -> List[str]:
        capitalised = form[0].isupper()
        form = form.lower()
        if entity in self.people:
            name, gender = self.people[entity]
            words = [name] if form == "name" else [PRONOUNS[gender][form]]
        elif entity == "X":
            adjective, noun = self.object
            words = {"indef": ["a", adjective, noun], "def": ["the", noun], "pron": ["it"], "noun": [noun]}[form]
        elif entity == "L":
            words = ["the", self.place]
        else:  # the speakers' own words
            words = [form if form != "i" else "I"]
        if capitalised:
            words = [words[0][0].upper() + words[0][1:]] + words[1:]
        return words


def render(template: str, story: Story) -> Tuple[List[str], List[Mention]]:
    """The words of a template and its mentions."""
    tokens = template.replace("[", " [ ").replace("]", " ] ").split()
    words: List[str] = []
    mentions: List[Mention] = []
    open_mentions: List[Tuple[str, int]] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token == "[":
            label = tokens[position + 1]
            entity, _, form = label.partition(".")
            open_mentions.append((entity, len(words)))
            if form:
                words.extend(story.form(entity, form))
            position += 2
            continue
        if token == "]":
            entity, start = open_mentions.pop()
            mentions.append((entity, start, len(words) - 1))
        elif token.startswith("@"):
            entity, _, form = token[1:].partition(".")
            words.extend(story.form(entity, form))
        else:
            words.append(token)
        position += 1
    return words, mentions


def document(rng: random.Random, allow_held_out: bool, conversation: bool):
    """Sentences as `(speaker, words, mentions)`."""
    story = Story(rng, allow_held_out)
    if conversation:
        templates = [rng.choice(CONVERSATION_OPENINGS)] + rng.sample(CONVERSATION_MIDDLE, rng.randint(4, 6))
    else:
        templates = (
            [rng.choice(STORY_OPENINGS), rng.choice(STORY_OBJECTS), rng.choice(STORY_SECOND_PERSON)]
            + rng.sample(STORY_MIDDLE, rng.randint(2, 4))
            + [rng.choice(STORY_ENDINGS)]
        )
    sentences = []
    for template in templates:
        speaker = "-"
        if conversation:
            number, template = template.split(": ", 1)
            speaker = f"Speaker#{number}"
        words, mentions = render(template, story)
        sentences.append((speaker, words, mentions))
    return sentences


def conll_lines(document_id: str, sentences) -> List[str]:
    """The document in CoNLL-2012 lines; entities mentioned once are not annotated, as in OntoNotes."""
    counts: Dict[str, int] = {}
    for _, _, mentions in sentences:
        for entity, _, _ in mentions:
            counts[entity] = counts.get(entity, 0) + 1
    cluster_ids: Dict[str, int] = {}
    lines = [f"#begin document ({document_id}); part 000"]
    for speaker, words, mentions in sentences:
        for index, word in enumerate(words):
            parts = []
            for entity, first, last in mentions:
                if counts[entity] < 2 or index not in (first, last):
                    continue
                cluster = cluster_ids.setdefault(entity, len(cluster_ids))
                parts.append(f"({cluster})" if first == last else (f"({cluster}" if index == first else f"{cluster})"))
            coreference = "|".join(parts) or "-"
            lines.append(f"{document_id} 0 {index} {word} - - - - - {speaker} * {coreference}")
        lines.append("")
    lines.append("#end document")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    args.output_dir.mkdir(parents=True, exist_ok=True)
    for split, size in SPLIT_SIZES.items():
        rng = random.Random(f"{args.seed}:{split}")
        lines: List[str] = []
        tokens = 0
        for number in range(size):
            conversation = rng.random() < CONVERSATION_SHARE
            document_id = f"{'bc' if conversation else 'nw'}/sample/00/{split}_{number:03d}"
            sentences = document(rng, allow_held_out=split != "train", conversation=conversation)
            tokens += sum(len(words) for _, words, _ in sentences)
            lines.extend(conll_lines(document_id, sentences))
        (args.output_dir / f"{split}.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{split}: {size} documents, {tokens} tokens")


if __name__ == "__main__":
    main()
