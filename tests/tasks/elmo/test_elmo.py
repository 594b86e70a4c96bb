"""ELMo over our frozen biLM: AllenNLP's outputs, determinism, the activation cache, the paper's switches."""

import multiprocessing
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.modules.elmo import Elmo, _ElmoBiLm, batch_to_ids
from allennlp.modules.token_embedders import TokenEmbedder
from allennlp.nn.util import remove_sentence_boundaries

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files
from tasks.elmo import FrozenBilm, PaperElmo
from tasks.elmo.cache import sentence_key
from tests.helpers.bilm_options import unclipped

BATCHES = [
    [["The", "cat", "sat", "."], ["Hello"], ["A", "longer", "sentence", "than", "the", "first", "one", "!"]],
    [["Another", "batch"], ["of", "two", "sentences"]],
    [["Four"], ["rows", "this"], ["time", "round", "."], ["The", "cat", "sat", "."]],
    [["One", "row"]],
]


def _representations(elmo, batch):
    with torch.no_grad():
        return elmo(batch_to_ids(batch))["elmo_representations"][0]


@pytest.mark.parametrize("clipped", [True, False])
def test_carried_state_reproduces_allennlp_batch_after_batch(tmp_path, clipped):
    options = tiny_options() if clipped else unclipped(tiny_options())  # unclipped: the fused LSTM path
    write_elmo_files(options, random_weights(options, seed=3), tmp_path / "options.json", tmp_path / "weights.hdf5")
    files = str(tmp_path / "options.json"), str(tmp_path / "weights.hdf5")
    allennlp_elmo = Elmo(*files, 1, dropout=0.0)
    ours = PaperElmo(*files, dropout=0.0, lstm_state="carried")
    for batch in BATCHES:  # batch sizes 3, 2, 4, 1: the carried state grows and is partly kept
        torch.testing.assert_close(
            _representations(ours, batch), _representations(allennlp_elmo, batch), atol=1e-5, rtol=0
        )


@pytest.mark.parametrize("clipped", [True, False])
def test_carried_state_is_allennlps_to_rounding_over_many_mixed_batches(tmp_path, clipped):
    """
    In float64, where rounding cannot grow to the tolerance, over 30 batches of 1 to 8 sentences of
    1 to 20 words: every row's state is carried, kept when a batch is shorter, and started from zero
    when a batch is longer, as AllenNLP's stateful `_ElmoBiLm` does.
    """
    options = tiny_options() if clipped else unclipped(tiny_options())
    write_elmo_files(options, random_weights(options, seed=5), tmp_path / "options.json", tmp_path / "weights.hdf5")
    files = str(tmp_path / "options.json"), str(tmp_path / "weights.hdf5")
    generator = random.Random(7)
    words = "the cat sat on a mat while it rained over London and Paris".split()
    batches = [
        [[generator.choice(words) for _ in range(generator.randint(1, 20))] for _ in range(generator.randint(1, 8))]
        for _ in range(30)
    ]
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        theirs = _ElmoBiLm(*files).double().eval()
        ours = FrozenBilm(*files, lstm_state="carried").eval()
        with torch.no_grad():
            for batch in batches:
                ids = batch_to_ids(batch)
                for got, expected in zip(ours(ids)["activations"], theirs(ids)["activations"]):
                    torch.testing.assert_close(got, expected, atol=1e-12, rtol=0)
    finally:
        torch.set_default_dtype(previous)


@pytest.mark.parametrize("lstm_state", ["zero", "warm_up"])
def test_a_sentence_gets_the_same_vectors_whatever_its_batch(tiny_elmo, lstm_state):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, lstm_state=lstm_state)
    alone = _representations(elmo, [["The", "cat", "sat", "."]])[0]
    for _ in range(2):  # repeated: no state is carried from the previous call
        in_company = _representations(elmo, BATCHES[2])[3]
        torch.testing.assert_close(in_company, alone, atol=1e-6, rtol=0)


def test_warm_up_state_differs_from_zero(tiny_elmo):
    zero = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0)
    warm = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, lstm_state="warm_up")
    assert (_representations(zero, BATCHES[0]) - _representations(warm, BATCHES[0])).abs().max() > 1e-3


def test_cache_hits_return_the_stored_values_and_changed_weights_miss(tmp_path, tiny_elmo):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, cache_directory=str(tmp_path))
    uncached = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0)
    first = _representations(elmo, BATCHES[0])
    assert (elmo.bilm.cache.hits, elmo.bilm.cache.misses) == (0, 3)
    torch.testing.assert_close(first, _representations(uncached, BATCHES[0]), atol=2e-3, rtol=2e-3)  # float16
    again = _representations(elmo, BATCHES[2])  # "The cat sat ." was stored by the first batch
    assert (elmo.bilm.cache.hits, elmo.bilm.cache.misses) == (1, 6)
    torch.testing.assert_close(again[3, :4], first[0, :4], atol=0, rtol=0)

    options = tiny_options()
    write_elmo_files(options, random_weights(options, seed=99), tmp_path / "o.json", tmp_path / "w.hdf5")
    retrained = PaperElmo(
        str(tmp_path / "o.json"), str(tmp_path / "w.hdf5"), dropout=0.0, cache_directory=str(tmp_path)
    )
    changed = _representations(retrained, BATCHES[0])
    assert (retrained.bilm.cache.hits, retrained.bilm.cache.misses) == (0, 3)
    assert (changed - first).abs().max() > 1e-2


def test_checkpoints_keep_the_frozen_weights_digest_not_the_weights(tmp_path, tiny_elmo):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0)
    with torch.no_grad():
        elmo.scalar_mix_0.gamma.fill_(2.5)
    state = elmo.state_dict()
    assert not any(name.startswith("_elmo_lstm.") and name != "_elmo_lstm.weights_sha256" for name in state)
    assert bytes(state["_elmo_lstm.weights_sha256"].tolist()).hex() == elmo.bilm.weights_sha256
    assert state["scalar_mix_0.gamma"].item() == 2.5  # what trains is saved
    restored = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0)
    restored.load_state_dict(state)  # strict: the weights come from the file
    torch.testing.assert_close(
        _representations(restored, BATCHES[0]), _representations(elmo, BATCHES[0]), atol=0, rtol=0
    )
    # a state dict saved with the weights (the suite's earlier checkpoints) loads as before
    full = {
        **{k: v for k, v in state.items() if k != "_elmo_lstm.weights_sha256"},
        **{f"_elmo_lstm.{name}": value for name, value in elmo.bilm.named_parameters()},
    }
    PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0).load_state_dict(full)

    options = tiny_options()
    write_elmo_files(options, random_weights(options, seed=99), tmp_path / "o.json", tmp_path / "w.hdf5")
    other = PaperElmo(str(tmp_path / "o.json"), str(tmp_path / "w.hdf5"), dropout=0.0)
    with pytest.raises(ConfigurationError, match=r"trained over a biLM weight file with sha256 .*w\.hdf5 has sha256"):
        other.load_state_dict(state)


def test_a_fine_tuned_biLM_saves_its_weights(tiny_elmo):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, requires_grad=True)
    state = elmo.state_dict()
    assert "_elmo_lstm.weights_sha256" not in state
    assert {f"_elmo_lstm.{name}" for name, _ in elmo.bilm.named_parameters()} <= state.keys()


def test_float32_cache_stores_exact_values(tmp_path, tiny_elmo):
    cached = PaperElmo(
        str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, cache_directory=str(tmp_path), cache_dtype="float32"
    )
    uncached = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0)
    _representations(cached, BATCHES[0])
    torch.testing.assert_close(
        _representations(cached, BATCHES[0]), _representations(uncached, BATCHES[0]), atol=1e-6, rtol=0
    )
    assert cached.bilm.cache.hits == 3


def _fill_cache(files, directory, batch):
    elmo = PaperElmo(*files, dropout=0.0, cache_directory=directory)
    return _representations(elmo, batch).numpy()


def test_two_processes_share_one_cache(tmp_path, tiny_elmo):
    files = (str(tiny_elmo[0]), str(tiny_elmo[1]))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.starmap(_fill_cache, [(files, str(tmp_path), BATCHES[0]), (files, str(tmp_path), BATCHES[2])])
    reader = PaperElmo(*files, dropout=0.0, cache_directory=str(tmp_path))
    _representations(reader, BATCHES[0] + BATCHES[2])
    assert (reader.bilm.cache.hits, reader.bilm.cache.misses) == (7, 0)
    assert len(reader.bilm.cache) == 6  # "The cat sat ." is in both batches, stored once


def test_one_cached_elmo_serves_any_thread(tmp_path, tiny_elmo):
    """A server runs a shared model from its request threads: each thread reads and fills the one cache."""
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), dropout=0.0, cache_directory=str(tmp_path))
    first = _representations(elmo, BATCHES[0])
    with ThreadPoolExecutor(max_workers=1) as other_thread:
        again, filled = other_thread.submit(lambda: [_representations(elmo, b) for b in BATCHES[:2]]).result()
    torch.testing.assert_close(again, first, atol=0, rtol=0)
    assert (elmo.bilm.cache.hits, elmo.bilm.cache.misses) == (3, 5)
    torch.testing.assert_close(_representations(elmo, BATCHES[1]), filled, atol=0, rtol=0)


def test_cache_refuses_states_that_depend_on_the_batch(tmp_path, tiny_elmo):
    with pytest.raises(ConfigurationError, match="activation cache needs a frozen biLM"):
        PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), lstm_state="carried", cache_directory=str(tmp_path))


def test_top_layer_only_keeps_gamma_trainable(tiny_elmo):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), num_output_representations=2, layers="top", dropout=0.0)
    trainable = sorted(name for name, parameter in elmo.named_parameters() if parameter.requires_grad)
    assert trainable == ["scalar_mix_0.gamma", "scalar_mix_1.gamma"]
    top = _representations(elmo, BATCHES[0])
    with torch.no_grad():
        bilm_output = elmo.bilm(batch_to_ids(BATCHES[0]))
    top_layer, _ = remove_sentence_boundaries(bilm_output["activations"][-1], bilm_output["mask"])
    torch.testing.assert_close(top, top_layer, atol=1e-6, rtol=0)


def test_all_layers_mix_is_learned_and_biLM_frozen(tiny_elmo):
    elmo = PaperElmo(str(tiny_elmo[0]), str(tiny_elmo[1]), num_output_representations=2)
    trainable = sorted(name for name, parameter in elmo.named_parameters() if parameter.requires_grad)
    assert trainable == [
        f"scalar_mix_{k}.{name}"
        for k in (0, 1)
        for name in ("gamma", "scalar_parameters.0", "scalar_parameters.1", "scalar_parameters.2")
    ]


@pytest.mark.parametrize("layers", ["all", "top"])
def test_initial_gamma_scales_every_mix_and_stays_trainable(tiny_elmo, layers):
    options, weights = str(tiny_elmo[0]), str(tiny_elmo[1])
    unscaled = PaperElmo(options, weights, num_output_representations=2, layers=layers, dropout=0.0)
    small = PaperElmo(options, weights, num_output_representations=2, layers=layers, dropout=0.0, initial_gamma=0.1)
    assert [mix.gamma.item() for mix in small._scalar_mixes] == pytest.approx([0.1, 0.1])
    assert all(mix.gamma.requires_grad for mix in small._scalar_mixes)
    with torch.no_grad():
        pairs = zip(*(elmo(batch_to_ids(BATCHES[0]))["elmo_representations"] for elmo in (unscaled, small)))
        for one, tenth in pairs:
            torch.testing.assert_close(tenth, 0.1 * one, atol=1e-6, rtol=1e-5)


def test_fast_elmo_takes_the_keys_of_allennlps_token_embedder(tiny_elmo, tmp_path):
    params = {
        "options_file": str(tiny_elmo[0]),
        "weight_file": str(tiny_elmo[1]),
        "do_layer_norm": True,
        "dropout": 0.0,
        "requires_grad": False,
        "projection_dim": 7,
    }
    ours = TokenEmbedder.from_params(Params({"type": "fast_elmo", **params, "cache_directory": str(tmp_path)}))
    theirs = TokenEmbedder.from_params(Params({"type": "elmo_token_embedder", **params}))
    assert ours.get_output_dim() == theirs.get_output_dim() == 7
    ours._projection.load_state_dict(theirs._projection.state_dict())
    ids = batch_to_ids(BATCHES[0])
    with torch.no_grad():  # one batch from the zero state: the same for both
        torch.testing.assert_close(ours(ids), theirs(ids), atol=1e-2, rtol=1e-2)  # cache stores float16
    with pytest.raises(ConfigurationError, match="vocab_to_cache"):
        TokenEmbedder.from_params(Params({"type": "fast_elmo", **params, "vocab_to_cache": ["a"]}))


def test_two_caches_filling_the_same_sentences_at_once_store_each_once(tmp_path, tiny_elmo):
    """Two trainings looked up a batch, both missed, both computed: the second to store finds it stored."""
    files = (str(tiny_elmo[0]), str(tiny_elmo[1]))
    first, second = (PaperElmo(*files, dropout=0.0, cache_directory=str(tmp_path)) for _ in range(2))
    character_ids = batch_to_ids(BATCHES[0])
    lengths = (character_ids > 0).any(dim=-1).sum(dim=1).tolist()
    keys = [sentence_key(row[:length]) for row, length in zip(character_ids, lengths)]
    for elmo in (first, second):
        assert elmo.bilm.cache._lookup(keys) == {}
    with torch.no_grad():
        computed = first.bilm._compute(character_ids)
    first.bilm.cache._store(keys, lengths, computed)
    size = first.bilm.cache._data_path.stat().st_size
    stored = second.bilm.cache._store(keys, lengths, computed)
    assert second.bilm.cache._data_path.stat().st_size == size  # nothing appended twice
    assert len(second.bilm.cache) == 3 and set(stored) == set(keys)
