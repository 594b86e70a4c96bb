"""The SQuAD model and its span decoding, the predictor, and every SQuAD config as shipped."""

from pathlib import Path

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Batch, DatasetReader, Vocabulary
from allennlp.models import Model

from tasks.squad.bidaf import BidafSquadV1
from tasks.squad.model import BidafSelfAttention
from tasks.squad.predictor import SquadAnswererPredictor
from tasks.squad.spans import best_spans
from tests.helpers.repository import ROOT
from tests.helpers.squad_data import write_squad

CONFIGS = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("configs/**/squad_*.jsonnet"))


@pytest.fixture
def squad_environment(tmp_path, tiny_elmo, monkeypatch):
    """Every SQuAD and ELMo variable pointed at the tiny fixtures."""
    squad = write_squad(tmp_path / "tiny_squad.json")
    monkeypatch.setenv("SQUAD_TRAIN_DATA", str(squad))
    monkeypatch.setenv("SQUAD_DEV_DATA", str(squad))
    monkeypatch.setenv("SQUAD_WORD_VECTORS", "")
    monkeypatch.setenv("ELMO_OPTIONS_FILE", str(tiny_elmo[0]))
    monkeypatch.setenv("ELMO_WEIGHT_FILE", str(tiny_elmo[1]))
    return squad


def _built(config: str, squad: Path):
    """The config's params (less the built parts), reader, its instances of `squad`, and the model."""
    params = Params.from_file(str(ROOT / config))
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    instances = list(reader.read(squad))
    vocab = Vocabulary.from_instances(instances)
    return params, reader, instances, Model.from_params(vocab=vocab, params=params.pop("model"))


def _tensors(instances, model):
    batch = Batch(instances)
    batch.index_instances(model.vocab)
    return batch.as_tensor_dict()


def test_the_shipped_configs_are_all_found():
    assert len(CONFIGS) == 10  # elmo, baseline, bidaf baseline, Tables 2 and 3's six ablations and gamma_1


@pytest.mark.parametrize("config", CONFIGS)
def test_every_config_builds_its_model_which_answers_within_the_passage(config, squad_environment):
    params, _, instances, model = _built(config, squad_environment)
    model.eval()
    output = model(**_tensors(instances, model))
    assert output["loss"].item() > 0
    for (start, end), instance in zip(output["best_span"].tolist(), instances):
        assert 0 <= start <= end < len(instance["passage"].tokens)
    metrics = model.get_metrics(reset=True)
    assert 0.0 <= metrics["em"] <= metrics["f1"] <= 1.0
    trainer = params["trainer"].as_dict()
    if "bidaf" in config:
        assert isinstance(model, BidafSquadV1)
    else:
        assert isinstance(model, BidafSelfAttention)
        assert trainer["optimizer"] == {"type": "adadelta", "lr": 1.0, "rho": 0.95, "eps": 1e-8}
        assert trainer["moving_average"] == {"type": "resumable_exponential", "decay": 0.999}
        assert params["data_loader"]["batch_sampler"]["batch_size"] == 45


@pytest.mark.parametrize(
    "config, at_input, at_output",
    [
        ("configs/squad_baseline.jsonnet", False, False),
        ("configs/squad_elmo.jsonnet", True, True),
        ("configs/ablations/squad_input_only.jsonnet", True, False),
        ("configs/ablations/squad_input_and_output.jsonnet", True, True),
        ("configs/ablations/squad_output_only.jsonnet", False, True),
    ],
)
def test_where_elmo_enters_sets_the_layer_sizes(config, at_input, at_output, squad_environment, tiny_elmo):
    _, _, _, model = _built(config, squad_environment)
    elmo_dim = 2 * 16  # the tiny biLM's projection, both directions
    words_and_characters = 300 + 100
    gru = 2 * 90
    assert model._contextual_encoder.get_input_dim() == words_and_characters + (elmo_dim if at_input else 0)
    encoding = gru + (elmo_dim if at_output else 0)
    assert model._bi_attention._weight_vector.numel() == 3 * encoding  # w·[p; q; p⊙q]
    assert model._attention_projection.in_features == 4 * encoding
    assert model._attention_projection.out_features == 180
    assert model._self_attention_projection.in_features == 3 * 180
    assert model._span_end_encoder.get_input_dim() == 180 + 180
    uses_elmo = at_input or at_output
    assert (model._elmo is not None) == uses_elmo
    if uses_elmo:
        assert len(model._elmo._scalar_mixes) == int(at_input) + int(at_output)


@pytest.mark.parametrize(
    "config, gamma",
    [("configs/squad_elmo.jsonnet", 0.1), ("configs/ablations/squad_gamma_1.jsonnet", 1.0)],
)
def test_gamma_starts_at_0_1_but_in_the_papers_own_setting(config, gamma, squad_environment, tiny_elmo):
    _, _, _, model = _built(config, squad_environment)
    assert [mix.gamma.item() for mix in model._elmo._scalar_mixes] == pytest.approx([gamma, gamma])


def test_decoding_keeps_answers_within_the_span_limit():
    start = torch.full((1, 30), -10.0)
    end = torch.full((1, 30), -10.0)
    start[0, 2] = 5.0
    end[0, 25] = 5.0  # the best span overall: 2..25, 24 tokens
    end[0, 18] = 3.0  # the best within 17 tokens: 2..18
    end[0, 1] = 9.0  # ends before the best start: never chosen with it
    spans, scores = best_spans(start, end, max_span_length=17)
    assert spans.tolist() == [[2, 18]] and scores.tolist() == [8.0]
    assert best_spans(start, end, max_span_length=None)[0].tolist() == [[2, 25]]
    assert best_spans(start, end, max_span_length=1)[0].tolist() == [[1, 1]]  # single tokens: 9 - 10 beats 5 - 10


class _PositionScores(torch.nn.Module):
    """Scores each passage position by its index times `slope`: a stand-in for a span predictor."""

    def __init__(self, slope: float) -> None:
        super().__init__()
        self.slope = slope

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(states.size(1), dtype=states.dtype).expand(states.size(0), -1)
        return (self.slope * positions).unsqueeze(-1)


def test_the_model_never_predicts_more_than_17_tokens(squad_environment):
    _, _, instances, model = _built("configs/squad_baseline.jsonnet", squad_environment)
    # Starts score best at the first token, ends at the last: unlimited, the answer would be the whole passage.
    model._span_start_predictor = _PositionScores(-1.0)
    model._span_end_predictor = _PositionScores(1.0)
    output = model.eval()(**_tensors(instances, model))
    lengths = [len(instance["passage"].tokens) for instance in instances]
    assert max(lengths) > 17
    for (start, end), length in zip(output["best_span"].tolist(), lengths):
        assert start == 0 and end == min(length, 17) - 1


def test_the_predictor_answers_raw_text_with_character_offsets(squad_environment):
    for config in ("configs/squad_elmo.jsonnet", "configs/squad_bidaf_baseline.jsonnet"):
        _, reader, _, model = _built(config, squad_environment)
        predictor = SquadAnswererPredictor(model.eval(), reader)
        passage = "The Grey Heron was a schooner built in Ostrick in 1871."
        answer = predictor.predict_json({"passage": passage, "question": "Where was the Grey Heron built?"})
        assert set(answer) == {"answer", "start", "end", "token_start", "token_end", "score", "alternatives"}
        assert passage[answer["start"] : answer["end"]] == answer["answer"]
        assert 0.0 < answer["score"] <= 1.0
        # the next best spans: three, each its own span of at most 17 tokens, less probable, best first
        spans = [answer] + answer["alternatives"]
        assert len(answer["alternatives"]) == 3
        assert [span["score"] for span in spans] == sorted((span["score"] for span in spans), reverse=True)
        assert len({(span["token_start"], span["token_end"]) for span in spans}) == 4
        for span in answer["alternatives"]:
            assert passage[span["start"] : span["end"]] == span["answer"]
            assert 0 < span["token_end"] - span["token_start"] <= 17
        assert predictor.predict_json({"passage": passage}) == {
            "error": 'expected a JSON object with a "question" string',
            "input": {"passage": passage},
        }
