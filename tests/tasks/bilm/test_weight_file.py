import json

import h5py
import numpy
import pytest
import torch
from allennlp.modules.elmo import Elmo

from tasks.bilm.weight_file import random_weights, tiny_options, weight_layout, write_elmo_files
from tests.helpers.repository import ROOT, SHARED_DATA


def _dataset_shapes(path):
    shapes = {}
    with h5py.File(path, "r") as weight_file:
        weight_file.visititems(
            lambda name, item: shapes.update({name: item.shape}) if isinstance(item, h5py.Dataset) else None
        )
    return shapes


def test_allennlp_loads_what_we_write_with_the_original_conventions(tmp_path):
    options = tiny_options(cell_dim=8, projection_dim=4, filters=((1, 3), (2, 5)))
    weights = random_weights(options, seed=3)
    write_elmo_files(options, weights, tmp_path / "options.json", tmp_path / "weights.hdf5")
    elmo = Elmo(str(tmp_path / "options.json"), str(tmp_path / "weights.hdf5"), 1)
    encoder = elmo._elmo_lstm._token_embedder
    lstm = elmo._elmo_lstm._elmo_lstm

    # Character ids start at 1: AllenNLP prepends a zero row for padding.
    assert torch.equal(encoder._char_embedding_weights[1:], torch.from_numpy(weights["char_embed"]))
    assert not encoder._char_embedding_weights[0].any()
    # Convolutions: (1, width, char dim, filters) becomes Conv1d's (filters, char dim, width).
    assert torch.equal(
        encoder.char_conv_1.weight, torch.from_numpy(weights["CNN/W_cnn_1"][0].transpose(2, 1, 0).copy())
    )
    # Highway: transform, then carry with AllenNLP's opposite sign, as (out, in).
    highway = encoder._highways._layers[0]
    assert torch.equal(highway.weight[:8], torch.from_numpy(weights["CNN_high_0/W_transform"].T.copy()))
    assert torch.equal(highway.weight[8:], torch.from_numpy(-weights["CNN_high_0/W_carry"].T))
    # LSTM: TensorFlow's gates (input, memory, forget, output) become (input, forget, memory, output),
    # and TensorFlow's +1 forget bias is added in.
    cell, tf_bias = 8, weights["RNN_1/RNN/MultiRNNCell/Cell1/LSTMCell/B"]
    torch_bias = lstm.backward_layer_1.state_linearity.bias.detach().numpy()
    numpy.testing.assert_allclose(torch_bias[cell : 2 * cell], tf_bias[2 * cell : 3 * cell] + 1, rtol=1e-6)
    numpy.testing.assert_allclose(torch_bias[2 * cell : 3 * cell], tf_bias[cell : 2 * cell], rtol=1e-6)
    tf_input = weights["RNN_0/RNN/MultiRNNCell/Cell0/LSTMCell/W_0"].T[:, :4]
    torch_input = lstm.forward_layer_0.input_linearity.weight.detach().numpy()
    numpy.testing.assert_array_equal(torch_input[2 * cell : 3 * cell], tf_input[cell : 2 * cell])


def test_wrong_shapes_and_missing_datasets_are_refused(tmp_path):
    options = tiny_options()
    weights = random_weights(options)
    weights["CNN_proj/W_proj"] = numpy.zeros((3, 3), dtype=numpy.float32)
    with pytest.raises(ValueError, match=r"CNN_proj/W_proj: expected shape \(28, 16\), got \(3, 3\)"):
        write_elmo_files(options, weights, tmp_path / "o.json", tmp_path / "w.hdf5")
    del weights["char_embed"]
    with pytest.raises(ValueError, match=r"missing \['char_embed'\]"):
        write_elmo_files(options, weights, tmp_path / "o.json", tmp_path / "w.hdf5")


def test_the_bundled_biLM_loads_and_matches_its_options():
    bundled = ROOT / "bundled" / "bilm"
    options = json.loads((bundled / "options.json").read_text())
    assert _dataset_shapes(bundled / "weights.hdf5") == weight_layout(options)
    elmo = Elmo(str(bundled / "options.json"), str(bundled / "weights.hdf5"), 1)
    assert elmo.get_output_dim() == 2 * options["lstm"]["projection_dim"]


@pytest.mark.skipif(
    not (SHARED_DATA / "elmo_reference").is_dir(),
    reason=f"no ELMo reference files at {SHARED_DATA}/elmo_reference (set SHARED_DATA_DIR)",
)
def test_layout_matches_the_original_reference_weight_file():
    reference = SHARED_DATA / "elmo_reference"
    options = json.loads((reference / "options.json").read_text())
    assert _dataset_shapes(reference / "lm_weights.hdf5") == weight_layout(options)
