"""The NER configs as shipped, run on the tiny fixtures through AllenNLP's own model checks."""

import pytest
import torch
from allennlp.common.testing import ModelTestCase

from tasks.ner.model import BiLstmCrfTagger


class TestBiLstmCrfTagger(ModelTestCase):
    @pytest.fixture(autouse=True)
    def _fixtures(self, ner_environment, tiny_conll):
        self.tiny_conll = tiny_conll

    @pytest.mark.parametrize("config", ["configs/ner_elmo.jsonnet", "configs/ner_baseline.jsonnet"])
    def test_train_save_load_and_predict_the_same(self, config):
        self.set_up_model(config, str(self.tiny_conll))
        assert isinstance(self.model, BiLstmCrfTagger)
        # No padding noise: the check compares two loaders' first batches, drawn one after the other.
        overrides = '{"trainer.num_epochs": 2, "data_loader.batch_sampler.padding_noise": 0.0}'
        self.ensure_model_can_train_save_and_load(config, overrides=overrides)

    def test_elmo_config_mixes_elmo_at_the_input_with_the_paper_regulariser(self):
        self.set_up_model("configs/ner_elmo.jsonnet", str(self.tiny_conll))
        names = [name for name, _ in self.model.named_parameters()]
        mix_weights = [name for name in names if "scalar_mix" in name and "scalar_parameters" in name]
        assert len(mix_weights) == 3  # character layer and two biLSTM layers
        assert any(name.endswith("scalar_mix_0.gamma") for name in names)
        elmo_lstm = [p for name, p in self.model.named_parameters() if "_elmo_lstm" in name]
        assert elmo_lstm and not any(p.requires_grad for p in elmo_lstm)  # the biLM is frozen
        # λ‖w‖² on the mix weights alone (λ = 0.1, the config's NER setting), not on γ nor on anything else
        mix = [p for name, p in self.model.named_parameters() if "scalar_mix" in name and "scalar_parameters" in name]
        with torch.no_grad():
            for value, parameter in zip((0.5, -1.0, 2.0), mix):
                parameter.fill_(value)
            for name, parameter in self.model.named_parameters():
                if name.endswith("gamma"):
                    parameter.fill_(3.0)
        penalty = self.model.get_regularization_penalty()
        assert penalty.item() == pytest.approx(0.1 * (0.5**2 + 1.0**2 + 2.0**2))

    def test_decoded_tags_are_strings_of_the_label_vocabulary(self):
        self.set_up_model("configs/ner_baseline.jsonnet", str(self.tiny_conll))
        outputs = self.model.forward_on_instances(self.instances[:3])
        labels = set(self.vocab.get_token_to_index_vocabulary("labels"))
        for output, instance in zip(outputs, self.instances):
            assert set(output["tags"]) <= labels
            assert len(output["tags"]) == len(instance["tokens"])
            assert output["words"] == instance["metadata"]["words"]


def test_labels_of_another_scheme_are_refused():
    from allennlp.common.checks import ConfigurationError

    from tasks.ner.model import _check_scheme

    _check_scheme(["O", "B-PER", "I-PER", "L-PER", "U-LOC"], "BIOUL")
    _check_scheme(["O", "B-PER", "I-PER"], "BIO")
    with pytest.raises(ConfigurationError, match="label_encoding is BIO, but the labels include L-PER, U-LOC"):
        _check_scheme(["O", "B-PER", "L-PER", "U-LOC"], "BIO")
    with pytest.raises(ConfigurationError, match="label_encoding must be one of"):
        _check_scheme(["O"], "IOBES")
