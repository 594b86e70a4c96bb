"""
The original ELMo weight format (bilm-tf's `options.json` + `weights.hdf5`), which AllenNLP's
`Elmo` reads, in one place: reading the options, the layout of the weight file, reading and
writing it, and moving weights between it and the biLM modules it fills (`CharacterEncoder` and
the two `LstmStack`s of `tasks.bilm.modules`), for the pretrained `BidirectionalLm` and the frozen
biLM of `tasks.elmo` alike.

The hdf5 file holds TensorFlow's layout, which AllenNLP's `Elmo` undoes when it loads a file:
dense weights as `(in, out)` matrices; convolutions as `(1, width, char dim, filters)`; LSTM gates
packed in the order input, memory, forget, output, the forget bias stored without TensorFlow's +1;
the highway carry gate with the opposite sign of AllenNLP's; and no row for the padding character
in `char_embed`. `weight_layout` names every dataset and its shape for given options; the writer
refuses anything that does not match it, so a file we write is one AllenNLP can load.
"""

import json
from pathlib import Path
from typing import Any, Dict, Mapping, Protocol, Sequence, Tuple, Union

import h5py
import numpy
import torch
from allennlp.common.checks import ConfigurationError

from tasks.bilm.modules import CharacterEncoder, LstmStack

PathLike = Union[str, Path]


class BilmModules(Protocol):
    """What the weight file fills: a biLM's options, its character encoder and its forward and backward LSTM stacks."""

    options: Dict[str, Any]
    character_encoder: CharacterEncoder
    stacks: Sequence[LstmStack]  # forward, backward (the file's RNN_0, RNN_1)


def read_options(options_file: str) -> Dict[str, Any]:
    """The `char_cnn` and `lstm` sections of a bilm-tf `options.json`, with a clear error if absent."""
    path = Path(options_file)
    try:
        options = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ConfigurationError(f"cannot read biLM options from {path}: {error}") from None
    for section, keys in {
        "char_cnn": ("activation", "embedding", "filters", "n_characters", "n_highway", "max_characters_per_token"),
        "lstm": ("dim", "n_layers", "projection_dim"),
    }.items():
        missing = [key for key in keys if key not in options.get(section, {})]
        if missing:
            raise ConfigurationError(f"{path}: options.{section} lacks {', '.join(missing)}")
    return options


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


def _swap_memory_and_forget(packed: numpy.ndarray, cell: int) -> numpy.ndarray:
    """Exchanges gate blocks 1 and 2 along axis 0: AllenNLP's order <-> TensorFlow's (its own inverse)."""
    swapped = packed.copy()
    swapped[cell : 2 * cell], swapped[2 * cell : 3 * cell] = packed[2 * cell : 3 * cell], packed[cell : 2 * cell]
    return swapped


def to_original_layout(bilm: BilmModules) -> Dict[str, numpy.ndarray]:
    """
    The biLM's weights (a pretrained model's softmax is not part of them) as the datasets of an
    original weight file.
    """

    def array(tensor: torch.Tensor) -> numpy.ndarray:
        return tensor.detach().cpu().numpy().astype(numpy.float32)

    encoder = bilm.character_encoder
    weights = {"char_embed": array(encoder.char_embedding.weight[1:])}
    for index, convolution in enumerate(encoder.convolutions):
        weights[f"CNN/W_cnn_{index}"] = array(convolution.weight).transpose(2, 1, 0)[numpy.newaxis]
        weights[f"CNN/b_cnn_{index}"] = array(convolution.bias)
    for index, highway in enumerate(encoder.highways._layers):
        size = highway.out_features // 2
        weights[f"CNN_high_{index}/W_transform"] = array(highway.weight[:size]).T
        weights[f"CNN_high_{index}/W_carry"] = -array(highway.weight[size:]).T
        weights[f"CNN_high_{index}/b_transform"] = array(highway.bias[:size])
        weights[f"CNN_high_{index}/b_carry"] = -array(highway.bias[size:])
    weights["CNN_proj/W_proj"] = array(encoder.projection.weight).T
    weights["CNN_proj/b_proj"] = array(encoder.projection.bias)
    for direction_index, stack in enumerate(bilm.stacks):  # RNN_0: forward, RNN_1: backward
        for layer_index, layer in enumerate(stack.layers):
            lstm, cell = layer.lstm, layer.cell_size
            prefix = f"RNN_{direction_index}/RNN/MultiRNNCell/Cell{layer_index}/LSTMCell"
            packed = numpy.concatenate([array(lstm.weight_ih_l0), array(lstm.weight_hh_l0)], axis=1)
            weights[f"{prefix}/W_0"] = _swap_memory_and_forget(packed, cell).T
            bias = _swap_memory_and_forget(array(lstm.bias_ih_l0 + lstm.bias_hh_l0), cell)
            bias[2 * cell : 3 * cell] -= 1.0  # TensorFlow adds the forget bias at run time
            weights[f"{prefix}/B"] = bias
            weights[f"{prefix}/W_P_0"] = array(lstm.weight_hr_l0).T
    return weights


def export_elmo_files(bilm: BilmModules, output_dir: PathLike) -> None:
    """Writes `options.json` and `weights.hdf5`, which AllenNLP's `Elmo` reads, into `output_dir`."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    write_elmo_files(bilm.options, to_original_layout(bilm), output_dir / "options.json", output_dir / "weights.hdf5")


def read_original_layout(weight_file: PathLike, options: Mapping[str, Any]) -> Dict[str, numpy.ndarray]:
    """Every dataset `options` requires from `weight_file`, checked for presence and shape."""
    expected = weight_layout(options)
    weights = {}
    try:
        with h5py.File(weight_file, "r") as datasets:
            for name, shape in expected.items():
                if name not in datasets:
                    raise ValueError(f"{weight_file}: no dataset {name!r} (expected shape {shape})")
                if datasets[name].shape != shape:
                    raise ValueError(f"{weight_file}: {name!r} has shape {datasets[name].shape}, expected {shape}")
                weights[name] = datasets[name][...].astype(numpy.float32)
    except OSError as error:  # not hdf5, truncated, unreadable
        raise ConfigurationError(
            f"{weight_file}: cannot read the biLM weights ({error}); expected an hdf5 file in the original "
            "bilm-tf layout, whole (a copy or download that stopped early reads like this). Configs take "
            "it from ELMO_WEIGHT_FILE, else the bundled biLM."
        ) from None
    return weights


def load_original_layout(bilm: BilmModules, weight_file: PathLike) -> None:
    """Loads an original weight file (official or ours) into `bilm`; a pretrained model's softmax is left as it is."""
    weights = read_original_layout(weight_file, bilm.options)

    def assign(parameter: torch.nn.Parameter, value: numpy.ndarray) -> None:
        with torch.no_grad():
            parameter.copy_(torch.from_numpy(numpy.ascontiguousarray(value)))

    encoder = bilm.character_encoder
    with torch.no_grad():
        encoder.char_embedding.weight[0].zero_()
    assign(encoder.char_embedding.weight[1:], weights["char_embed"])
    for index, convolution in enumerate(encoder.convolutions):
        assign(convolution.weight, weights[f"CNN/W_cnn_{index}"][0].transpose(2, 1, 0))
        assign(convolution.bias, weights[f"CNN/b_cnn_{index}"])
    for index, highway in enumerate(encoder.highways._layers):
        size = highway.out_features // 2
        assign(highway.weight[:size], weights[f"CNN_high_{index}/W_transform"].T)
        assign(highway.weight[size:], -weights[f"CNN_high_{index}/W_carry"].T)
        assign(highway.bias[:size], weights[f"CNN_high_{index}/b_transform"])
        assign(highway.bias[size:], -weights[f"CNN_high_{index}/b_carry"])
    assign(encoder.projection.weight, weights["CNN_proj/W_proj"].T)
    assign(encoder.projection.bias, weights["CNN_proj/b_proj"])
    for direction_index, stack in enumerate(bilm.stacks):  # RNN_0: forward, RNN_1: backward
        for layer_index, layer in enumerate(stack.layers):
            lstm, cell = layer.lstm, layer.cell_size
            prefix = f"RNN_{direction_index}/RNN/MultiRNNCell/Cell{layer_index}/LSTMCell"
            packed = _swap_memory_and_forget(weights[f"{prefix}/W_0"].T, cell)
            assign(lstm.weight_ih_l0, packed[:, : layer.input_size])
            assign(lstm.weight_hh_l0, packed[:, layer.input_size :])
            bias = weights[f"{prefix}/B"].copy()
            bias[2 * cell : 3 * cell] += 1.0
            assign(lstm.bias_ih_l0, _swap_memory_and_forget(bias, cell))
            with torch.no_grad():
                lstm.bias_hh_l0.zero_()  # the two biases add up; the file has one
            assign(lstm.weight_hr_l0, weights[f"{prefix}/W_P_0"].T)


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
