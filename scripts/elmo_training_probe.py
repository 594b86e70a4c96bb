"""
What ELMo does inside a task model, at initialisation or at its best epoch: the probe of issue 44
("ELMo below its baseline"), whose tables are in docs/elmo_losses.md.

For each place ELMo enters the model (its input, the output of its biRNN), over dev instances:

- **ELMo's share of the layer's input variance**: the summed per-dimension variance of ELMo's part of
  the concatenated vector, over that of the whole vector (words, characters, the biRNN's states);
- **norms**: the mean per-token norm of ELMo's part and of the rest;

for each attention of the model, its **peakedness** (the mean over query positions of the largest
attention weight), with ELMo and with every γ set to 0 (the same model with ELMo's vectors zeroed);
and for each scalar mix, **γ and the softmax layer weights**, and their gradients on training batches
beside the root mean square gradient of the model's other trainable weights.

    python scripts/elmo_training_probe.py --plan plans/cpu.jsonnet --run snli-elmo-seed1   # at initialisation
    python scripts/elmo_training_probe.py runs/reproduce/cpu/snli-elmo-seed1/model.tar.gz  # as trained
    python scripts/elmo_training_probe.py configs/snli_elmo.jsonnet -o '{...}'            # any config

A config is built exactly as `allennlp train` builds it (same seeds, vocabulary and initial
weights), from the data its variables name; `--plan` and `--run` take a plan's run with its config,
variables and overrides, as `allennlp reproduce` trains it; an archive is read with its own config. Instances are
taken one at a time, so that no padding enters any mean. Prints a JSON object; `--output` writes it.
"""

import argparse
import json
import sys
import tempfile
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import torch
from allennlp.common import Params
from allennlp.data import Batch, Instance
from allennlp.models import Model
from allennlp.nn import util as nn_util

import tasks  # noqa: F401  (registers the suite's components)
from tasks.elmo.elmo import FastElmoTokenEmbedder, PaperElmo
from tasks.environment import apply_defaults


class Places(NamedTuple):
    """Where a model takes ELMo: the module whose first argument is the input with ELMo concatenated,
    and the module whose tensor arguments are the biRNN's states with ELMo concatenated."""

    input: str
    output: Optional[str]


# Per registered model: where ELMo enters (ELMo is the last dimensions of each concatenation, except
# in the tagger, whose embedder orders it among its token embedders) and what its attentions are,
# in the order the model calls `masked_softmax`.
MODELS: Dict[str, Tuple[Places, List[str]]] = {
    "elmo_esim": (Places("_encoder", "_matrix_attention"), ["premise over hypothesis", "hypothesis over premise"]),
    "bidaf_self_attention": (
        Places("_contextual_encoder", "_bi_attention"),
        ["passage over question", "question over passage", "self-attention", "span start", "span end"],
    ),
    "elmo_bcn": (
        Places("_pre_encode_feedforward", "_self_attentive_pooling_projection"),
        ["self-attention", "pooling"],
    ),
    "bilstm_crf_tagger": (Places("encoder", None), []),
}
REPORTED_ATTENTIONS = {"premise over hypothesis", "hypothesis over premise", "passage over question", "self-attention"}


def build(config_or_archive: str, overrides: str) -> Tuple[Model, List[Instance], List[Instance], Dict]:
    """The model, its dev instances and its training instances (as the data loaders give them), its config."""
    if config_or_archive.endswith(".tar.gz"):
        from allennlp.data import DatasetReader
        from allennlp.models.archival import load_archive

        archive = load_archive(config_or_archive, overrides=overrides)
        config = archive.config.duplicate()
        reader = archive.validation_dataset_reader
        train_reader = DatasetReader.from_params(config["dataset_reader"].duplicate())
        dev = list(islice(reader.read(config["validation_data_path"]), 2000))
        train = list(islice(train_reader.read(config["train_data_path"]), 2000))
        for instance in dev + train:
            instance.index_fields(archive.model.vocab)
        return archive.model, dev, train, config.as_dict()

    from allennlp.commands.train import TrainModel
    from allennlp.common.util import prepare_environment

    params = Params.from_file(config_or_archive, overrides)
    config = params.duplicate().as_dict()
    prepare_environment(params)
    with tempfile.TemporaryDirectory() as directory:
        built = TrainModel.from_params(params=params, serialization_dir=directory, local_rank=0)
        trainer = built.trainer
        dev = list(islice(trainer._validation_data_loader.iter_instances(), 2000))
        train = list(islice(trainer.data_loader.iter_instances(), 2000))
        return built.model, dev, train, config


def elmo_modules(model: Model) -> List[PaperElmo]:
    return [module for module in model.modules() if isinstance(module, PaperElmo)]


def elmo_span(model: Model, kind: str) -> Tuple[int, int]:
    """Where ELMo lies in the input place's vector: (start, end) in its last dimension."""
    embedder = getattr(model, "text_field_embedder", None) or getattr(model, "_text_field_embedder", None)
    if kind == "bilstm_crf_tagger":
        start = 0
        for key in embedder._ordered_embedder_keys:
            token_embedder = getattr(embedder, f"token_embedder_{key}")
            if isinstance(token_embedder, FastElmoTokenEmbedder):
                return start, start + token_embedder.get_output_dim()
            start += token_embedder.get_output_dim()
        raise ValueError("the tagger has no fast_elmo token embedder")
    (elmo,) = elmo_modules(model)
    width = getattr(model, MODELS[kind][0].input).get_input_dim()
    return width - elmo.get_output_dim(), width


class Variance:
    """Accumulates the per-dimension variance of ELMo's part and of the rest, over tokens."""

    def __init__(self) -> None:
        self.tokens: List[torch.Tensor] = []

    def add(self, vectors: torch.Tensor) -> None:
        self.tokens.append(vectors.reshape(-1, vectors.shape[-1]).detach().double())

    def summary(self, start: int, end: int) -> Dict[str, float]:
        vectors = torch.cat(self.tokens)
        elmo = vectors[:, start:end]
        rest = torch.cat([vectors[:, :start], vectors[:, end:]], dim=1)
        elmo_variance, rest_variance = elmo.var(dim=0).sum().item(), rest.var(dim=0).sum().item()
        return {
            "elmo_share_of_variance": elmo_variance / (elmo_variance + rest_variance),
            "elmo_norm": elmo.norm(dim=1).mean().item(),
            "rest_norm": rest.norm(dim=1).mean().item(),
            "tokens": vectors.shape[0],
        }


@contextmanager
def recording(model: Model, kind: str) -> Iterator[Dict[str, Any]]:
    """Hooks that record the two places' vectors and each attention's largest weights while inside."""
    places, attention_names = MODELS[kind]
    record: Dict[str, Any] = {"input": Variance(), "output": Variance(), "attention": {}}
    handles = [getattr(model, places.input).register_forward_pre_hook(lambda _, args: record["input"].add(args[0]))]
    if places.output:

        def at_output(_, args):
            for tensor in args:
                if isinstance(tensor, torch.Tensor) and tensor.dim() == 3:
                    record["output"].add(tensor)

        handles.append(getattr(model, places.output).register_forward_pre_hook(at_output))
    module = sys.modules[type(model).__module__]
    if kind == "elmo_bcn":  # allennlp-models' forward, which calls util.masked_softmax
        module = sys.modules["allennlp_models.classification.models.biattentive_classification_network"]
    original = getattr(module, "masked_softmax", None) or nn_util.masked_softmax
    calls = [0]

    def masked_softmax(vector, mask, *args, **kwargs):
        weights = original(vector, mask, *args, **kwargs)
        if calls[0] < len(attention_names) and weights.dim() == 3:
            name = attention_names[calls[0]]
            record["attention"].setdefault(name, []).append(weights.max(dim=-1).values.mean().item())
        calls[0] += 1
        return weights

    patched = hasattr(module, "masked_softmax")
    if patched:
        module.masked_softmax = masked_softmax
    elif kind == "elmo_bcn":
        module.util.masked_softmax = masked_softmax
    try:
        yield {**record, "reset_calls": lambda: calls.__setitem__(0, 0)}
    finally:
        for handle in handles:
            handle.remove()
        if patched:
            module.masked_softmax = original
        elif kind == "elmo_bcn":
            module.util.masked_softmax = original


def forward_one_at_a_time(model: Model, instances: Sequence[Instance], reset) -> None:
    model.eval()
    with torch.no_grad():
        for instance in instances:
            reset()
            batch = Batch([instance]).as_tensor_dict()
            model(**batch)


@contextmanager
def gammas_zeroed(model: Model) -> Iterator[None]:
    mixes = [mix for elmo in elmo_modules(model) for mix in elmo._scalar_mixes]
    kept = [mix.gamma.data.clone() for mix in mixes]
    for mix in mixes:
        mix.gamma.data.zero_()
    try:
        yield
    finally:
        for mix, gamma in zip(mixes, kept):
            mix.gamma.data.copy_(gamma)


def scalar_mixes(model: Model) -> List[Tuple[str, Any]]:
    return [(name, module) for name, module in model.named_modules() if type(module).__name__ == "ScalarMix"]


def gradients(model: Model, instances: Sequence[Instance], batch_size: int, batches: int) -> Dict[str, Any]:
    """Each mix's γ, softmax weights and their mean gradients over `batches` training batches (training mode)."""
    model.train()
    model.zero_grad()
    for start in range(0, batch_size * batches, batch_size):
        batch = Batch(list(instances[start : start + batch_size])).as_tensor_dict()
        output = model(**batch)
        (output["loss"] / batches).backward()
    mixes = []
    mix_parameters = set()
    for name, mix in scalar_mixes(model):
        weights = torch.cat([parameter for parameter in mix.scalar_parameters])
        mix_parameters |= {id(parameter) for parameter in mix.scalar_parameters} | {id(mix.gamma)}
        grads = [parameter.grad for parameter in mix.scalar_parameters]
        mixes.append(
            {
                "mix": name,
                "gamma": mix.gamma.item(),
                "weights": torch.softmax(weights, dim=0).tolist(),
                "gamma_gradient": mix.gamma.grad.item() if mix.gamma.grad is not None else None,
                "weight_gradients": [g.item() if g is not None else None for g in grads],
            }
        )
    others = [
        parameter.grad.double().pow(2).mean()
        for parameter in model.parameters()
        if parameter.requires_grad and parameter.grad is not None and id(parameter) not in mix_parameters
    ]
    model.zero_grad()
    return {"mixes": mixes, "other_weights_rms_gradient": torch.stack(others).mean().sqrt().item() if others else None}


def probe(config_or_archive: str, overrides: str, instances: int, batches: int) -> Dict[str, Any]:
    model, dev, train, config = build(config_or_archive, overrides)
    kind = config["model"]["type"]
    if kind not in MODELS:
        raise SystemExit(f"{config_or_archive}: no probe for model type {kind!r}; known: {sorted(MODELS)}")
    has_elmo = bool(elmo_modules(model))
    dev = dev[:instances]
    result: Dict[str, Any] = {"model": config_or_archive, "type": kind, "instances": len(dev), "elmo": has_elmo}
    with recording(model, kind) as record:
        forward_one_at_a_time(model, dev, record["reset_calls"])
        with_elmo = {name: sum(values) / len(values) for name, values in record["attention"].items()}
        if has_elmo:
            elmo_dim = elmo_modules(model)[0].get_output_dim()
            if _elmo_at(model, "input"):
                result["input"] = record["input"].summary(*elmo_span(model, kind))
            if _elmo_at(model, "output"):
                width = record["output"].tokens[0].shape[-1]
                result["output"] = record["output"].summary(width - elmo_dim, width)
    attention = {name: {"with_elmo": value} for name, value in with_elmo.items() if name in REPORTED_ATTENTIONS}
    if has_elmo and attention:
        with gammas_zeroed(model), recording(model, kind) as record:
            forward_one_at_a_time(model, dev, record["reset_calls"])
            for name, values in record["attention"].items():
                if name in attention:
                    attention[name]["gamma_zero"] = sum(values) / len(values)
    result["attention"] = attention
    if has_elmo:
        batch_size = config["data_loader"]["batch_sampler"]["batch_size"]
        result.update(gradients(model, train, batch_size, batches))
        result["optimizer"] = config["trainer"]["optimizer"]
    return result


FLAGS = {
    "input": ("_use_input_elmo", "_elmo_at_input"),
    "output": ("_use_output_elmo", "_elmo_at_output", "_use_integrator_output_elmo"),
}


def _elmo_at(model: Model, place: str) -> bool:
    """Whether ELMo enters at `place`; a tagger takes it at its input, in its embedder."""
    if isinstance(model, tuple(_taggers())):
        return place == "input"
    return any(getattr(model, flag, False) for flag in FLAGS[place])


def _taggers() -> List[type]:
    return [Model.by_name(name) for name, (places, _) in MODELS.items() if places.output is None]


def plan_run(plan_file: str, name: str, more_overrides: Dict[str, Any]) -> Tuple[str, str]:
    """
    The config and overrides (with `more_overrides`) of the plan's run `name`, its variables set in this
    process as the runner sets them.
    """
    import os

    from tasks.reproduce.plan import load_plan

    plan = load_plan(plan_file)
    runs = {run.name: run for run in plan.runs}
    if name not in runs:
        raise SystemExit(f"{plan_file} has no run {name!r}; it has {', '.join(sorted(runs))}")
    os.environ.update(runs[name].environment)
    return runs[name].config, json.dumps({**runs[name].overrides, **more_overrides})


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", nargs="?", help="a config (probed at initialisation) or a model.tar.gz")
    parser.add_argument("-o", "--overrides", default="", help="as allennlp train's -o")
    parser.add_argument("--plan", help="a plan file: probe its run --run at initialisation")
    parser.add_argument("--run", help="the run's name in --plan, e.g. snli-elmo-seed1")
    parser.add_argument("--instances", type=int, default=200, help="dev instances to average over (default 200)")
    parser.add_argument("--batches", type=int, default=4, help="training batches for the gradients (default 4)")
    parser.add_argument("--output", type=Path, help="also write the JSON here")
    arguments = parser.parse_args(argv)
    if bool(arguments.plan) != bool(arguments.run) or bool(arguments.plan) == bool(arguments.model):
        parser.error("give a config or an archive, or --plan with --run")
    model, overrides = arguments.model, arguments.overrides
    if arguments.plan:  # -o adds to the run's own overrides
        model, overrides = plan_run(arguments.plan, arguments.run, json.loads(overrides or "{}"))
    apply_defaults()  # unset variables take the bundled defaults, as under the allennlp command
    result = probe(model, overrides, arguments.instances, arguments.batches)
    text = json.dumps(result, indent=1)
    print(text)
    if arguments.output:
        arguments.output.parent.mkdir(parents=True, exist_ok=True)
        arguments.output.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
