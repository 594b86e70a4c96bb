"""Generate a small, original English named-entity dataset in CoNLL-2003 format.

The real CoNLL-2003 corpus is licensed (it is derived from Reuters newswire) and
cannot be shipped with this repository.  This script writes an offline stand-in,
``train.txt`` / ``dev.txt`` / ``test.txt``, so the NER configuration can be run
end to end in minutes without it.  The files follow the CoNLL-2003 layout
exactly: ``-DOCSTART-`` document separators, one ``word POS chunk NER`` line per
token, blank lines between sentences, and IOB1 tags for both chunks and
entities (``B-`` only where a span directly follows another span of the same
type).

All text is invented: newswire-like sentences are produced from hand-written
templates, whose tokens carry Penn Treebank POS tags and chunk labels, filled
with names from made-up gazetteers.  To keep the task learnable but not
trivial:

* some words change type with context (companies named after people, cities
  that are also sports clubs, nationality words inside party names);
* about a quarter of every gazetteer is held out of ``train`` and only appears
  in ``dev`` / ``test``, mixed with names that were seen in training;
* several templates place two entities of the same type side by side, so the
  IOB1 ``B-`` tag is exercised.

Output is fully determined by ``--seed``.
"""

import argparse
import itertools
import random
from collections import Counter
from pathlib import Path

DEFAULT_OUTPUT_DIR = Path(__file__).resolve().parent  # the sample lives beside its writer
DEFAULT_SEED = 1234
SPLIT_SIZES = {"train": 400, "dev": 100, "test": 100}
DOC_LENGTH = (8, 15)
HELD_OUT_FRACTION = 0.25
UNSEEN_RATE = 0.35  # chance that a dev/test name is drawn from the held-out part
DOCSTART = "-DOCSTART- -X- -X- O"

# ---------------------------------------------------------------------------
# Gazetteers.  Entries are space-separated tokens; a token may carry its own POS
# tag as ``word/TAG``, otherwise the slot's default tag (usually NNP) is used.
# ---------------------------------------------------------------------------

FIRST_NAMES = [
    "Anna",
    "Tomas",
    "Elena",
    "Marcus",
    "Priya",
    "Jonas",
    "Lucia",
    "Daniel",
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
    "Lukas",
    "Helen",
    "Ravi",
    "Greta",
    "Oscar",
    "Yusuf",
    "Carmen",
    "Emil",
    "Leona",
]

# Surnames; several also name companies or a city (see COMPANIES, CITIES).
SURNAMES = [
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
    "Haldane",
    "Ibsworth",
    "Ferreira",
    "Nakamura",
    "Osei",
    "Brannigan",
    "Rourke",
    "Voss",
    "Castellan",
    "Marchetti",
    "Yilmaz",
    "Dahl",
    "Abernethy",
    "Thistlewood",
    "Prentice",
    "Moreau",
    "Okafor",
    "Hensley",
    "Kelton",
    "Ashdown",
]

CITIES = [
    "Selwick",
    "Dunmarsh",
    "Port Aldous",
    "Elsford",
    "Mirehaven",
    "Tollbridge",
    "Ashcombe",
    "Vennick",
    "Brackwater",
    "Kelton",
    "Saint Orrin",
    "New Hallam",
    "Ravensholt",
    "Lindquay",
    "Thornvale",
    "Wexley",
    "Fennmoor",
    "Castelbruno",
    "Oskarsby",
    "Gallowmere",
    "Amberlee",
    "Korvath",
    "Sundhaven",
    "Port Emberly",
]

# (country, nationality adjective, plural demonym); the adjective doubles as
# the name of the country's language.
COUNTRIES = [
    ("Veltria", "Veltrian", "Veltrians"),
    ("Ostmark", "Ostmarkian", "Ostmarkians"),
    ("Carandor", "Carandorian", "Carandorians"),
    ("Lusmere", "Lusmerian", "Lusmerians"),
    ("Tavaria", "Tavarian", "Tavarians"),
    ("Norvania", "Norvanian", "Norvanians"),
    ("Kestria", "Kestrian", "Kestrians"),
    ("Belmora", "Belmoran", "Belmorans"),
    ("Drevna", "Drevnan", "Drevnans"),
    ("Marrenland", "Marrenlandic", "Marrenlanders"),
    ("Quessa", "Quessan", "Quessans"),
    ("Ardania", "Ardanian", "Ardanians"),
    ("Pellonia", "Pellonian", "Pellonians"),
    ("Zarvia", "Zarvian", "Zarvians"),
    ("Estrova", "Estrovan", "Estrovans"),
    ("Saint Corra", "Corran", "Corrans"),
    ("Western Dalmoria", "Dalmorian", "Dalmorians"),
]

# Companies; the bare surnames at the end are firms named after their founders.
COMPANIES = [
    "Hallbrook Holdings",
    "Quenby Motors",
    "Ardent Systems/NNPS",
    "Larkspur Capital",
    "Fennick &/CC Sons/NNPS",
    "Tollbridge Bank",
    "Calloway Energy Group",
    "Northstar Shipping Lines/NNPS",
    "Bank of/IN New Hallam",
    "Vennick Mutual Insurance Company",
    "Brightwater Foods/NNPS",
    "Orion Telecom",
    "Meridian Airways/NNPS",
    "Copperleaf",
    "Halcyon Pharma",
    "Stonegate Mining",
    "Bluecrest Media",
    "Kestrel Aerospace",
    "Granite Peak Resources/NNPS",
    "Silvermoor Brewing",
    "Marrow",
    "Oakshott",
    "Drayton",
    "Pellham",
    "Whitlow",
]

INSTITUTIONS = [
    "National Assembly",
    "Supreme Court",
    "Harbour Authority",
    "Progressive Union",
    "Liberty Alliance",
    "National Statistics Office",
    "University of/IN Selwick",
    "Federation of/IN Rail Workers/NNPS",
    "Veltrian Democratic Party",
    "Coastal Guard Service",
    "Ostmark Central Bank",
    "Northern Trade Council",
    "Red Heron Society",
    "Institute for/IN Ocean Studies/NNPS",
]

CLUB_SUFFIXES = ["United", "Rovers/NNPS", "Athletic", "City", "Wanderers/NNPS"]

# Team competitions, individual sporting events and cultural events (all MISC).
CUPS = [
    "Northern Cup",
    "Tri-Nations Trophy",
    "Continental Champions League",
    "Coastal League",
    "Founders Shield",
    "Harbour Cup",
]
RACES = [
    "Grand Coastal Cycling Tour",
    "Ostmark Open",
    "Autumn Marathon",
    "Veltrian Grand Prix",
    "Harbour Regatta",
    "Winter Classic",
    "Silver Oar Challenge",
]
FESTIVALS = [
    "Golden Lantern Awards/NNPS",
    "Lakeside Jazz Festival",
    "Midsummer Fair",
    "Spring Book Fair",
    "Founders Day",
    "Continental Games/NNPS",
    "Harvest Lights Festival",
]

GAZETTEERS = {
    "first": FIRST_NAMES,
    "last": SURNAMES,
    "city": CITIES,
    "country": COUNTRIES,
    "company": COMPANIES,
    "institution": INSTITUTIONS,
    "cup": CUPS,
    "race": RACES,
    "festival": FESTIVALS,
}

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
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
TENNIS_SETS = ["6-4", "7-5", "6-3", "7-6", "6-2", "6-1", "4-6", "3-6"]

# ---------------------------------------------------------------------------
# Templates.  ``[XX ... ]`` is a chunk of type XX, tokens outside brackets get
# chunk tag O; ``word/TAG`` is a literal token; ``{SLOT}`` is filled by
# ``SplitGenerator.fill`` and ``{SLOT^}`` is the same, upper-cased.
# ---------------------------------------------------------------------------

DATELINE = "[NP {CITY^} {DATE} ]"

TOPICS = {
    "business": {
        "headlines": [
            "[NP {ORG} ] [VP to/TO cut/VB ] [NP {NUM} jobs/NNS ] [PP in/IN ] [NP {COUNTRY} ]",
            "[NP {ORG} shares/NNS ] [VP rise/VBP ] [PP on/IN ] [NP takeover/NN talk/NN ] ./.",
        ],
        "body": [
            "[NP {ORG} ] [VP said/VBD ] [PP on/IN ] [NP {DAY} ] [NP it/PRP ] [VP would/MD cut/VB ] "
            "[NP {BIGNUM} jobs/NNS ] [PP at/IN ] [NP its/PRP$ plant/NN ] [PP in/IN ] [NP {CITY} ] ./.",
            "[NP Shares/NNS ] [PP in/IN ] [NP {ORG} ] [VP rose/VBD ] [NP {PCT} percent/NN ] [PP to/TO ] "
            "[NP {PRICE} ] [PP in/IN ] [NP early/JJ trading/NN ] ./.",
            "[NP {ORG} ] [VP agreed/VBD to/TO buy/VB ] [NP {NAT} rival/NN {ORG} ] [PP for/IN ] "
            "[NP {AMOUNT} dollars/NNS ] ,/, [NP the/DT companies/NNS ] [VP said/VBD ] ./.",
            '"/" [NP We/PRP ] [VP expect/VBP ] [NP demand/NN ] [VP to/TO recover/VB ] [PP by/IN ] '
            '[NP the/DT end/NN ] [PP of/IN ] [NP the/DT year/NN ] ,/, "/" [VP said/VBD ] [NP {PER} ] '
            ",/, [NP chief/JJ executive/NN ] [PP of/IN ] [NP {ORG} ] ./.",
            "[NP {ORG} 's/POS ] [NP net/JJ profit/NN ] [VP fell/VBD ] [PP to/TO ] [NP {AMOUNT} dollars/NNS ] "
            "[PP in/IN ] [NP the/DT first/JJ half/NN ] [PP from/IN ] [NP {AMOUNT} ] [NP a/DT year/NN ] "
            "[ADVP earlier/RBR ] ./.",
            "[NP Analysts/NNS ] [PP at/IN ] [NP {ORG} ] [PP in/IN ] [NP {CITY} ] [VP said/VBD ] "
            "[NP the/DT {COUNTRY} market/NN ] [VP remained/VBD ] [ADJP weak/JJ ] ./.",
            "[NP {ORG} ] ,/, [VP based/VBN ] [PP in/IN ] [NP {CITY} ] ,/, [VP employs/VBZ ] "
            "[NP about/RB {BIGNUM} people/NNS ] [PP in/IN ] [NP {COUNTRY} ] and/CC [NP {COUNTRY} ] ./.",
            "[NP The/DT proposed/VBN {ORG} {ORG} merger/NN ] [VP was/VBD approved/VBN ] [PP by/IN ] "
            "[NP regulators/NNS ] [PP in/IN ] [NP {CITY} ] [PP on/IN ] [NP {DAY} ] ./.",
            "[NP {PER} ] ,/, [NP a/DT spokeswoman/NN ] [PP for/IN ] [NP {ORG} ] "
            ",/, [VP declined/VBD to/TO comment/VB ] [PP on/IN ] [NP the/DT report/NN ] ./.",
            "[NP The/DT {NAT} currency/NN ] [VP closed/VBD ] [PP at/IN ] [NP {PRICE} ] [PP against/IN ] "
            "[NP the/DT dollar/NN ] [PP in/IN ] [NP {CITY} ] ./.",
            "[NP {PERL} ] [VP told/VBD ] [NP reporters/NNS ] [NP the/DT deal/NN ] [VP would/MD be/VB completed/VBN ] "
            "[PP by/IN ] [NP {MONTH} ] ./.",
            "[NP {ORG} ] [VP plans/VBZ to/TO open/VB ] [NP {NUM} new/JJ stores/NNS ] [PP in/IN ] [NP {COUNTRY} ] "
            "[NP next/JJ year/NN ] ,/, [NP {PERL} ] [VP said/VBD ] ./.",
        ],
    },
    "politics": {
        "headlines": [
            "[NP {COUNTRY} ] [VP rejects/VBZ ] [NP {NAT} call/NN ] [PP for/IN ] [NP talks/NNS ] ./.",
            "[NP {PERL} ] [VP wins/VBZ ] [NP vote/NN ] [PP in/IN ] [NP {COUNTRY} ]",
        ],
        "body": [
            "[NP {COUNTRY} ] [VP will/MD hold/VB ] [NP talks/NNS ] [PP with/IN ] [NP {COUNTRY} ] [PP on/IN ] "
            "[NP {DAY} ] [PP in/IN ] [NP {CITY} ] ,/, [NP the/DT foreign/JJ ministry/NN ] [VP said/VBD ] ./.",
            "[NP {NAT} President/NNP {PER} ] [VP arrived/VBD ] [PP in/IN ] [NP {CITY} ] [PP for/IN ] "
            "[NP a/DT two-day/JJ visit/NN ] ./.",
            "[NP Troops/NNS ] [VP were/VBD deployed/VBN ] [PP along/IN ] [NP the/DT {COUNTRY} {COUNTRY} border/NN ] "
            "[PP after/IN ] [NP clashes/NNS ] [PP near/IN ] [NP {CITY} ] ./.",
            "[NP The/DT {INST} ] [VP voted/VBD ] [NP {NUM} ] [PP to/TO ] [NP {NUM} ] [VP to/TO approve/VB ] "
            "[NP the/DT budget/NN ] ./.",
            "[NP {PER} ] [PP of/IN ] [NP the/DT {INST} ] [VP called/VBD ] [PP for/IN ] [NP early/JJ elections/NNS ] "
            "./.",
            "[NP {NATS} ] [VP will/MD vote/VB ] [PP in/IN ] [NP a/DT referendum/NN ] [PP on/IN ] "
            "[NP a/DT new/JJ constitution/NN ] [PP on/IN ] [NP {DAY} ] ./.",
            "[NP Leaders/NNS ] [PP of/IN ] [NP the/DT {NAT} {NAT} community/NN ] [VP met/VBD ] [NP {PER} ] "
            "[PP in/IN ] [NP {CITY} ] ./.",
            "[NP {PER} ] ,/, [NP who/WP ] [VP has/VBZ led/VBN ] [NP the/DT {INST} ] [PP since/IN ] [NP {YEAR} ] "
            ",/, [VP announced/VBD ] [NP plans/NNS ] [VP to/TO retire/VB ] [PP at/IN ] [NP the/DT end/NN ] "
            "[PP of/IN ] [NP the/DT year/NN ] ./.",
            "[NP Police/NNS ] [PP in/IN ] [NP {CITY} ] [VP arrested/VBD ] [NP {NUM} people/NNS ] [PP after/IN ] "
            "[NP a/DT protest/NN ] [PP outside/IN ] [NP the/DT {NAT} embassy/NN ] ./.",
            "[NP The/DT {INST} ] [VP said/VBD ] [NP {NUM} people/NNS ] [VP were/VBD killed/VBN ] [PP in/IN ] "
            "[NP floods/NNS ] [PP in/IN ] [NP northern/JJ {COUNTRY} ] ./.",
            "[NP {PERL} ] [VP is/VBZ expected/VBN to/TO visit/VB ] [NP {CITY} ] ,/, [NP {CITY} ] and/CC [NP {CITY} ] "
            "[PP before/IN ] [VP returning/VBG ] [PP to/TO ] [NP {COUNTRY} ] ./.",
            "[NP The/DT agreement/NN ] [VP was/VBD signed/VBN ] [PP in/IN ] [NP {LANG} ] and/CC [NP {LANG} ] "
            "[PP at/IN ] [NP a/DT ceremony/NN ] [PP in/IN ] [NP {CITY} ] ./.",
        ],
    },
    "sport": {
        "headlines": [
            "[NP SOCCER/NN ] -/: [NP {CLUB^} ] [VP HOLD/VBP ] [NP {CLUB^} ] [PP TO/TO ] [NP DRAW/NN ] ./.",
            "[NP TENNIS/NN ] -/: [NP {PERL^} ] [VP REACHES/VBZ ] [NP {RACE^} FINAL/NN ] ./.",
        ],
        "body": [
            "[NP {CLUB} ] [VP beat/VBD ] [NP {CLUB} ] [NP {SCORE} ] [PP in/IN ] [NP the/DT {CUP} ] [PP on/IN ] "
            "[NP {DAY} ] ./.",
            "[NP {PER} ] [VP scored/VBD ] [NP {GOALS} goals/NNS ] [PP for/IN ] [NP {CLUB} ] [PP against/IN ] "
            "[NP {CLUB} ] ./.",
            "[NP {CLUB} {GOALS} ] [NP {CLUB} {GOALS} ]",
            "[NP {PER} ] (/( [NP {COUNTRY} ] )/) [VP beat/VBD ] [NP {PER} ] (/( [NP {COUNTRY} ] )/) [NP {SET} {SET} ]",
            "[NP {NAT} striker/NN {PER} ] [VP has/VBZ joined/VBN ] [NP {CLUB} ] [PP on/IN ] "
            "[NP a/DT three-year/JJ contract/NN ] ./.",
            "[NP {PERL} ] [VP finished/VBD ] [ADVP third/RB ] [PP in/IN ] [NP the/DT {RACE} ] [PP behind/IN ] "
            "[NP {PER} ] [PP of/IN ] [NP {COUNTRY} ] ./.",
            "[NP {CLUB} ] [VP lead/VBP ] [NP the/DT table/NN ] [PP with/IN ] [NP {NUM} points/NNS ] [PP after/IN ] "
            "[NP {DAY} 's/POS ] [NP games/NNS ] ,/, [NP two/CD ] [PP ahead/RB of/IN ] [NP {CLUB} ] ./.",
            '"/" [NP It/PRP ] [VP was/VBD ] [NP a/DT hard/JJ game/NN ] [PP for/IN ] [NP us/PRP ] '
            ',/, "/" [NP {CLUB} coach/NN {PER} ] [VP said/VBD ] ./.',
            "[NP The/DT {CUP} final/NN ] [VP will/MD be/VB played/VBN ] [PP in/IN ] [NP {CITY} ] [PP in/IN ] "
            "[NP {MONTH} {YEAR} ] ./.",
            "[NP {PER} ] [VP won/VBD ] [NP the/DT {RACE} ] [PP in/IN ] [NP a/DT time/NN ] [PP of/IN ] [NP {TIME} ] ./.",
            "[NP {PER} ] [VP will/MD represent/VB ] [NP {COUNTRY} ] [PP at/IN ] [NP the/DT {RACE} ] [PP in/IN ] "
            "[NP {MONTH} ] ./.",
        ],
    },
    "general": {
        "headlines": [
            "[NP Fire/NN ] [VP hits/VBZ ] [NP {CITY} warehouse/NN ]",
            "[NP {FEST} ] [VP draws/VBZ ] [NP record/NN crowd/NN ] ./.",
        ],
        "body": [
            "[NP A/DT fire/NN ] [VP destroyed/VBD ] [NP a/DT warehouse/NN ] [PP in/IN ] [NP {CITY} ] [PP on/IN ] "
            "[NP {DAY} ] ,/, [NP local/JJ police/NNS ] [VP said/VBD ] ./.",
            "[NP The/DT {FEST} ] [VP attracted/VBD ] [NP about/RB {BIGNUM} visitors/NNS ] [NP this/DT year/NN ] "
            ",/, [NP organisers/NNS ] [VP said/VBD ] ./.",
            "[NP {PER} ] ,/, [NP a/DT professor/NN ] [PP at/IN ] [NP the/DT {INST} ] ,/, [VP said/VBD ] "
            "[NP the/DT findings/NNS ] [VP were/VBD ] [ADJP surprising/JJ ] ./.",
            "[NP The/DT novel/NN ] ,/, [VP written/VBN ] [PP in/IN ] [NP {LANG} ] "
            ",/, [VP has/VBZ been/VBN translated/VBN ] [PP into/IN ] [NP {NUM} languages/NNS ] ./.",
            "[NP A/DT new/JJ {LANG} {LANG} dictionary/NN ] [VP was/VBD published/VBN ] [PP in/IN ] [NP {CITY} ] "
            "[PP on/IN ] [NP {DAY} ] ./.",
            "[NP Rescuers/NNS ] [VP said/VBD ] [NP {NUM} {NATS} ] [VP were/VBD ] [PP among/IN ] "
            "[NP the/DT passengers/NNS ] [PP on/IN ] [NP the/DT ferry/NN ] [PP from/IN ] [NP {CITY} ] ./.",
            "[NP Temperatures/NNS ] [PP in/IN ] [NP {CITY} ] [VP reached/VBD ] [NP {NUM} degrees/NNS ] [PP on/IN ] "
            "[NP {DAY} ] ,/, [NP the/DT highest/JJS ] [PP since/IN ] [NP {YEAR} ] ./.",
            "[NP {ORG} ] [VP sponsors/VBZ ] [NP the/DT {FEST} ] ,/, [NP which/WDT ] [VP opens/VBZ ] [PP in/IN ] "
            "[NP {CITY} ] [PP on/IN ] [NP {DAY} ] ./.",
            "[NP {PER} ] [VP founded/VBD ] [NP {ORG} ] [PP in/IN ] [NP {YEAR} ] and/CC [VP still/RB runs/VBZ ] "
            "[NP it/PRP ] [PP from/IN ] [NP {CITY} ] ./.",
        ],
    },
}


def parse_template(template):
    """Split a template into (chunk type or None, items) segments.

    Each item is either a slot name (str) or a literal (word, POS) pair.
    """
    segments, current = [], None
    for piece in template.split():
        if piece.startswith("["):
            current = (piece[1:], [])
        elif piece == "]":
            segments.append(current)
            current = None
        else:
            item = piece[1:-1] if piece.startswith("{") else tuple(piece.rsplit("/", 1))
            if current is None:
                segments.append((None, [item]))
            else:
                current[1].append(item)
    return segments


def entry_tokens(entry, default_pos):
    """Turn a gazetteer entry into (word, POS) pairs, honouring ``word/TAG``."""
    pairs = []
    for piece in entry.split():
        word, _, pos = piece.partition("/")
        pairs.append((word, pos or default_pos))
    return pairs


def iob1(spans):
    """Convert per-token ``(label, span_id)`` pairs (or None) to IOB1 tags."""
    tags, previous = [], None
    for span in spans:
        if span is None:
            tags.append("O")
        else:
            starts_adjacent = previous is not None and previous[0] == span[0] and previous != span
            tags.append(("B-" if starts_adjacent else "I-") + span[0])
        previous = span
    return tags


def entities(sentence):
    """Return ``(type, text)`` for every entity in an IOB1-tagged sentence."""
    spans, previous = [], "O"
    for word, _, _, tag in sentence:
        if tag != "O":
            if tag.startswith("B-") or previous[2:] != tag[2:]:
                spans.append((tag[2:], []))
            spans[-1][1].append(word)
        previous = tag
    return [(label, " ".join(words)) for label, words in spans]


class Lexicon:
    """Gazetteers, each split into a training part and a held-out part."""

    def __init__(self, seed):
        rng = random.Random(seed)
        self.seen, self.held = {}, {}
        for name, entries in GAZETTEERS.items():
            shuffled = list(entries)
            rng.shuffle(shuffled)
            n_held = round(len(shuffled) * HELD_OUT_FRACTION)
            self.held[name], self.seen[name] = shuffled[:n_held], shuffled[n_held:]


class SplitGenerator:
    """Produces the documents of one split from the shared templates."""

    def __init__(self, lexicon, rng, allow_unseen):
        self.lexicon = lexicon
        self.rng = rng
        self.allow_unseen = allow_unseen

    def name(self, gazetteer):
        """Draw a gazetteer entry; dev/test sometimes use held-out entries."""
        if self.allow_unseen and self.rng.random() < UNSEEN_RATE:
            return self.rng.choice(self.lexicon.held[gazetteer])
        return self.rng.choice(self.lexicon.seen[gazetteer])

    def person(self):
        """A full person name, occasionally with a middle initial."""
        parts = [self.name("first")]
        if self.rng.random() < 0.15:
            parts.append(self.rng.choice("ABCDEFGHJKLMNPRST") + ".")
        parts.append(self.name("last"))
        return " ".join(parts)

    def club(self):
        """A sports club: a city name, bare or with a club suffix."""
        city = self.name("city")
        if self.rng.random() < 0.5:
            return city
        return f"{city} {self.rng.choice(CLUB_SUFFIXES)}"

    def fill(self, slot):
        """Return ``(tokens, entity type or None)`` for a template slot."""
        rng = self.rng
        entity_slots = {
            "PER": lambda: ("PER", self.person(), "NNP"),
            "PERL": lambda: ("PER", self.name("last"), "NNP"),
            "CITY": lambda: ("LOC", self.name("city"), "NNP"),
            "COUNTRY": lambda: ("LOC", self.name("country")[0], "NNP"),
            "CLUB": lambda: ("ORG", self.club(), "NNP"),
            "ORG": lambda: ("ORG", self.name("company"), "NNP"),
            "INST": lambda: ("ORG", self.name("institution"), "NNP"),
            "NAT": lambda: ("MISC", self.name("country")[1], "JJ"),
            "NATS": lambda: ("MISC", self.name("country")[2], "NNPS"),
            "LANG": lambda: ("MISC", self.name("country")[1], "NNP"),
            "CUP": lambda: ("MISC", self.name("cup"), "NNP"),
            "RACE": lambda: ("MISC", self.name("race"), "NNP"),
            "FEST": lambda: ("MISC", self.name("festival"), "NNP"),
        }
        plain_slots = {
            "DAY": lambda: rng.choice(DAYS) + "/NNP",
            "MONTH": lambda: rng.choice(MONTHS) + "/NNP",
            "NUM": lambda: f"{rng.randint(2, 99)}/CD",
            "BIGNUM": lambda: f"{rng.randint(100, 9999):,}/CD",
            "PCT": lambda: f"{rng.uniform(0.5, 12):.1f}/CD",
            "PRICE": lambda: f"{rng.uniform(2, 250):.2f}/CD",
            "AMOUNT": lambda: f"{rng.uniform(1, 900):.1f}/CD {rng.choice(['million', 'billion'])}/CD",
            "SCORE": lambda: f"{rng.randint(0, 5)}-{rng.randint(0, 4)}/CD",
            "GOALS": lambda: f"{rng.randint(0, 5)}/CD",
            "SET": lambda: rng.choice(TENNIS_SETS) + "/CD",
            "YEAR": lambda: f"{rng.randint(1978, 2029)}/CD",
            "TIME": lambda: f"{rng.randint(1, 5)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}/CD",
            "DATE": lambda: f"2031-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}/CD",
        }
        base = slot.rstrip("^")
        if base in entity_slots:
            label, text, pos = entity_slots[base]()
        else:
            label, text, pos = None, plain_slots[base](), None
        tokens = entry_tokens(text, pos)
        if slot.endswith("^"):
            tokens = [(word.upper(), tag) for word, tag in tokens]
        return tokens, label

    def sentence(self, template):
        """Realise a template as rows of (word, POS, chunk tag, NER tag).

        Inside an NP, a preposition (e.g. in "Bank of New Hallam") forms its
        own PP chunk and the rest of the NP continues as a new chunk.
        """
        ids = itertools.count()
        words, chunk_spans, entity_spans = [], [], []
        used = []
        for chunk_type, items in parse_template(template):
            chunk = (chunk_type, next(ids)) if chunk_type else None
            for item in items:
                if isinstance(item, tuple):
                    tokens, label = [item], None
                else:
                    tokens, label = self.fill(item)
                    # Avoid e.g. "Selwick beat Selwick": redraw repeated entities.
                    while label and tokens in used:
                        tokens, label = self.fill(item)
                    if label:
                        used.append(tokens)
                entity = (label, next(ids)) if label else None
                for word, pos in tokens:
                    if chunk_type == "NP" and pos == "IN":
                        chunk_spans.append(("PP", next(ids)))
                        chunk = ("NP", next(ids))
                    else:
                        chunk_spans.append(chunk)
                    words.append((word, pos))
                    entity_spans.append(entity)
        return [
            (word, pos, chunk_tag, ner_tag)
            for (word, pos), chunk_tag, ner_tag in zip(words, iob1(chunk_spans), iob1(entity_spans))
        ]

    def document(self, topic_name, n_sentences):
        """A headline, a dateline and body sentences on one topic.

        Body templates are dealt from reshuffled decks, so a document only
        repeats a template once the topic's templates are used up.
        """
        topic = TOPICS[topic_name]
        body = []
        while len(body) < n_sentences - 2:
            body += self.rng.sample(topic["body"], len(topic["body"]))
        templates = [self.rng.choice(topic["headlines"]), DATELINE] + body[: n_sentences - 2]
        return [self.sentence(template) for template in templates]

    def documents(self, n_sentences):
        """Documents of 8-15 sentences totalling exactly ``n_sentences``.

        Topics rotate through a shuffled order so every split covers all of them.
        """
        topic_order = sorted(TOPICS)
        self.rng.shuffle(topic_order)
        docs, remaining = [], n_sentences
        low, high = DOC_LENGTH
        while remaining:
            size = self.rng.randint(low, high)
            if remaining - size < low:
                size = remaining if remaining <= high else remaining - low
            docs.append(self.document(topic_order[len(docs) % len(topic_order)], size))
            remaining -= size
        return docs


def render(docs):
    """Serialise documents in CoNLL-2003 layout."""
    blocks = []
    for doc in docs:
        blocks.append(DOCSTART)
        blocks.extend("\n".join(" ".join(row) for row in sentence) for sentence in doc)
    return "\n\n".join(blocks) + "\n"


def summarize(split, docs, train_entities):
    """Print sentence, token and entity counts for one split."""
    sentences = [sentence for doc in docs for sentence in doc]
    found = [entity for sentence in sentences for entity in entities(sentence)]
    by_type = Counter(label for label, _ in found)
    adjacent = sum(row[3].startswith("B-") for sentence in sentences for row in sentence)
    line = (
        f"{split:5s}: {len(docs)} docs, {len(sentences)} sentences, "
        f"{sum(map(len, sentences))} tokens, {len(found)} entities "
        f"({', '.join(f'{label} {by_type[label]}' for label in ('PER', 'LOC', 'ORG', 'MISC'))}), "
        f"{adjacent} B- tags"
    )
    if train_entities is not None:
        unseen = sum(entity not in train_entities for entity in found)
        line += f", {unseen} entity strings absent from train"
    print(line)


def main():
    """Generate the three splits and write them to ``--output-dir``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()

    lexicon = Lexicon(args.seed)
    args.output_dir.mkdir(parents=True, exist_ok=True)
    train_entities = None
    for split, size in SPLIT_SIZES.items():
        generator = SplitGenerator(lexicon, random.Random(f"{args.seed}:{split}"), split != "train")
        docs = generator.documents(size)
        (args.output_dir / f"{split}.txt").write_text(render(docs), encoding="utf-8")
        summarize(split, docs, train_entities)
        if split == "train":
            train_entities = {e for doc in docs for sentence in doc for e in entities(sentence)}


if __name__ == "__main__":
    main()
