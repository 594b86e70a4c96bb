"""
The original ELMo weight format (bilm-tf's `options.json` + `weights.hdf5`), which AllenNLP's
`Elmo` reads.

The hdf5 file holds TensorFlow's layout: dense weights as `(in, out)` matrices, LSTM gates packed
in the order input, memory, forget, output, the forget bias stored without TensorFlow's +1, and the
highway carry gate with the opposite sign of AllenNLP's. `weight_layout` names every dataset and
its shape for given options; the writer refuses anything that does not match it, so a file we
write is one AllenNLP can load.
"""
import json
from pathlib import Path
from typing import Any, Dict, Mapping, Tuple, Union

import h5py
import numpy

PathLike = Union[str, Path]


def weight_layout(options: Mapping[str, Any]) -> Dict[str, Tuple[int, ...]]:
    """Every dataset of the weight file for `options`, by its full hdf5 name, with its shape."""
    cnn = options["char_cnn"]
    lstm = options["lstm"]
    char_dim = cnn["embedding"]["dim"]
    num_filters = sum(count for _, count in cnn["filters"])
    projection_dim = lstm["projection_dim"]
    cell_dim = lstm["dim"]

    # Character ids run from 1 to n_characters - 1; AllenNLP prepends the row for padding (id 0).
    layout = {"char_embed": (cnn["n_characters"] - 1, char_dim)}
    for index, (width, count) in enumerate(cnn["filters"]):
        layout[f"CNN/W_cnn_{index}"] = (1, width, char_dim, count)
        layout[f"CNN/b_cnn_{index}"] = (count,)
    for index in range(cnn["n_highway"]):
        for gate in ("transform", "carry"):
            layout[f"CNN_high_{index}/W_{gate}"] = (num_filters, num_filters)
            layout[f"CNN_high_{index}/b_{gate}"] = (num_filters,)
    layout["CNN_proj/W_proj"] = (num_filters, projection_dim)
    layout["CNN_proj/b_proj"] = (projection_dim,)
    for direction in range(2):  # 0: forward, 1: backward
        for layer in range(lstm["n_layers"]):
            cell = f"RNN_{direction}/RNN/MultiRNNCell/Cell{layer}/LSTMCell"
            layout[f"{cell}/W_0"] = (2 * projection_dim, 4 * cell_dim)
            layout[f"{cell}/B"] = (4 * cell_dim,)
            layout[f"{cell}/W_P_0"] = (cell_dim, projection_dim)
    return layout


def write_elmo_files(
    options: Mapping[str, Any],
    weights: Mapping[str, numpy.ndarray],
    options_path: PathLike,
    weight_path: PathLike,
) -> None:
    """Writes `options.json` and the hdf5 weights, after checking the weights match the layout."""
    layout = weight_layout(options)
    missing = sorted(set(layout) - set(weights))
    unexpected = sorted(set(weights) - set(layout))
    if missing or unexpected:
        raise ValueError(f"weights do not match the layout: missing {missing}, unexpected {unexpected}")
    for name, shape in layout.items():
        if tuple(weights[name].shape) != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {tuple(weights[name].shape)}")

    Path(options_path).write_text(json.dumps(options, indent=2) + "\n", encoding="utf-8")
    with h5py.File(weight_path, "w") as weight_file:
        for name in layout:
            weight_file.create_dataset(name, data=numpy.asarray(weights[name], dtype=numpy.float32))


def random_weights(options: Mapping[str, Any], seed: int = 0, scale: float = 0.3) -> Dict[str, numpy.ndarray]:
    """Weights of the right layout drawn uniformly from [-scale, scale]: for fixtures and timing."""
    generator = numpy.random.default_rng(seed)
    return {
        name: generator.uniform(-scale, scale, size=shape).astype(numpy.float32)
        for name, shape in weight_layout(options).items()
    }


def tiny_options(
    char_dim: int = 4,
    filters=((1, 4), (2, 8), (3, 16)),
    n_highway: int = 1,
    cell_dim: int = 32,
    projection_dim: int = 16,
    n_layers: int = 2,
) -> Dict[str, Any]:
    """Options of the original kind for a small biLM (the defaults give a few-kB model)."""
    return {
        "char_cnn": {
            "activation": "relu",
            "embedding": {"dim": char_dim},
            "filters": [list(pair) for pair in filters],
            "max_characters_per_token": 50,
            "n_characters": 262,
            "n_highway": n_highway,
        },
        "lstm": {
            "cell_clip": 3,
            "dim": cell_dim,
            "n_layers": n_layers,
            "proj_clip": 3,
            "projection_dim": projection_dim,
            "use_skip_connections": True,
        },
    }
