"""The biLM's layers: padding left out of the character encoder, the two directions computed together."""

import torch
from allennlp.modules.elmo import batch_to_ids

from tasks.bilm.modules import LstmStack, _stacked, paired_inference, reverse_padded, share_direction_storage


def test_character_encoder_skips_padding_positions_without_changing_its_output(random_bilm, monkeypatch):
    encoder = random_bilm.character_encoder
    # A 60-character word is cut to ELMo's 50; the short ones leave most positions to padding.
    ids = batch_to_ids([["a", "mid-sized", "x" * 60], ["tiny"]])
    with torch.no_grad():
        trimmed = encoder(ids)
        short_words_only = encoder(ids[1:, :1])
        monkeypatch.setattr(encoder, "_trim_padding", lambda character_ids: character_ids)
        every_position = encoder(ids)
    torch.testing.assert_close(trimmed, every_position, atol=0, rtol=0)
    torch.testing.assert_close(
        short_words_only, every_position[1:, :1], atol=1e-6, rtol=0
    )  # other batch shape: other BLAS order


def test_paired_inference_computes_what_each_direction_computes_alone():
    """Both directions in one batched time loop over packed tokens: the step-by-step stacks' values and states."""
    torch.manual_seed(3)
    lstm = {
        "dim": 24,
        "projection_dim": 8,
        "n_layers": 2,
        "cell_clip": 0.5,
        "proj_clip": 0.4,
        "use_skip_connections": True,
    }
    stacks = torch.nn.ModuleList(LstmStack(lstm) for _ in range(2))
    inputs = torch.randn(4, 6, 8)
    mask = torch.arange(6).unsqueeze(0) < torch.tensor([[3], [6], [1], [5]])
    inputs = inputs * mask.unsqueeze(-1)
    backward_inputs = reverse_padded(inputs, mask.sum(dim=1))
    states = [[(torch.randn(4, 8), torch.randn(4, 24)) for _ in range(2)] for _ in range(2)]
    expected = [
        stacks[0](inputs, mask, states[0]),
        stacks[1](backward_inputs, mask, states[1]),
    ]  # with gradient: step by step
    with torch.no_grad():
        forward_layers, backward_layers, forward_states, backward_states = paired_inference(
            stacks, inputs, backward_inputs, mask, states
        )
    for (layers, final), paired_layers, paired_states in zip(
        expected, (forward_layers, backward_layers), (forward_states, backward_states)
    ):
        for layer, paired in zip(layers, paired_layers):
            assert torch.allclose(layer, paired, atol=1e-6)
            assert not paired[~mask].any()  # zero on padding
        for (hidden, memory), (paired_hidden, paired_memory) in zip(final, paired_states):
            assert torch.allclose(hidden, paired_hidden, atol=1e-6) and torch.allclose(memory, paired_memory, atol=1e-6)


def test_shared_direction_storage_is_used_without_a_copy_and_follows_loaded_weights():
    lstm = {"dim": 12, "projection_dim": 4, "n_layers": 1, "cell_clip": 3, "proj_clip": 3}
    stacks = torch.nn.ModuleList(LstmStack(lstm) for _ in range(2))
    new_values = {name: torch.randn_like(value) for name, value in stacks.state_dict().items()}
    share_direction_storage(stacks)
    pair = (stacks[0].layers[0], stacks[1].layers[0])
    assert _stacked(pair, "weight_hh_l0") is pair[0].direction_pair_weights["weight_hh_l0"]
    stacks.load_state_dict(new_values)  # in place, into the shared storage
    assert torch.equal(_stacked(pair, "weight_hh_l0")[1], new_values["1.layers.0.lstm.weight_hh_l0"])
    stacks[1].layers[0].lstm.weight_hh_l0.data = torch.zeros(48, 4)  # no longer shared: a copy, with the new values
    assert not _stacked(pair, "weight_hh_l0")[1].any()
