"""Generate a small, original English SRL dataset in the Universal PropBank layout (CoNLL-U + frames).

Universal PropBank English is openly licensed, but it is real data and stays out of this
repository; OntoNotes (the paper's SRL data) is licensed by the LDC. This script writes an offline
stand-in, ``train.conllu`` / ``dev.conllu`` / ``test.conllu``, so the SRL configs run end to end
in minutes without either. The files follow the Universal PropBank layout exactly: the ten CoNLL-U
columns with a basic dependency tree, then PRED (a frame such as ``repair.01`` on each predicate,
``_`` elsewhere) and one argument column per predicate, each argument marked on its head word.

All text is invented from hand-written templates whose trees and frames exercise what the
reader's head-to-span rule (``data_readers/dependency_spans.py``) must handle:

* plain clauses with modal, negation, manner, place and time modifiers (``ARGM-*``);
* ditransitives (``ARG2`` before ``ARG1``);
* phrasal verbs whose particle is marked ``C-V``;
* control verbs, whose ``ARG1`` is a whole clause and whose subject is also the embedded verb's
  ``ARG0``, marked outside that verb's subtree;
* relative clauses: the antecedent is the embedded verb's ``ARG0`` (its subtree holds the
  predicate, which must be cut away) with ``R-ARG0`` on the relative pronoun;
* copulas, whose ``ARG2`` heads the whole clause (punctuation at its edges is trimmed);
* prenominal participles ("the newly painted fence"), whose ``ARG1`` head noun is not contiguous
  with its determiner once the participle is cut away;
* a few verbless sentences (no frame).

About a quarter of the nouns are held out of ``train`` and only appear in ``dev`` / ``test``.
Output is fully determined by ``--seed``.
"""

import argparse
import random
from pathlib import Path
from typing import Dict, List, Optional, Tuple

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
DEFAULT_SEED = 2018
SPLIT_SIZES = {"train": 240, "dev": 60, "test": 60}
HELD_OUT_FRACTION = 0.25
UNSEEN_RATE = 0.35

PEOPLE = [
    "engineer",
    "farmer",
    "teacher",
    "pilot",
    "baker",
    "student",
    "nurse",
    "painter",
    "gardener",
    "captain",
    "doctor",
    "writer",
    "tailor",
    "clerk",
    "carpenter",
    "fisher",
    "miller",
    "weaver",
    "ranger",
    "singer",
    "keeper",
    "porter",
    "cook",
    "mason",
]
NAMES = ["Maren", "Tobias", "Ilse", "Corvin", "Anouk", "Bertil", "Dagny", "Oswin", "Saskia", "Leopold", "Wenna", "Pim"]
THINGS = [
    "bridge",
    "fence",
    "letter",
    "window",
    "boat",
    "garden",
    "basket",
    "lamp",
    "bicycle",
    "report",
    "map",
    "ladder",
    "parcel",
    "kettle",
    "roof",
    "wagon",
    "clock",
    "table",
    "door",
    "bench",
    "oven",
    "cart",
    "chimney",
    "gate",
]
ADJECTIVES = ["old", "small", "red", "heavy", "new", "wooden", "quiet", "broken", "tall", "green"]
STATES = ["happy", "tired", "calm", "ready", "busy", "late", "proud", "careful"]
MANNER = ["quickly", "carefully", "slowly", "gladly", "quietly"]
MODALS = ["will", "could", "might", "should"]
TIMES = [("on", "Monday"), ("in", "the", "morning"), ("after", "lunch"), ("before", "noon"), ("during", "the", "storm")]
PLACES = [("in", "the", "village"), ("near", "the", "river"), ("at", "the", "market"), ("behind", "the", "mill")]
TRANSITIVE = [
    ("repair", "repaired"),
    ("paint", "painted"),
    ("visit", "visited"),
    ("build", "built"),
    ("clean", "cleaned"),
    ("find", "found"),
    ("sell", "sold"),
    ("carry", "carried"),
    ("open", "opened"),
    ("close", "closed"),
    ("measure", "measured"),
    ("describe", "described"),
    ("move", "moved"),
    ("check", "checked"),
]
DITRANSITIVE = [("give", "gave"), ("send", "sent"), ("offer", "offered"), ("show", "showed"), ("hand", "handed")]
PHRASAL = [
    ("pick", "picked", "up"),
    ("set", "set", "up"),
    ("turn", "turned", "off"),
    ("put", "put", "away"),
    ("fill", "filled", "up"),
]
CONTROL = [("want", "wanted"), ("try", "tried"), ("plan", "planned"), ("hope", "hoped")]
INTRANSITIVE = [("collapse", "collapsed"), ("fall", "fell"), ("break", "broke"), ("vanish", "vanished")]
PARTICIPLES = [("paint", "painted"), ("repair", "repaired"), ("build", "built"), ("clean", "cleaned")]
PARTICIPLE_ADVERBS = ["newly", "recently", "badly", "freshly"]
# Verbless sentences: words, and the index of the root, which every other word depends on.
VERBLESS = [(["What", "a", "quiet", "morning"], 3), (["Thanks", "again"], 0), (["Another", "busy", "day", "here"], 2)]

PUNCTUATION = {",", "."}


class Sentence:
    """Words with their heads (by key) and the frames marked on them, rendered as CoNLL-U + PropBank."""

    def __init__(self) -> None:
        self.words: List[Dict[str, str]] = []
        self.keys: Dict[str, int] = {}
        self.frames: List[Tuple[str, str, Dict[str, str]]] = []  # (predicate key, frame, {key: label})

    def add(
        self, form: str, lemma: str, upos: str, xpos: str, head: Optional[str], deprel: str, key: Optional[str] = None
    ) -> str:
        key = key or f"w{len(self.words)}"
        self.keys[key] = len(self.words)
        self.words.append({"form": form, "lemma": lemma, "upos": upos, "xpos": xpos, "head": head, "deprel": deprel})
        return key

    def frame(self, predicate: str, frame: str, arguments: Dict[str, str]) -> None:
        self.frames.append((predicate, frame, dict(arguments, **{predicate: "V"})))

    def conllu(self, sentence_id: str) -> str:
        order = sorted(self.frames, key=lambda frame: self.keys[frame[0]])
        predicate_of = {self.keys[key]: frame for key, frame, _ in order}
        forms = [word["form"] for word in self.words]
        no_space = [index + 1 < len(forms) and forms[index + 1] in PUNCTUATION for index in range(len(forms))]
        text = "".join(form + ("" if glued else " ") for form, glued in zip(forms, no_space)).strip()
        lines = [f"# sent_id = {sentence_id}", f"# text = {text}"]
        for index, word in enumerate(self.words):
            head = 0 if word["head"] is None else self.keys[word["head"]] + 1
            # Universal PropBank leaves one empty argument column in a sentence without frames.
            arguments = [labels.get(self._key(index), "_") for _, _, labels in order] or [""]
            columns = [
                str(index + 1),
                word["form"],
                word["lemma"],
                word["upos"],
                word["xpos"],
                "_",
                str(head),
                word["deprel"],
                "_",
                "SpaceAfter=No" if no_space[index] else "_",
                predicate_of.get(index, "_"),
                *arguments,
            ]
            lines.append("\t".join(columns))
        return "\n".join(lines) + "\n\n"

    def _key(self, index: int) -> str:
        return next(key for key, position in self.keys.items() if position == index)


class Generator:
    def __init__(
        self,
        rng: random.Random,
        people: List[str],
        things: List[str],
        unseen_people: List[str],
        unseen_things: List[str],
    ) -> None:
        self.rng = rng
        self.people, self.things = people, things
        self.unseen_people, self.unseen_things = unseen_people, unseen_things

    def pick(self, items, unseen=None):
        if unseen and self.rng.random() < UNSEEN_RATE:
            return self.rng.choice(unseen)
        return self.rng.choice(items)

    def noun_phrase(self, s: Sentence, head: str, deprel: str, people: bool, capitalise: bool = False) -> str:
        """A determiner (or a name), maybe an adjective, and a noun; returns the noun's key."""
        if people and self.rng.random() < 0.3:
            name = self.rng.choice(NAMES)
            return s.add(name, name, "PROPN", "NNP", head, deprel)
        noun = self.pick(self.people, self.unseen_people) if people else self.pick(self.things, self.unseen_things)
        key = f"n{len(s.words)}"
        determiner = "The" if capitalise else "the"
        s.add(determiner, "the", "DET", "DT", key, "det")
        if self.rng.random() < 0.35:
            adjective = self.rng.choice(ADJECTIVES)
            s.add(adjective, adjective, "ADJ", "JJ", key, "amod")
        s.add(noun, noun, "NOUN", "NN", head, deprel, key=key)
        return key

    def prepositional(self, s: Sentence, words: Tuple[str, ...], head: str) -> str:
        key = f"p{len(s.words)}"
        s.add(words[0], words[0].lower(), "ADP", "IN", key, "case")
        if len(words) == 3:
            s.add(words[1], words[1], "DET", "DT", key, "det")
        proper = words[-1][0].isupper()
        s.add(words[-1], words[-1], "PROPN" if proper else "NOUN", "NNP" if proper else "NN", head, "obl", key=key)
        return key

    # Templates: each fills a sentence and marks its frames.

    def plain_clause(self, s: Sentence) -> None:
        lemma, past = self.rng.choice(TRANSITIVE)
        arguments: Dict[str, str] = {}
        front_time = self.rng.random() < 0.25
        if front_time:
            time = self.rng.choice(TIMES)
            arguments[self.prepositional(s, (time[0].capitalize(),) + time[1:], "verb")] = "ARGM-TMP"
            s.add(",", ",", "PUNCT", ",", "verb", "punct")
        arguments[self.noun_phrase(s, "verb", "nsubj", people=True, capitalise=not front_time)] = "ARG0"
        form = past
        if self.rng.random() < 0.4:
            modal = self.rng.choice(MODALS)
            arguments[s.add(modal, modal, "AUX", "MD", "verb", "aux")] = "ARGM-MOD"
            if self.rng.random() < 0.5:
                arguments[s.add("not", "not", "PART", "RB", "verb", "advmod")] = "ARGM-NEG"
            form = lemma
        s.add(form, lemma, "VERB", "VBD" if form == past else "VB", None, "root", key="verb")
        arguments[self.noun_phrase(s, "verb", "obj", people=False)] = "ARG1"
        if self.rng.random() < 0.3:
            manner = self.rng.choice(MANNER)
            arguments[s.add(manner, manner, "ADV", "RB", "verb", "advmod")] = "ARGM-MNR"
        if self.rng.random() < 0.5:
            if self.rng.random() < 0.5 or front_time:
                arguments[self.prepositional(s, self.rng.choice(PLACES), "verb")] = "ARGM-LOC"
            else:
                arguments[self.prepositional(s, self.rng.choice(TIMES), "verb")] = "ARGM-TMP"
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("verb", f"{lemma}.01", arguments)

    def ditransitive(self, s: Sentence) -> None:
        lemma, past = self.rng.choice(DITRANSITIVE)
        arguments = {self.noun_phrase(s, "verb", "nsubj", people=True, capitalise=True): "ARG0"}
        s.add(past, lemma, "VERB", "VBD", None, "root", key="verb")
        arguments[self.noun_phrase(s, "verb", "iobj", people=True)] = "ARG2"
        arguments[self.noun_phrase(s, "verb", "obj", people=False)] = "ARG1"
        if self.rng.random() < 0.4:
            arguments[self.prepositional(s, self.rng.choice(TIMES), "verb")] = "ARGM-TMP"
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("verb", f"{lemma}.01", arguments)

    def phrasal(self, s: Sentence) -> None:
        lemma, past, particle = self.rng.choice(PHRASAL)
        arguments = {self.noun_phrase(s, "verb", "nsubj", people=True, capitalise=True): "ARG0"}
        s.add(past, lemma, "VERB", "VBD", None, "root", key="verb")
        arguments[s.add(particle, particle, "ADP", "RP", "verb", "compound:prt")] = "C-V"
        arguments[self.noun_phrase(s, "verb", "obj", people=False)] = "ARG1"
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("verb", f"{lemma}_{particle}.01", arguments)

    def control(self, s: Sentence) -> None:
        lemma, past = self.rng.choice(CONTROL)
        embedded, _ = self.rng.choice(TRANSITIVE)
        subject = self.noun_phrase(s, "verb", "nsubj", people=True, capitalise=True)
        s.add(past, lemma, "VERB", "VBD", None, "root", key="verb")
        s.add("to", "to", "PART", "TO", "inner", "mark")
        s.add(embedded, embedded, "VERB", "VB", "verb", "xcomp", key="inner")
        inner = {subject: "ARG0", self.noun_phrase(s, "inner", "obj", people=False): "ARG1"}
        if self.rng.random() < 0.4:
            inner[self.prepositional(s, self.rng.choice(TIMES), "inner")] = "ARGM-TMP"
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("verb", f"{lemma}.01", {subject: "ARG0", "inner": "ARG1"})
        s.frame("inner", f"{embedded}.01", inner)

    def relative_clause(self, s: Sentence) -> None:
        inner_lemma, inner_past = self.rng.choice(TRANSITIVE)
        lemma, past = self.rng.choice(TRANSITIVE)
        subject = self.noun_phrase(s, "verb", "nsubj", people=True, capitalise=True)
        pronoun = s.add("who", "who", "PRON", "WP", "inner", "nsubj")
        s.add(inner_past, inner_lemma, "VERB", "VBD", subject, "acl:relcl", key="inner")
        inner_object = self.noun_phrase(s, "inner", "obj", people=False)
        s.add(past, lemma, "VERB", "VBD", None, "root", key="verb")
        outer_object = self.noun_phrase(s, "verb", "obj", people=False)
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("inner", f"{inner_lemma}.01", {subject: "ARG0", pronoun: "R-ARG0", inner_object: "ARG1"})
        s.frame("verb", f"{lemma}.01", {subject: "ARG0", outer_object: "ARG1"})

    def copula(self, s: Sentence) -> None:
        arguments: Dict[str, str] = {}
        front_time = self.rng.random() < 0.5
        if front_time:
            time = self.rng.choice(TIMES)
            arguments[self.prepositional(s, (time[0].capitalize(),) + time[1:], "state")] = "ARGM-TMP"
            s.add(",", ",", "PUNCT", ",", "state", "punct")
        arguments[self.noun_phrase(s, "state", "nsubj", people=True, capitalise=not front_time)] = "ARG1"
        s.add("was", "be", "AUX", "VBD", "state", "cop", key="copula")
        state = self.rng.choice(STATES)
        arguments[s.add(state, state, "ADJ", "JJ", None, "root", key="state")] = "ARG2"
        s.add(".", ".", "PUNCT", ".", "state", "punct")
        s.frame("copula", "be.01", arguments)

    def participle(self, s: Sentence) -> None:
        lemma, participle = self.rng.choice(PARTICIPLES)
        outer, outer_past = self.rng.choice(INTRANSITIVE)
        noun = self.pick(self.things, self.unseen_things)
        s.add("The", "the", "DET", "DT", "noun", "det")
        adverb_form = self.rng.choice(PARTICIPLE_ADVERBS)
        adverb = s.add(adverb_form, adverb_form, "ADV", "RB", "participle", "advmod")
        s.add(participle, lemma, "VERB", "VBN", "noun", "amod", key="participle")
        s.add(noun, noun, "NOUN", "NN", "verb", "nsubj", key="noun")
        s.add(outer_past, outer, "VERB", "VBD", None, "root", key="verb")
        arguments = {"noun": "ARG1"}
        if self.rng.random() < 0.5:
            arguments[self.prepositional(s, self.rng.choice(TIMES), "verb")] = "ARGM-TMP"
        s.add(".", ".", "PUNCT", ".", "verb", "punct")
        s.frame("participle", f"{lemma}.01", {"noun": "ARG1", adverb: "ARGM-TMP"})
        s.frame("verb", f"{outer}.01", arguments)

    def verbless(self, s: Sentence) -> None:
        words, root = self.rng.choice(VERBLESS)
        for index, word in enumerate(words):
            if index == root:
                s.add(word, word.lower(), "NOUN", "NN", None, "root", key="root")
            else:
                s.add(word, word.lower(), "X", "XX", "root", "dep")
        s.add(".", ".", "PUNCT", ".", "root", "punct")


TEMPLATE_WEIGHTS = [
    ("plain_clause", 30),
    ("ditransitive", 10),
    ("phrasal", 10),
    ("control", 12),
    ("relative_clause", 12),
    ("copula", 12),
    ("participle", 10),
    ("verbless", 4),
]


def generate(seed: int) -> Dict[str, str]:
    rng = random.Random(seed)
    people, things = PEOPLE[:], THINGS[:]
    rng.shuffle(people)
    rng.shuffle(things)
    held_people = people[: int(len(people) * HELD_OUT_FRACTION)]
    held_things = things[: int(len(things) * HELD_OUT_FRACTION)]
    seen_people, seen_things = people[len(held_people) :], things[len(held_things) :]
    names, weights = zip(*TEMPLATE_WEIGHTS)
    splits = {}
    for split, size in SPLIT_SIZES.items():
        unseen = split != "train"
        generator = Generator(
            rng, seen_people, seen_things, held_people if unseen else [], held_things if unseen else []
        )
        text = []
        for number in range(size):
            sentence = Sentence()
            getattr(generator, rng.choices(names, weights)[0])(sentence)
            text.append(sentence.conllu(f"sample-{split}-{number + 1:04d}"))
        splits[split] = "".join(text)
    return splits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    arguments = parser.parse_args()
    arguments.output_dir.mkdir(parents=True, exist_ok=True)
    for split, text in generate(arguments.seed).items():
        path = arguments.output_dir / f"{split}.conllu"
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {text.count('# sent_id')} sentences")


if __name__ == "__main__":
    main()
