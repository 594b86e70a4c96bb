"""The arithmetic of scripts/benchmark_elmo.py and the attribution of scripts/profile_elmo.py, on a tiny biLM."""

import json

import pytest
from allennlp.modules.elmo import batch_to_ids

from benchmark_elmo import build, extrapolate, write_random_original_bilm
from profile_elmo import PARTS, profile
from tasks.bilm.weight_file import tiny_options

SENTENCES = [
    ["The", "cat", "sat", "."],
    ["Dogs", "bark", "at", "night", "in", "Leeds", "."],
    ["Hello", "!"],
    ["A", "b"],
]


def test_the_75_epoch_run_counts_the_biLM_once_with_the_cache():
    ner = {
        "allennlp_elmo": {"epoch_seconds": [10.0, 12.0, 11.0]},
        "fast_elmo_no_cache": {"epoch_seconds": [5.0, 6.0]},
        "fast_elmo_empty_cache": {"epoch_seconds": [4.0, 1.0]},
        "elmo_cache_fill": {"process_seconds": 7.0},
        "fast_elmo_cached": {"epoch_seconds": [1.0, 2.0, 1.0]},
    }
    run = extrapolate(ner, "epoch_seconds", total_epochs=75)
    assert run["allennlp"] == 75 * 11.0  # the median epoch, every epoch
    assert run["cache_filled_by_first_epoch"] == 4.0 + 74 * 1.0
    assert run["cache_filled_by_elmo_cache"] == 7.0 + 75 * 1.0
    assert run["speed_up_cached_epoch"] == 11.0
    assert run["speed_up_no_cache_epoch"] == 11.0 / 5.5
    assert run["speed_up_whole_run"] == pytest.approx(825 / 78)


@pytest.mark.parametrize("implementation", ["allennlp", "ours_zero"])
def test_the_profile_reaches_every_part_of_both_implementations(tmp_path, implementation):
    # Clipped, as the original model is: unclipped LSTMs run torch's fused kernel, whose products
    # are not the ones the profile times one by one.
    options = tmp_path / "tiny_options.json"
    options.write_text(json.dumps(tiny_options()), encoding="utf-8")
    files = write_random_original_bilm(tmp_path, options)
    batches = [batch_to_ids(SENTENCES[:2]), batch_to_ids(SENTENCES[2:]), batch_to_ids(SENTENCES)]
    seconds = profile(build(implementation, files), batches)
    for part in ("character CNN", "highway", "LSTM input products", "LSTM recurrent products", "LSTM projection"):
        assert seconds[part] > 0, f"{part} was not timed in {implementation}"
    assert sum(seconds[part] for part in PARTS) == pytest.approx(seconds["total"])
