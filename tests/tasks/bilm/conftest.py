"""Fixtures of the biLM tests."""

import json

import pytest
import torch
from allennlp.data import Vocabulary

from tasks.bilm.model import BidirectionalLm
from tasks.bilm.weight_file import tiny_options
from tests.helpers.bilm_options import unclipped


@pytest.fixture(params=["clipped", "unclipped"])
def random_bilm(tmp_path, request):
    """
    A trainable biLM of tiny options, with and without clipping, its weights drawn large enough for
    every gate to matter.
    """
    options = tiny_options() if request.param == "clipped" else unclipped(tiny_options())
    (tmp_path / "options.json").write_text(json.dumps(options))
    torch.manual_seed(0)
    model = BidirectionalLm(Vocabulary({"tokens": {"a": 3, "b": 2}}), str(tmp_path / "options.json")).eval()
    with torch.no_grad():  # larger than the default initialisation, so every gate and clip matters
        for parameter in model.parameters():
            parameter.uniform_(-0.5, 0.5)
    return model
