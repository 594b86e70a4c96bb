"""The resumable moving average: what the trainer validates, saves and resumes is the average."""

from typing import Dict

import torch
from allennlp.data import Instance, Vocabulary
from allennlp.data.data_loaders import SimpleDataLoader
from allennlp.data.fields import TensorField
from allennlp.models import Model
from allennlp.training import Checkpointer, GradientDescentTrainer
from allennlp.training.moving_average import ExponentialMovingAverage

from tasks.squad.moving_average import ResumableExponentialMovingAverage


class _Regression(Model):
    """A linear regression, trained deterministically (no dropout, no shuffling)."""

    def __init__(self) -> None:
        super().__init__(Vocabulary())
        torch.manual_seed(0)
        self.linear = torch.nn.Linear(3, 1)

    def forward(self, features: torch.Tensor, target: torch.Tensor) -> Dict[str, torch.Tensor]:  # type: ignore
        return {"loss": ((self.linear(features).squeeze(-1) - target) ** 2).mean()}


def _loader(model: Model) -> SimpleDataLoader:
    generator = torch.Generator().manual_seed(1)
    features = torch.randn(12, 3, generator=generator)
    target = features @ torch.tensor([1.0, -2.0, 0.5]) + 3.0
    instances = [Instance({"features": TensorField(x), "target": TensorField(y)}) for x, y in zip(features, target)]
    loader = SimpleDataLoader(instances, batch_size=4, shuffle=False)
    loader.index_with(model.vocab)
    return loader


def _train(serialization_dir, num_epochs: int, average_class=ResumableExponentialMovingAverage):
    """Trains `_Regression` to `num_epochs` in `serialization_dir`, resuming from its checkpoint if any."""
    model = _Regression()
    parameters = [[name, parameter] for name, parameter in model.named_parameters()]
    average = average_class(parameters, decay=0.9)
    trainer = GradientDescentTrainer(
        model,
        torch.optim.SGD(model.parameters(), lr=0.05),
        _loader(model),
        validation_data_loader=_loader(model),
        num_epochs=num_epochs,
        serialization_dir=str(serialization_dir),
        checkpointer=Checkpointer(str(serialization_dir)),
        moving_average=average,
    )
    trainer.train()
    return model, average


def _state(model: Model) -> Dict[str, torch.Tensor]:
    return {name: tensor.clone() for name, tensor in model.state_dict().items()}


def test_after_training_the_model_holds_the_average_not_the_raw_weights(tmp_path):
    model, average = _train(tmp_path, num_epochs=2)
    for name, parameter in model.named_parameters():
        assert torch.equal(parameter, average._shadows[name])
        assert not torch.allclose(parameter, average._backups[name])  # the raw weights differ
    assert torch.equal(torch.load(tmp_path / "best.th")["linear.weight"], model.linear.weight.detach())


def test_resuming_gives_the_same_average_as_training_straight_through(tmp_path):
    straight, _ = _train(tmp_path / "straight", num_epochs=3)
    _train(tmp_path / "resumed", num_epochs=1)
    resumed, average = _train(tmp_path / "resumed", num_epochs=3)  # recovers after epoch 1
    live = dict(resumed.named_parameters())
    assert all(parameter is live[name] for name, parameter in average._parameters)
    for name, tensor in _state(straight).items():
        assert torch.allclose(resumed.state_dict()[name], tensor, atol=1e-6), name


def test_allennlps_own_average_loses_the_model_on_resuming(tmp_path):
    # Why the suite has its own: upstream's checkpoint swaps the live parameters for stored copies.
    straight, _ = _train(tmp_path / "straight", num_epochs=3, average_class=ExponentialMovingAverage)
    _train(tmp_path / "resumed", num_epochs=1, average_class=ExponentialMovingAverage)
    resumed, average = _train(tmp_path / "resumed", num_epochs=3, average_class=ExponentialMovingAverage)
    live = dict(resumed.named_parameters())
    assert not any(parameter is live[name] for name, parameter in average._parameters)
    assert not torch.allclose(resumed.linear.weight, straight.linear.weight, atol=1e-6)
