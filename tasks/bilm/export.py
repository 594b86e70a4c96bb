"""
Moves biLM weights between our trainable model and the original ELMo weight file.

The conventions are those AllenNLP's `Elmo` undoes when it loads a file: dense weights stored as
`(in, out)`; convolutions as `(1, width, char dim, filters)`; the highway carry gate with the
opposite sign; LSTM gates packed input, memory, forget, output with TensorFlow's +1 forget bias
left out of `B`; and no row for the padding character in `char_embed`.
"""
from pathlib import Path
from typing import Dict, Union

import h5py
import numpy
import torch
from allennlp.common.checks import ConfigurationError

from tasks.bilm.model import BidirectionalLm
from tasks.bilm.weight_file import weight_layout, write_elmo_files


def _swap_memory_and_forget(packed: numpy.ndarray, cell: int) -> numpy.ndarray:
    """Exchanges gate blocks 1 and 2 along axis 0: AllenNLP's order <-> TensorFlow's (its own inverse)."""
    swapped = packed.copy()
    swapped[cell : 2 * cell], swapped[2 * cell : 3 * cell] = packed[2 * cell : 3 * cell], packed[cell : 2 * cell]
    return swapped


def to_original_layout(model: BidirectionalLm) -> Dict[str, numpy.ndarray]:
    """The model's biLM weights (not its softmax) as the datasets of an original weight file."""
    def array(tensor: torch.Tensor) -> numpy.ndarray:
        return tensor.detach().cpu().numpy().astype(numpy.float32)

    encoder = model.character_encoder
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
    for direction_index, stack in enumerate(model.stacks):  # RNN_0: forward, RNN_1: backward
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


def export_elmo_files(model: BidirectionalLm, output_dir: Union[str, Path]) -> None:
    """Writes `options.json` and `weights.hdf5`, which AllenNLP's `Elmo` reads, into `output_dir`."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    write_elmo_files(model.options, to_original_layout(model), output_dir / "options.json", output_dir / "weights.hdf5")


def read_original_layout(weight_file: Union[str, Path], options) -> Dict[str, numpy.ndarray]:
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


def load_original_layout(model: BidirectionalLm, weight_file: Union[str, Path]) -> None:
    """Loads an original weight file (official or ours) into `model`; the softmax is left as it is."""
    weights = read_original_layout(weight_file, model.options)

    def assign(parameter: torch.nn.Parameter, value: numpy.ndarray) -> None:
        with torch.no_grad():
            parameter.copy_(torch.from_numpy(numpy.ascontiguousarray(value)))

    encoder = model.character_encoder
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
    for direction_index, stack in enumerate(model.stacks):  # RNN_0: forward, RNN_1: backward
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
