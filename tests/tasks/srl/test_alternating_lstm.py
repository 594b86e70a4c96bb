"""The fast interleaved highway LSTM computes AllenNLP's `alternating_lstm`: outputs, gradients, dropout."""

import pytest
import torch
from allennlp.common import Params
from allennlp.modules.seq2seq_encoders import Seq2SeqEncoder

from tasks.srl.alternating_lstm import FastAlternatingLstm

SETTINGS = {"input_size": 7, "hidden_size": 5, "num_layers": 4, "recurrent_dropout_probability": 0.1}


def _pair(**settings):
    theirs = Seq2SeqEncoder.from_params(Params({"type": "alternating_lstm", **SETTINGS, **settings}))
    ours = Seq2SeqEncoder.from_params(Params({"type": "fast_alternating_lstm", **SETTINGS, **settings}))
    ours.load_state_dict(theirs.state_dict())  # the same parameter names
    return theirs, ours


def _batch(lengths, width=9):
    generator = torch.Generator().manual_seed(0)
    inputs = torch.randn(len(lengths), width, SETTINGS["input_size"], generator=generator)
    mask = torch.arange(width).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)
    return inputs * mask.unsqueeze(-1), mask


def _run(encoder, inputs, mask, seed):
    torch.manual_seed(seed)  # the recurrent dropout masks
    inputs = inputs.clone().requires_grad_()
    output = encoder(inputs, mask)
    (output * torch.linspace(-1, 1, output.numel()).view_as(output)).sum().backward()
    return output, inputs.grad, {name: parameter.grad for name, parameter in encoder.named_parameters()}


@pytest.mark.parametrize("use_highway", [True, False])
@pytest.mark.parametrize("training", [True, False])
def test_outputs_and_gradients_are_allennlps(use_highway, training):
    theirs, ours = _pair(use_highway=use_highway)
    theirs.train(training), ours.train(training)
    inputs, mask = _batch([6, 9, 2, 6, 1, 4])  # unsorted, ties, padding past the longest (9 of 9 is none)
    inputs, mask = torch.cat([inputs, inputs.new_zeros(6, 3, 7)], 1), torch.cat([mask, mask.new_zeros(6, 3)], 1)
    expected_output, expected_input_grad, expected_grads = _run(theirs, inputs, mask, seed=3)
    output, input_grad, grads = _run(ours, inputs, mask, seed=3)
    torch.testing.assert_close(output, expected_output, atol=1e-5, rtol=0)
    assert output[~mask].abs().max() == 0
    torch.testing.assert_close(input_grad, expected_input_grad, atol=1e-5, rtol=0)
    assert grads.keys() == expected_grads.keys()
    for name, grad in grads.items():
        torch.testing.assert_close(grad, expected_grads[name], atol=1e-5, rtol=1e-5, msg=name)


def test_the_same_seed_builds_the_same_parameters():
    torch.manual_seed(11)
    theirs = Seq2SeqEncoder.from_params(Params({"type": "alternating_lstm", **SETTINGS}))
    torch.manual_seed(11)
    ours = FastAlternatingLstm(**SETTINGS)
    for (name, expected), (other, parameter) in zip(theirs.named_parameters(), ours.named_parameters()):
        assert name == other
        assert torch.equal(parameter, expected), name
