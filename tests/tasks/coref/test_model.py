"""The coreference model and configs on the tiny fixtures: AllenNLP's model checks, and what Lee et al. need."""

import glob
import random

import pytest
import torch
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, DatasetReader, Vocabulary
from allennlp.models import Model

from tasks.coref.model import EndToEndCoreferenceResolver, SentenceLayout
from tasks.coref.pruning import non_crossing_top_spans
from tasks.coref.schedulers import ExponentialDecay

LAMBDAS = {
    "configs/ablations/coref_all_layers_lambda_1.jsonnet": 1.0,
    "configs/ablations/coref_all_layers_lambda_0_001.jsonnet": 0.001,
}
CONFIGS = sorted(glob.glob("configs/coref_*.jsonnet") + glob.glob("configs/ablations/coref_*.jsonnet"))


class TestEndToEndCoreferenceResolver(ModelTestCase):
    @pytest.fixture(autouse=True)
    def _fixtures(self, coref_environment, tiny_coref_conll):
        self.tiny_coref_conll = tiny_coref_conll

    @pytest.mark.parametrize("config", ["configs/coref_elmo.jsonnet", "configs/coref_baseline.jsonnet"])
    def test_train_save_load_and_predict_the_same(self, config):
        self.set_up_model(config, str(self.tiny_coref_conll))
        assert isinstance(self.model, EndToEndCoreferenceResolver)
        # The check compares two loaders' first batches: no shuffling. It then asks every parameter
        # for a gradient on the trained model: the head scorer gets one only from spans of two words
        # or more, so pruning keeps every span (10 a word, the widest); at the config's 0.4, which
        # spans two epochs leave on top depends on the float arithmetic (the thread count, the CPU).
        self.ensure_model_can_train_save_and_load(
            config,
            overrides='{"trainer.num_epochs": 2, "data_loader.shuffle": false, "model.spans_per_word": 10}',
        )

    def test_a_batch_of_documents_predicts_as_each_document_alone(self):
        self.set_up_model("configs/coref_elmo.jsonnet", str(self.tiny_coref_conll))
        self.model.eval()
        together = self.model.forward_on_instances(self.instances)
        for instance, batched in zip(self.instances, together):
            alone = self.model.forward_on_instance(instance)
            assert alone["clusters"] == batched["clusters"]
            kept = alone["top_spans"].tolist()
            assert batched["top_spans"].tolist()[: len(kept)] == kept
            assert len(kept) == int(0.4 * len(instance["text"]))

    def test_each_sentence_is_encoded_on_its_own(self):
        self.set_up_model("configs/coref_elmo.jsonnet", str(self.tiny_coref_conll))
        self.model.eval()
        reader = self.model_reader()
        words = [["Ada", "met", "Charles", "."], ["She", "admired", "him", "."]]
        changed = [words[0], ["They", "never", "wrote", "."]]
        first, second = ([reader.text_to_instance(sentences)] for sentences in (words, changed))
        encodings = []
        for instances in (first, second):
            batch = Batch(instances)
            batch.index_instances(self.vocab)
            tensors = batch.as_tensor_dict()
            encodings.append(self.model._encode_sentences(tensors["text"], tensors["metadata"]))
        for before, after in zip(*encodings):
            assert torch.allclose(before[0, :4], after[0, :4])  # the first sentence does not see the second
            assert not torch.allclose(before[0, 4:], after[0, 4:])

    def model_reader(self):
        return DatasetReader.from_params(Params.from_file("configs/coref_elmo.jsonnet")["validation_dataset_reader"])

    def test_speaker_and_genre_features_enter_the_pair_score(self):
        self.set_up_model("configs/coref_baseline.jsonnet", str(self.tiny_coref_conll))
        names = {name for name, _ in self.model.named_parameters()}
        assert {"_same_speaker_embedding.weight", "_genre_embedding.weight", "_head_scorer._module.weight"} <= names
        assert not any("_attentive_span_extractor" in name or "_endpoint_span_extractor" in name for name in names)
        first_layer = self.model._antecedent_feedforward._module._linear_layers[0]
        span_dim = self.model._mention_feedforward._module.get_input_dim()
        assert first_layer.in_features == 3 * span_dim + 3 * 20


def test_pair_scores_split_by_part_equal_the_feedforward_on_the_concatenation(coref_environment, tiny_coref_conll):
    params = Params.from_file("configs/coref_baseline.jsonnet")
    reader = DatasetReader.from_params(params.pop("validation_dataset_reader"))
    vocab = Vocabulary.from_instances(reader.read(str(tiny_coref_conll)))
    model = Model.from_params(vocab=vocab, params=params.pop("model")).eval()
    span_dim = model._mention_feedforward._module.get_input_dim()
    top = torch.randn(2, 6, span_dim)
    indices = torch.randint(0, 6, (2, 6, 4))
    features = torch.randn(2, 6, 4, 60)
    partial = torch.randn(2, 6, 4)
    mask = torch.rand(2, 6, 4) > 0.3
    from allennlp.nn import util

    scores = model._coreference_scores(
        top, indices, util.flatten_and_batch_shift_indices(indices, 6), features, partial, mask
    )
    antecedents = torch.stack([top[b, indices[b]] for b in range(2)])
    targets = top.unsqueeze(2).expand_as(antecedents)
    pairs = torch.cat([targets, antecedents, targets * antecedents, features], -1)
    expected = model._antecedent_scorer(model._antecedent_feedforward(pairs)).squeeze(-1) + partial
    assert torch.allclose(scores[:, :, 1:][mask], expected[mask], atol=1e-5)
    assert (scores[:, :, 0] == 0).all() and (scores[:, :, 1:][~mask] < -1e30).all()


@pytest.mark.parametrize("config", CONFIGS)
def test_every_config_builds_its_model(config, coref_environment, tiny_coref_conll):
    params = Params.from_file(config)
    reader = DatasetReader.from_params(params.pop("validation_dataset_reader"))
    instances = list(reader.read(str(tiny_coref_conll)))
    vocab = Vocabulary.from_instances(instances)
    model_params = params.pop("model")
    model = Model.from_params(vocab=vocab, params=model_params.duplicate())
    assert isinstance(model, EndToEndCoreferenceResolver)
    elmo = [module for name, module in model.named_modules() if name.endswith("token_embedder_elmo._elmo")]
    assert bool(elmo) == ("baseline" not in config)
    if elmo:
        mix = elmo[0]._scalar_mixes[0]
        assert mix.gamma.requires_grad
        weights = torch.softmax(torch.cat([parameter for parameter in mix.scalar_parameters]), 0)
        assert (weights[-1].item() == 1.0) == ("top_layer" in config)
        alpha = model_params.as_dict()["regularizer"]["regexes"][0][1]["alpha"]
        assert alpha == LAMBDAS.get(config, 0.0)  # the paper's λ = 0 for coreference, unless ablated


def test_sentence_layout_moves_tokens_between_documents_and_sentences():
    # Two documents padded to 5 tokens: sentences of 2 and 3 tokens, and one sentence of 4 tokens.
    layout = SentenceLayout([[2, 3], [4]], document_length=5, device=torch.device("cpu"))
    documents = torch.tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 0]]).unsqueeze(-1)
    sentences = layout.by_sentence(documents).squeeze(-1)
    assert sentences.tolist() == [[1, 2, 0, 0], [3, 4, 5, 0], [6, 7, 8, 9]]
    assert layout.sentence_mask.tolist() == [[True, True, False, False], [True, True, True, False], [True] * 4]
    assert layout.by_document(sentences.unsqueeze(-1) * 10).squeeze(-1).tolist() == [
        [10, 20, 30, 40, 50],
        [60, 70, 80, 90, 0],
    ]


def test_pruning_skips_spans_that_cross_a_better_one():
    spans = [(0, 2), (1, 3), (2, 2), (0, 0), (2, 4)]
    scores = [5.0, 4.0, 3.0, 2.0, 1.0]
    # (1, 3) crosses (0, 2); (2, 2) and (0, 0) nest inside it; (2, 4) crosses (0, 2) but is not needed.
    assert non_crossing_top_spans(spans, scores, 3) == [0, 2, 3]
    # With room for more, (2, 4) is still refused: it starts inside (0, 2) and ends after it.
    assert non_crossing_top_spans(spans, scores, 5) == [0, 2, 3]
    # Crossing from the other side: (1, 3) starts before (2, 4) and ends inside it.
    assert non_crossing_top_spans([(2, 4), (1, 3)], [2.0, 1.0], 2) == [0]


def test_pruning_is_the_greedy_non_crossing_choice_on_random_spans():
    generator = random.Random(0)
    for _ in range(50):
        spans = sorted(
            {(start, start + generator.randint(0, 3)) for start in (generator.randint(0, 12) for _ in range(25))}
        )
        scores = [generator.random() for _ in spans]
        keep = generator.randint(1, len(spans))
        accepted = non_crossing_top_spans(spans, scores, keep)
        assert accepted == sorted(accepted) and len(accepted) <= keep

        def crosses(i, j):
            (si, ei), (sj, ej) = spans[i], spans[j]
            return si < sj <= ei < ej or sj < si <= ej < ei

        assert not any(crosses(i, j) for i in accepted for j in accepted)
        # Greedy: every better span left out crosses an accepted span better than itself.
        worst_kept = min(scores[i] for i in accepted)
        for i in set(range(len(spans))) - set(accepted):
            if scores[i] > worst_kept:
                assert any(crosses(i, j) and scores[j] > scores[i] for j in accepted)


def test_learning_rate_decays_in_steps_of_batches():
    parameter = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.Adam([parameter], lr=0.001)
    scheduler = ExponentialDecay(optimizer, decay_rate=0.5, decay_steps=100)
    rates = []
    for batch in (1, 99, 100, 199, 250):
        scheduler.step_batch(batch)
        rates.append(optimizer.param_groups[0]["lr"])
    assert rates == pytest.approx([0.001, 0.001, 0.0005, 0.0005, 0.00025])
    scheduler.step()  # the end of an epoch changes nothing
    assert optimizer.param_groups[0]["lr"] == pytest.approx(0.00025)
