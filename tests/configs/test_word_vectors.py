"""
With pretrained word vectors (`*_WORD_VECTORS`), a word seen only in dev or test that the vectors
know is in the vocabulary and gets its pretrained vector, in every task that takes word vectors;
without vectors the vocabulary is the training split's. The vectors' size and lowercasing are read
from the file. On each task's bundled sample.
"""

import json
from pathlib import Path

import pytest
import torch
from allennlp.common import Params
from allennlp.models import Model
from allennlp.modules.token_embedders import Embedding
from allennlp.training.util import make_vocab_from_params

from tasks.environment import word_vectors_variables
from tests.helpers.repository import ROOT

# Every config with a `*_WORD_VECTORS` variable, and that variable.
CONFIGS = {
    "configs/ner_baseline.jsonnet": "NER_WORD_VECTORS",
    "configs/sst_baseline.jsonnet": "SST_WORD_VECTORS",
    "configs/snli_baseline.jsonnet": "SNLI_WORD_VECTORS",
    "configs/squad_baseline.jsonnet": "SQUAD_WORD_VECTORS",
    "configs/squad_bidaf_baseline.jsonnet": "SQUAD_WORD_VECTORS",
    "configs/coref_baseline.jsonnet": "COREF_WORD_VECTORS",
    "configs/srl_baseline.jsonnet": "SRL_WORD_VECTORS",
    "configs/srl_predicates.jsonnet": "SRL_WORD_VECTORS",
}


def test_every_config_that_reads_word_vectors_is_listed(monkeypatch):
    """
    Every config whose embedder takes a `pretrained_file` once the vectors variables are set (ELMo
    and ablation variants aside).
    """
    for variable in set(CONFIGS.values()):
        for name, value in {variable: "/vectors.txt", f"{variable}_DIM": "7", f"{variable}_LOWERCASE": "true"}.items():
            monkeypatch.setenv(name, value)
    reading = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "configs").glob("*.jsonnet")
        if '"pretrained_file"' in json.dumps(Params.from_file(str(path)).as_dict(quiet=True))
    }
    assert {config for config in reading if "_elmo" not in config} == set(CONFIGS)


def _point_at_vectors(monkeypatch, variable: str, path) -> None:
    """Sets `variable`, and what the suite reads from the file when it loads (size, lowercasing)."""
    monkeypatch.setenv(variable, str(path))
    for name, value in word_vectors_variables(variable, str(path)).items():
        monkeypatch.setenv(name, value)


def _vocabulary(config: str, tmp_path: Path, name: str, **overrides):
    """The vocabulary `allennlp train` builds, the params left, and the splits it was built from."""
    params = Params.from_file(str(ROOT / config), params_overrides=overrides or "")
    splits = params.get("datasets_for_vocab_creation")
    return make_vocab_from_params(params, tmp_path / name), params, splits


def _word_embedding_dim(params: Params) -> int:
    """The `embedding_dim` of the config's `tokens` embedder (the one that takes `pretrained_file`)."""
    return params.as_dict(quiet=True)["model"]["text_field_embedder"]["token_embedders"]["tokens"]["embedding_dim"]


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_dev_and_test_words_the_vectors_know_get_their_vectors(config, tmp_path, monkeypatch):
    variable = CONFIGS[config]
    _point_at_vectors(monkeypatch, variable, "")
    monkeypatch.setenv("TRAIN_LIMIT", "3")  # so that dev holds words the training part lacks
    train_only, params, splits = _vocabulary(config, tmp_path, "train")
    assert splits == ["train"]
    held_out, _, _ = _vocabulary(config, tmp_path, "held_out", datasets_for_vocab_creation=["validation"])
    unseen = sorted(
        word
        for word in held_out.get_token_to_index_vocabulary("tokens")
        if word not in train_only.get_token_to_index_vocabulary("tokens")
    )[:3]
    assert unseen, f"the bundled sample's dev split of {config} has no word its first training instances lack"
    dim = 7  # any size: the config takes the file's
    vectors = {
        word: [round(0.01 * (index + 1) * (position + 1), 4) for position in range(dim)]
        for index, word in enumerate(unseen)
    }
    vectors_file = tmp_path / "vectors.txt"
    vectors_file.write_text(
        "".join(f"{word} {' '.join(map(str, values))}\n" for word, values in vectors.items()), encoding="utf-8"
    )
    _point_at_vectors(monkeypatch, variable, vectors_file)
    assert _word_embedding_dim(Params.from_file(str(ROOT / config))) == dim
    vocab, params, splits = _vocabulary(config, tmp_path, "with_vectors")
    assert "validation" in splits
    for word in unseen:
        assert vocab.get_token_index(word, "tokens") != vocab.get_token_index("@@UNKNOWN@@", "tokens"), word
    model = Model.from_params(vocab=vocab, params=params.pop("model"))
    (embedding,) = [module for module in model.modules() if isinstance(module, Embedding) and module._pretrained_file]
    for word, values in vectors.items():
        row = embedding.weight[vocab.get_token_index(word, "tokens")]
        assert torch.allclose(row, torch.tensor(values)), word
