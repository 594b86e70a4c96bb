"""
How far each ELMo scalar mix could move in a training run, and how far it did: issue 44's question
of why the learned layer weights end near uniform (docs/elmo_losses.md). From a run directory's last
checkpoint (`allennlp train` keeps the optimizer's state beside the model's), for γ and each layer
weight of every mix:

- **its value** (and the layer weights as the softmax gives them);
- **the optimizer's update now**: Adam's −m̂ / (√v̂ + ε), its update over the learning rate, signed as
  the parameter moves (±1: by the whole learning rate at each update, its gradients steady; near 0:
  they cancel out); Adadelta's root mean square of its recent updates (unsigned);
- **the updates taken**, the learning rate at the start (the config's) and now, and for Adam the
  farthest the parameter could have gone: at most about the learning rate per update, so the updates
  times the starting learning rate.

    python scripts/mix_optimizer_state.py runs/reproduce/elmo_losses/snli-elmo-gamma0_1-seed1

Prints a JSON object; `--output` writes it too.
"""

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Sequence

import torch

import tasks  # noqa: F401  (registers the suite's components)
from tasks.environment import apply_defaults

CHECKPOINT = re.compile(r"training_state_e(\d+)_b(\d+)\.th$")


def last_checkpoint(run: Path) -> Path:
    """The run's latest training state (epoch, then batch)."""
    found = [
        (tuple(map(int, match.groups())), path) for path in run.iterdir() if (match := CHECKPOINT.match(path.name))
    ]
    if not found:
        raise SystemExit(f"{run}: no training_state_e*_b*.th (a run directory of `allennlp train` keeps its last two)")
    return max(found)[1]


def trainable_names(run: Path) -> List[str]:
    """The model's trainable parameters in the order the optimizer holds them (one parameter group)."""
    from allennlp.models.archival import load_archive

    archive = run / "model.tar.gz"
    if not archive.is_file():
        raise SystemExit(f"{run}: no model.tar.gz (the run has not finished)")
    model = load_archive(str(archive)).model
    return [name for name, parameter in model.named_parameters() if parameter.requires_grad]


def mix_state(run: Path) -> Dict[str, Any]:
    checkpoint = last_checkpoint(run)
    optimizer = torch.load(checkpoint, map_location="cpu", weights_only=False)["optimizer"]
    if len(optimizer["param_groups"]) != 1:
        raise SystemExit(f"{checkpoint}: {len(optimizer['param_groups'])} parameter groups; this reads one")
    group = optimizer["param_groups"][0]
    names = trainable_names(run)
    if len(names) != len(group["params"]):
        raise SystemExit(f"{checkpoint}: {len(group['params'])} parameters, the model has {len(names)} trainable")
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))["trainer"]["optimizer"]
    values = torch.load(
        checkpoint.with_name(checkpoint.name.replace("training_state", "model_state")), map_location="cpu"
    )
    kind = config["type"]
    mixes: Dict[str, Dict[str, Any]] = {}
    steps = 0
    for name, index in zip(names, group["params"]):
        match = re.match(r"(.*scalar_mix_\d+)\.(gamma|scalar_parameters\.\d+)$", name)
        if match is None:
            continue
        state = optimizer["state"].get(index, {})
        steps = max(steps, int(state.get("step", 0)))
        entry = mixes.setdefault(match.group(1), {"mix": match.group(1), "gamma": None, "logits": [], "updates": []})
        update = _update(kind, state, group)
        if match.group(2) == "gamma":
            entry["gamma"], entry["gamma_update"] = values[name].item(), update
        else:
            entry["logits"].append(values[name].item())
            entry["updates"].append(update)
    for entry in mixes.values():
        entry["weights"] = torch.softmax(torch.tensor(entry["logits"]), dim=0).tolist()
    result = {
        "run": str(run),
        "checkpoint": checkpoint.name,
        "optimizer": kind,
        "updates": steps,
        "learning_rate": {"start": config.get("lr"), "now": group["lr"]},
        "update": "-m̂ / (√v̂ + ε), of the learning rate" if kind == "adam" else "root mean square of recent updates",
        "mixes": list(mixes.values()),
    }
    if kind == "adam" and config.get("lr") is not None:
        result["farthest_travel"] = steps * config["lr"]
    return result


def _update(kind: str, state: Dict[str, torch.Tensor], group: Dict[str, Any]) -> float:
    """The optimizer's update of one scalar parameter now (see the module's docstring)."""
    if not state:
        return 0.0
    if kind == "adam":
        beta1, beta2 = group["betas"]
        step = float(state["step"])
        first = state["exp_avg"] / (1 - beta1**step)
        second = state["exp_avg_sq"] / (1 - beta2**step)
        return -(first / (second.sqrt() + group["eps"])).item()
    if kind == "adadelta":
        return state["acc_delta"].sqrt().item()
    raise SystemExit(f"optimizer {kind!r}: this reads adam and adadelta")


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path, help="a finished run directory of `allennlp train`")
    parser.add_argument("--output", type=Path, help="also write the JSON here")
    arguments = parser.parse_args(argv)
    apply_defaults()  # the archive's biLM variables, where unset, as under the allennlp command
    text = json.dumps(mix_state(arguments.run), indent=1, ensure_ascii=False)
    print(text)
    if arguments.output:
        arguments.output.parent.mkdir(parents=True, exist_ok=True)
        arguments.output.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
