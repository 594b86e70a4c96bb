"""Write the bundled SQuAD sample: invented paragraphs and questions in the SQuAD 1.1 JSON format.

SQuAD itself (CC BY-SA) is not shipped with the repository; this sample lets every SQuAD config
train offline in minutes. All text is invented: short encyclopedia-like paragraphs about made-up
towns, scientists, ships and festivals, written from templates whose slots record where each
filled-in value lies, so every `answer_start` is exact.

The format follows the official files: `{"version": "1.1", "data": [{"title", "paragraphs":
[{"context", "qas": [{"id", "question", "answers": [{"text", "answer_start"}]}]}]}]}`. Train
questions have one answer; dev questions have three, as in the official dev set, sometimes with
different boundaries (with and without a leading article or unit). A third of every name list is
kept for dev only, so dev asks about towns and people the model has not seen.

    python bundled/data/squad/make_sample.py            # writes {train,dev}.json

Output is fully determined by `--seed`.
"""

import argparse
import json
import random
import re
from pathlib import Path
from typing import Dict, List, Tuple

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
DEFAULT_SEED = 2018
ARTICLES_PER_SPLIT = {"train": 24, "dev": 8}
PARAGRAPHS_PER_ARTICLE = (2, 3)
QUESTIONS_PER_PARAGRAPH = (3, 5)
DEV_ONLY_FRACTION = 1 / 3

NAMES = {
    "town": [
        "Velmora",
        "Ostrick",
        "Branholm",
        "Quillan",
        "Tarsovo",
        "Edderby",
        "Kalvik",
        "Morrowgate",
        "Saint Ardis",
        "Lunfeld",
        "Orbeck",
        "Piransk",
        "Holloway Cross",
        "Ysmere",
        "Drummelin",
    ],
    "river": ["Velka", "Orwen", "Tamsel", "Brisk", "Aldra", "Kessen", "Mure", "Ilvar", "Sabre"],
    "province": ["Harrowmark", "Eastern Lenn", "Calder", "Vossland", "the Upper Marches", "Sorrel"],
    "first": [
        "Ada",
        "Tomas",
        "Elena",
        "Marcus",
        "Priya",
        "Jonas",
        "Lucia",
        "Ingrid",
        "Samuel",
        "Mira",
        "Felix",
        "Rosa",
        "Viktor",
        "Amara",
        "Henrik",
        "Clara",
        "Omar",
        "Sofia",
        "Pavel",
        "Nadia",
    ],
    "last": [
        "Hallbrook",
        "Marrow",
        "Quenby",
        "Fennick",
        "Calloway",
        "Drayton",
        "Oakshott",
        "Pellham",
        "Strand",
        "Varga",
        "Lindqvist",
        "Okonjo",
        "Tarrant",
        "Whitlow",
        "Serrano",
        "Kovac",
    ],
    "ship": [
        "Grey Heron",
        "Morning Lark",
        "Constance",
        "Northern Star",
        "Iron Gull",
        "Perpetua",
        "Saltmarsh",
        "Wandering Oak",
        "Tern",
        "Albatross Queen",
    ],
    "festival": [
        "Lantern Night",
        "Feast of Reeds",
        "Copper Fair",
        "Midwinter Bells",
        "Harvest Wake",
        "Festival of Kites",
        "Salt Days",
        "Blue Moon Market",
    ],
}
PRODUCTS = [
    "blue pottery",
    "smoked eel",
    "woollen blankets",
    "clockwork toys",
    "rye bread",
    "glass beads",
    "copper kettles",
    "pear brandy",
    "woven baskets",
    "salt cheese",
]
PROFESSIONS = ["merchant", "monk", "shipwright", "miller", "soldier", "stonemason", "weaver"]
FIELDS = ["chemist", "astronomer", "botanist", "physicist", "geologist", "mathematician"]
DISCOVERIES = {
    "chemist": ["a green dye that did not fade", "a way to purify salt water", "the element velmorium"],
    "astronomer": ["a comet with two tails", "the rings of a distant planet", "a double star in Orion"],
    "botanist": ["a fern that flowers at night", "a blight-resistant barley", "a new family of mosses"],
    "physicist": ["a cheaper battery", "the cause of ball lightning", "a law of cooling for metals"],
    "geologist": ["a buried salt dome", "the oldest rocks in Calder", "a hidden fault line"],
    "mathematician": ["a proof about prime gaps", "a method for ranking chess players", "a new kind of knot"],
}
INSTITUTIONS = ["University of Lenn", "Royal Academy of Harrowmark", "Calder Institute", "College of Saint Ardis"]
PRIZES = ["Orbeck Medal", "Lantern Prize", "Vossland Award", "Gold Compass"]
SHIP_KINDS = ["schooner", "steamship", "whaling ship", "three-masted barque", "paddle steamer"]
DESTINATIONS = ["the Ember Islands", "Cape Morrow", "the Glass Coast", "Port Alder", "the southern ice"]
CARGO = ["timber", "coal", "tea", "wool", "grain", "passengers and mail"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FOODS = ["honey cakes", "roasted chestnuts", "fish soup", "plum dumplings", "spiced cider"]

# Each topic: sentence templates (slots in braces) and questions about slots. A question may name
# `variants`: other gold answers for dev, each a substring of the slot's value.
TOPICS = {
    "town": {
        "title": "{town}",
        "sentences": [
            "{town} is a {size} town on the {river} river in the province of {province}.",
            "It was founded in {founded} by {founder}, a {profession} from {origin}.",
            "The town is known for its {product}, which traders sell at the market every {weekday}.",
            "About {population} people live in {town} today, and its mayor is {mayor}.",
        ],
        "questions": {
            "founded": ["When was {town} founded?", "In what year was {town} founded?"],
            "founder": ["Who founded {town}?", "Which {profession} founded {town}?"],
            "river": ["On which river does {town} lie?", "What river is {town} on?"],
            "product": ["What is {town} known for?", "What is sold at the market of {town}?"],
            "weekday": ["On which day is the market held in {town}?"],
            "population": ["How many people live in {town}?", "What is the population of {town}?"],
            "mayor": ["Who is the mayor of {town}?"],
            "origin": ["Where did the founder of {town} come from?"],
        },
    },
    "scientist": {
        "title": "{person}",
        "sentences": [
            "{person} was a {nationality} {field} born in {birthplace} in {born}.",
            "{pronoun} studied at the {institution} under {mentor}.",
            "In {discovery_year}, {pronoun_lower} discovered {discovery}, which made {possessive} name.",
            "{pronoun} received the {prize} in {prize_year} and died in {died}.",
        ],
        "questions": {
            "born": ["When was {person} born?", "In what year was {person} born?"],
            "birthplace": ["Where was {person} born?", "In which town was {person} born?"],
            "institution": ["Where did {person} study?"],
            "mentor": ["Under whom did {person} study?", "Who taught {person}?"],
            "discovery": ["What did {person} discover?"],
            "discovery_year": ["When did {person} discover {discovery}?"],
            "prize": ["Which prize did {person} receive?"],
            "died": ["When did {person} die?"],
        },
    },
    "ship": {
        "title": "{ship} (ship)",
        "sentences": [
            "The {ship} was a {kind} built in {port} in {built}.",
            "She carried {cargo} between {port} and {destination} for {years} years.",
            "Her first captain was {captain}, who later wrote a book about the voyages.",
            "The {ship} sank in a storm in {month} {sank}, and all of her crew were saved.",
        ],
        "questions": {
            "kind": ["What kind of ship was the {ship}?"],
            "port": ["Where was the {ship} built?"],
            "built": ["When was the {ship} built?", "In what year was the {ship} built?"],
            "cargo": ["What did the {ship} carry?"],
            "destination": ["Where did the {ship} sail to?"],
            "captain": ["Who was the first captain of the {ship}?"],
            "sank": ["In what year did the {ship} sink?"],
            "month": ["In which month did the {ship} sink?"],
        },
    },
    "festival": {
        "title": "{festival}",
        "sentences": [
            "The {festival} is held in {town} every year in {month}.",
            "It began in {began} as a small gathering of {guild}.",
            "Visitors eat {food} and watch a parade led by {leader}.",
            "The festival lasts {days} days and ends with {ending}.",
        ],
        "questions": {
            "town": ["Where is the {festival} held?", "In which town is the {festival} held?"],
            "month": ["In which month is the {festival} held?", "When is the {festival} held?"],
            "began": ["When did the {festival} begin?"],
            "guild": ["Who gathered at the first {festival}?"],
            "food": ["What do visitors eat at the {festival}?"],
            "leader": ["Who leads the parade at the {festival}?"],
            "days": ["How many days does the {festival} last?"],
            "ending": ["How does the {festival} end?"],
        },
    },
}
NATIONALITIES = ["Calderan", "Lennish", "Vosslandic", "Sorrelian", "Harrowmarkish"]
GUILDS = ["fishermen", "bell ringers", "potters", "river pilots", "beekeepers"]
ENDINGS = ["a bonfire on the hill", "fireworks over the harbour", "a boat race", "a long silent walk"]
SLOT = re.compile(r"\{(\w+)\}")


class Names:
    """Draws names, keeping `DEV_ONLY_FRACTION` of every list for dev."""

    def __init__(self, rng: random.Random, split: str) -> None:
        self._rng = rng
        self._pools = {}
        for kind, names in NAMES.items():
            cut = round(len(names) * DEV_ONLY_FRACTION)
            self._pools[kind] = names if split == "dev" else names[cut:]

    def __call__(self, kind: str) -> str:
        return self._rng.choice(self._pools[kind])

    def person(self) -> str:
        return f"{self('first')} {self('last')}"


def topic_values(topic: str, names: Names, rng: random.Random) -> Dict[str, str]:
    """Values for every slot of one paragraph of `topic`."""
    if topic == "town":
        return {
            "town": names("town"),
            "size": rng.choice(["small", "busy", "quiet", "walled", "old"]),
            "river": names("river"),
            "province": names("province"),
            "founded": str(rng.randint(900, 1700)),
            "founder": names.person(),
            "profession": rng.choice(PROFESSIONS),
            "origin": names("town"),
            "product": rng.choice(PRODUCTS),
            "weekday": rng.choice(WEEKDAYS),
            "population": f"{rng.randint(2, 90)},{rng.randint(0, 9)}00",
            "mayor": names.person(),
        }
    if topic == "scientist":
        field = rng.choice(FIELDS)
        born = rng.randint(1700, 1900)
        pronoun = rng.choice(["He", "She"])
        return {
            "person": names.person(),
            "nationality": rng.choice(NATIONALITIES),
            "field": field,
            "birthplace": names("town"),
            "born": str(born),
            "pronoun": pronoun,
            "pronoun_lower": pronoun.lower(),
            "possessive": "his" if pronoun == "He" else "her",
            "institution": rng.choice(INSTITUTIONS),
            "mentor": names.person(),
            "discovery_year": str(born + rng.randint(22, 40)),
            "discovery": rng.choice(DISCOVERIES[field]),
            "prize": rng.choice(PRIZES),
            "prize_year": str(born + rng.randint(41, 55)),
            "died": str(born + rng.randint(56, 90)),
        }
    if topic == "ship":
        built = rng.randint(1800, 1920)
        return {
            "ship": names("ship"),
            "kind": rng.choice(SHIP_KINDS),
            "port": names("town"),
            "built": str(built),
            "cargo": rng.choice(CARGO),
            "destination": rng.choice(DESTINATIONS),
            "years": str(rng.randint(3, 30)),
            "captain": names.person(),
            "month": rng.choice(MONTHS),
            "sank": str(built + rng.randint(31, 60)),
        }
    return {
        "festival": names("festival"),
        "town": names("town"),
        "month": rng.choice(MONTHS),
        "began": str(rng.randint(1200, 1950)),
        "guild": rng.choice(GUILDS),
        "food": rng.choice(FOODS),
        "leader": f"the mayor of {names('town')}",
        "days": str(rng.randint(2, 9)),
        "ending": rng.choice(ENDINGS),
    }


def fill(sentences: List[str], values: Dict[str, str]) -> Tuple[str, Dict[str, int]]:
    """The paragraph, and the character offset of each slot's first filled-in value."""
    text, starts = "", {}
    for sentence in sentences:
        if text:
            text += " "
        position = 0
        for match in SLOT.finditer(sentence):
            text += sentence[position : match.start()]
            starts.setdefault(match.group(1), len(text))
            text += values[match.group(1)]
            position = match.end()
        text += sentence[position:]
    return text, starts


def variants(value: str) -> List[str]:
    """Other boundaries an annotator might give: without a leading article, a unit or a qualifier."""
    shorter = []
    for prefix in ("the ", "a ", "about "):
        if value.lower().startswith(prefix):
            shorter.append(value[len(prefix) :])
    if " of " in value and value.startswith("the mayor"):
        shorter.append(value.split(" of ", 1)[1])
    return shorter


def paragraph(topic: str, names: Names, rng: random.Random, split: str, question_id: str) -> Dict:
    spec = TOPICS[topic]
    values = topic_values(topic, names, rng)
    sentences = spec["sentences"][:1] + rng.sample(spec["sentences"][1:], len(spec["sentences"]) - 1)
    context, starts = fill(sentences, values)
    asked = rng.sample(sorted(spec["questions"]), rng.randint(*QUESTIONS_PER_PARAGRAPH))
    qas = []
    for number, slot in enumerate(asked):
        question = SLOT.sub(lambda match: values[match.group(1)], rng.choice(spec["questions"][slot]))
        value, start = values[slot], starts[slot]
        answers = [{"text": value, "answer_start": start}]
        if split == "dev":
            others = [(text, start + value.index(text)) for text in variants(value)] or [(value, start)]
            for _ in range(2):
                text, other_start = rng.choice(others + [(value, start)])
                answers.append({"text": text, "answer_start": other_start})
        qas.append({"id": f"{question_id}-{number}", "question": question, "answers": answers})
    return {"context": context, "qas": qas}


def article(topic: str, names: Names, rng: random.Random, split: str, index: int) -> Dict:
    paragraphs = [
        paragraph(topic, names, rng, split, f"{split}-{index:02d}-{number}")
        for number in range(rng.randint(*PARAGRAPHS_PER_ARTICLE))
    ]
    return {"title": f"{topic.capitalize()} articles {index}", "paragraphs": paragraphs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    arguments = parser.parse_args()
    arguments.output_dir.mkdir(parents=True, exist_ok=True)
    for split, count in ARTICLES_PER_SPLIT.items():
        rng = random.Random(f"{arguments.seed}-{split}")
        names = Names(rng, split)
        topics = sorted(TOPICS)
        data = [article(topics[index % len(topics)], names, rng, split, index) for index in range(count)]
        path = arguments.output_dir / f"{split}.json"
        path.write_text(json.dumps({"version": "1.1", "data": data}, indent=1) + "\n", encoding="utf-8")
        questions = sum(len(p["qas"]) for a in data for p in a["paragraphs"])
        paragraphs = sum(len(a["paragraphs"]) for a in data)
        print(f"{path}: {len(data)} articles, {paragraphs} paragraphs, {questions} questions")


if __name__ == "__main__":
    main()
