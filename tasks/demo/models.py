"""
The models `allennlp demo` serves: each trained archive with the predictor `allennlp predict` would
use for it (the model's default), what its page asks for, examples, and, for an ELMo model, the γ and
layer weights it learned. A model is loaded once and shared by every request; one request at a time
runs it (the activation cache's database connection, and torch's threads, are the process's).
"""

import threading
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional

import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tasks.elmo import PaperElmo
from tasks.reproduce.layout import is_finished

# By the model's default predictor: what the page calls the task, the JSON keys its input has (in
# order, the last one the long text), optional keys (lists of word numbers), and examples.
KINDS: Dict[str, Dict[str, Any]] = {
    "ner_tagger": {
        "kind": "ner",
        "title": "Named entities (CoNLL-2003)",
        "fields": ["sentence"],
        "examples": [
            {"sentence": "Alan Turing worked at Bletchley Park near London during the Second World War."},
            {"sentence": "Ada Lovelace wrote about Charles Babbage's Analytical Engine."},
        ],
    },
    "srl_frames": {
        "kind": "srl",
        "title": "Semantic roles (PropBank)",
        "fields": ["sentence"],
        # The predictor's optional "predicates": word numbers into the tokenised sentence.
        "optional": [{"name": "predicates", "label": "predicates: word numbers from 0, e.g. 2, 12 (blank: found)"}],
        "examples": [
            {"sentence": "The committee approved the new budget on Monday because the deadline had passed."},
            {"sentence": "She gave her brother the keys before she left for Paris."},
        ],
    },
    "coref_resolver": {
        "kind": "coref",
        "title": "Coreference",
        "fields": ["document"],
        "examples": [
            {
                "document": "Elizabeth met Mr. Darcy at the ball. She thought him proud, and he barely spoke to her. "
                "Later, her sister told Elizabeth that Darcy had admired her."
            }
        ],
    },
    "squad_answerer": {
        "kind": "squad",
        "title": "Question answering (SQuAD)",
        "fields": ["question", "passage"],
        "examples": [
            {
                "question": "Where was the Grey Heron built?",
                "passage": "The Grey Heron was a schooner built in Ostrick in 1871. She carried timber along the "
                "coast until a storm wrecked her off Penmarch in 1903.",
            }
        ],
    },
    "sentiment_classifier": {
        "kind": "sst",
        "title": "Sentiment (SST-5)",
        "fields": ["sentence"],
        "examples": [
            {"sentence": "A gorgeous, witty and deeply moving film."},
            {"sentence": "The plot is thin and the jokes fall flat."},
        ],
    },
    "entailment_classifier": {
        "kind": "snli",
        "title": "Entailment (SNLI)",
        "fields": ["premise", "hypothesis"],
        "examples": [
            {"premise": "Two dogs run through the snow.", "hypothesis": "Animals are outside."},
            {"premise": "A man is playing a guitar on stage.", "hypothesis": "The man is asleep at home."},
        ],
    },
}


class DemoModel(NamedTuple):
    name: str
    archive: str
    predictor: Predictor
    kind: Dict[str, Any]
    elmo: List[Dict[str, Any]]  # per scalar mix: place, γ, softmax layer weights
    lock: threading.Lock

    def describe(self) -> Dict[str, Any]:
        return {"name": self.name, "archive": self.archive, **self.kind, "elmo": self.elmo}

    def predict(self, inputs: Any) -> Any:
        """What `allennlp predict` writes for `inputs` as one input line, as JSON."""
        import json

        with self.lock, torch.no_grad():
            return json.loads(self.predictor.dump_line(self.predictor.predict_json(inputs)))


def load(name: str, archive: str) -> DemoModel:
    """The archive's model with its default predictor, as `allennlp predict` loads it."""
    model_archive = load_archive(archive)
    predictor = Predictor.from_archive(model_archive)
    registered = _predictor_name(predictor)
    if registered not in KINDS:
        raise ValueError(f"{archive}: its model's predictor {registered!r} has no page; known: {sorted(KINDS)}")
    return DemoModel(
        name, str(archive), predictor, KINDS[registered], learned_mixes(model_archive.model), threading.Lock()
    )


def learned_mixes(model: torch.nn.Module) -> List[Dict[str, Any]]:
    """γ and the softmax layer weights of each place ELMo enters the model (none: not an ELMo model)."""
    mixes = []
    for elmo in (module for module in model.modules() if isinstance(module, PaperElmo)):
        places = _places(model, len(elmo._scalar_mixes))
        for place, mix in zip(places, elmo._scalar_mixes):
            weights = torch.softmax(torch.cat([p.detach().reshape(1) for p in mix.scalar_parameters]), dim=0)
            mixes.append({"place": place, "gamma": mix.gamma.item(), "weights": [float(w) for w in weights]})
    return mixes


def finished_runs(runs_dir: Path) -> Dict[str, str]:
    """Every finished run of a plan's folder, by name: its archive."""
    return {
        run.name: str(run / "model.tar.gz") for run in sorted(runs_dir.iterdir()) if run.is_dir() and is_finished(run)
    }


def _places(model: torch.nn.Module, mixes: int) -> List[str]:
    """Where each mix enters, in the order the model takes them: the input first, then the output."""
    if mixes == 2:
        return ["input", "output"]
    at_output = any(
        getattr(model, flag, False) for flag in ("_use_output_elmo", "_elmo_at_output", "_use_integrator_output_elmo")
    )
    at_input = any(getattr(model, flag, False) for flag in ("_use_input_elmo", "_elmo_at_input"))
    return ["output" if at_output and not at_input else "input"]


def _predictor_name(predictor: Predictor) -> Optional[str]:
    for name, (registered, _) in Predictor._registry[Predictor].items():
        if registered is type(predictor):
            return name
    return None
