"""
Tiny SRL fixtures written for the tests: the same invented sentences and frames in both formats.

Each frame is given twice, by hand: as Universal PropBank marks it (a label on each argument's
head word) and as the spans we expect (what CoNLL-2012 brackets). The CoNLL-U file is written from
the heads, the CoNLL-2012 file from the spans, so reading the first must give the second: the
head-to-span rule checked on hand-built trees, and the two readers checked against each other.
"""

from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple


class Frame(NamedTuple):
    predicate: int  # word number, 1-based as in the files
    sense: str
    heads: Dict[int, str]  # word number -> label, as Universal PropBank marks the arguments
    spans: List[Tuple[int, int, str]]  # (first, last, label), word numbers, as CoNLL-2012 brackets them


class Sentence(NamedTuple):
    words: List[Tuple[str, str, int, str]]  # (form, UPOS, head word number or 0, relation)
    frames: List[Frame]


SENTENCES = [
    # A plain clause: each argument is its head's whole subtree.
    Sentence(
        [
            ("Ada", "PROPN", 2, "nsubj"),
            ("repaired", "VERB", 0, "root"),
            ("the", "DET", 5, "det"),
            ("old", "ADJ", 5, "amod"),
            ("bridge", "NOUN", 2, "obj"),
            ("on", "ADP", 7, "case"),
            ("Monday", "PROPN", 2, "obl"),
            (".", "PUNCT", 2, "punct"),
        ],
        [
            Frame(
                2,
                "repair.01",
                {1: "ARG0", 2: "V", 5: "ARG1", 7: "ARGM-TMP"},
                [(1, 1, "ARG0"), (2, 2, "V"), (3, 5, "ARG1"), (6, 7, "ARGM-TMP")],
            )
        ],
    ),
    # A relative clause: for "built", the antecedent's subtree holds the predicate, cut away.
    Sentence(
        [
            ("The", "DET", 2, "det"),
            ("pilot", "NOUN", 7, "nsubj"),
            ("who", "PRON", 4, "nsubj"),
            ("built", "VERB", 2, "acl:relcl"),
            ("the", "DET", 6, "det"),
            ("boat", "NOUN", 4, "obj"),
            ("sold", "VERB", 0, "root"),
            ("it", "PRON", 7, "obj"),
            (".", "PUNCT", 7, "punct"),
        ],
        [
            Frame(
                4,
                "build.01",
                {2: "ARG0", 3: "R-ARG0", 4: "V", 6: "ARG1"},
                [(1, 2, "ARG0"), (3, 3, "R-ARG0"), (4, 4, "V"), (5, 6, "ARG1")],
            ),
            Frame(7, "sell.01", {2: "ARG0", 7: "V", 8: "ARG1"}, [(1, 6, "ARG0"), (7, 7, "V"), (8, 8, "ARG1")]),
        ],
    ),
    # A copula: ARG2 heads the clause; what is left of its subtree is edge punctuation, trimmed.
    Sentence(
        [
            ("Later", "ADV", 6, "advmod"),
            (",", "PUNCT", 6, "punct"),
            ("the", "DET", 4, "det"),
            ("nurse", "NOUN", 6, "nsubj"),
            ("was", "AUX", 6, "cop"),
            ("calm", "ADJ", 0, "root"),
            (".", "PUNCT", 6, "punct"),
        ],
        [
            Frame(
                5,
                "be.01",
                {1: "ARGM-TMP", 4: "ARG1", 5: "V", 6: "ARG2"},
                [(1, 1, "ARGM-TMP"), (3, 4, "ARG1"), (5, 5, "V"), (6, 6, "ARG2")],
            )
        ],
    ),
    # A phrasal verb: the particle is a one-word C-V.
    Sentence(
        [
            ("Ben", "PROPN", 2, "nsubj"),
            ("picked", "VERB", 0, "root"),
            ("up", "ADP", 2, "compound:prt"),
            ("the", "DET", 5, "det"),
            ("parcel", "NOUN", 2, "obj"),
            (".", "PUNCT", 2, "punct"),
        ],
        [
            Frame(
                2,
                "pick_up.01",
                {1: "ARG0", 2: "V", 3: "C-V", 5: "ARG1"},
                [(1, 1, "ARG0"), (2, 2, "V"), (3, 3, "C-V"), (4, 5, "ARG1")],
            )
        ],
    ),
    # A prenominal participle: cut away, it leaves "The" apart from "fence"; the run around the head wins.
    Sentence(
        [
            ("The", "DET", 4, "det"),
            ("newly", "ADV", 3, "advmod"),
            ("painted", "VERB", 4, "amod"),
            ("fence", "NOUN", 5, "nsubj"),
            ("fell", "VERB", 0, "root"),
            (".", "PUNCT", 5, "punct"),
        ],
        [
            Frame(3, "paint.01", {2: "ARGM-TMP", 3: "V", 4: "ARG1"}, [(2, 2, "ARGM-TMP"), (3, 3, "V"), (4, 4, "ARG1")]),
            Frame(5, "fall.01", {4: "ARG1", 5: "V"}, [(1, 4, "ARG1"), (5, 5, "V")]),
        ],
    ),
    # No predicate.
    Sentence(
        [("What", "PRON", 3, "det"), ("a", "DET", 3, "det"), ("day", "NOUN", 0, "root"), ("!", "PUNCT", 3, "punct")], []
    ),
]

# Left unannotated by Universal PropBank (the reader skips it), and an empty node (skipped too).
UNANNOTATED = (
    "# propbank = no-up\n# text = Great shop\n"
    "1\tGreat\tgreat\tADJ\t_\t_\t2\tamod\t_\t_=\t\t\n"
    "2\tshop\tshop\tNOUN\t_\t_\t0\troot\t_\t_=\t\t\n\n"
)
EMPTY_NODE = "1.1\thas\thave\tVERB\t_\t_\t_\t_\t0:root\tCopyOf=-1\t\t\n"


def expected_frames() -> List[Tuple[List[str], int, List[str]]]:
    """`(words, predicate index, BIO tags)` of every frame, in reading order."""
    frames = []
    for sentence in SENTENCES:
        words = [form for form, _, _, _ in sentence.words]
        for frame in sentence.frames:
            tags = ["O"] * len(words)
            for first, last, label in frame.spans:
                tags[first - 1] = "B-" + label
                for position in range(first, last):
                    tags[position] = "I-" + label
            frames.append((words, frame.predicate - 1, tags))
    return frames


def conllu_text() -> str:
    """The sentences in the Universal PropBank layout (CoNLL-U, PRED, one column per predicate)."""
    blocks = []
    for number, sentence in enumerate(SENTENCES, start=1):
        lines = [f"# sent_id = fixture-{number}"]
        predicates = {frame.predicate: frame.sense for frame in sentence.frames}
        for word, (form, upos, head, relation) in enumerate(sentence.words, start=1):
            arguments = [frame.heads.get(word, "_") for frame in sentence.frames] or [""]
            lines.append(
                "\t".join(
                    [
                        str(word),
                        form,
                        form.lower(),
                        upos,
                        "_",
                        "_",
                        str(head),
                        relation,
                        "_",
                        "_",
                        predicates.get(word, "_"),
                        *arguments,
                    ]
                )
            )
            if number == 1 and word == 1:
                lines.append(EMPTY_NODE.rstrip("\n"))
        blocks.append("\n".join(lines) + "\n\n")
    blocks.insert(2, UNANNOTATED)
    return "".join(blocks)


def conll2012_text() -> str:
    """The sentences in the CoNLL-2012 layout, their frames bracketed from the expected spans."""
    lines = ["#begin document (fixture/srl); part 000"]
    for sentence in SENTENCES:
        length = len(sentence.words)
        predicates = {frame.predicate: frame.sense.split(".") for frame in sentence.frames}
        for word, (form, _, _, _) in enumerate(sentence.words, start=1):
            parse = ("(TOP*" if word == 1 else "*") + (")" if word == length else "")
            lemma, frameset = predicates.get(word, ("-", "-"))
            cells = [_bracket(frame.spans, word) for frame in sentence.frames] or ["*"]
            lines.append(
                " ".join(
                    ["fixture/srl", "0", str(word - 1), form, "NN", parse, lemma, frameset, "-", "-", "*", *cells, "-"]
                )
            )
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def _bracket(spans: List[Tuple[int, int, str]], word: int) -> str:
    cell = "*"
    for first, last, label in spans:
        if word == first:
            cell = f"({label}" + cell
        if word == last:
            cell += ")"
    return cell


def write_fixtures(directory: Path) -> Tuple[Path, Path]:
    """Writes `fixture.conllu` and `fixture.gold_conll` into `directory` and returns their paths."""
    conllu, conll2012 = directory / "fixture.conllu", directory / "fixture.gold_conll"
    conllu.write_text(conllu_text(), encoding="utf-8")
    conll2012.write_text(conll2012_text(), encoding="utf-8")
    return conllu, conll2012


# Two sentences of Universal PropBank for the probes: one annotated, one left out (no-up) with a
# multiword token and an empty node, which the CoNLL-U words reader skips.
UP_FILE = """# sent_id = one
# text = Kim ran the shop.
1\tKim\tKim\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\t_\tARG0
2\tran\trun\tVERB\tVBD\t_\t0\troot\t_\t_\trun.02\tV
3\tthe\tthe\tDET\tDT\t_\t4\tdet\t_\t_\t_\t_
4\tshop\tshop\tNOUN\tNN\t_\t2\tobj\t_\tSpaceAfter=No\t_\tARG1
5\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\t_\t_

# sent_id = two
# propbank = no-up
1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\t_
1\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\t_
2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\t_
3\trun\trun\tVERB\tVB\t_\t0\troot\t_\t_\trun.01
3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t_\t_\t_

"""


def frames_of(instances):
    """`(words, predicate index, BIO tags)` of each instance, to compare with `expected_frames`."""
    return [
        (instance["metadata"]["words"], instance["metadata"]["verb_index"], instance["tags"].labels)
        for instance in instances
    ]
