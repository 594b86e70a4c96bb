"""The biLM the suite ships: small enough for the repository, in the layout AllenNLP's `Elmo` reads."""

import json

import h5py
import torch
from allennlp.modules.elmo import Elmo, batch_to_ids

from tasks.bilm.weight_file import weight_layout
from tasks.environment import BUNDLED_BILM, bundled_bilm_description

OPTIONS, WEIGHTS = BUNDLED_BILM / "options.json", BUNDLED_BILM / "weights.hdf5"


def test_the_bundled_weight_file_fits_the_repository_budget():
    assert WEIGHTS.stat().st_size <= 20 * 1024 * 1024


def test_every_weight_the_options_call_for_is_there_with_its_shape():
    expected = weight_layout(json.loads(OPTIONS.read_text(encoding="utf-8")))
    with h5py.File(WEIGHTS, "r") as weight_file:
        found = {}
        weight_file.visititems(
            lambda name, item: found.update({name: item.shape}) if isinstance(item, h5py.Dataset) else None
        )
    assert found == expected


def test_allennlp_elmo_reads_it_and_its_vectors_depend_on_the_context():
    elmo = Elmo(str(OPTIONS), str(WEIGHTS), num_output_representations=1, dropout=0.0)
    sentences = [["The", "bank", "raised", "its", "rates", "."], ["She", "sat", "on", "the", "river", "bank", "."]]
    vectors = elmo(batch_to_ids(sentences))["elmo_representations"][0]
    assert vectors.shape == (2, 7, 2 * 128)
    first_bank, second_bank = vectors[0, 1], vectors[1, 5]
    assert not torch.allclose(first_bank, second_bank, atol=1e-3)


def test_the_log_names_what_the_bundled_bilm_is():
    assert "LitBank" in bundled_bilm_description()
