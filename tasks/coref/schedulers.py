"""The learning-rate schedule of Lee et al. (2017): exponential decay in steps of `decay_steps` batches."""

import torch
from allennlp.training.learning_rate_schedulers import LearningRateScheduler


@LearningRateScheduler.register("exponential_decay")
class ExponentialDecay(LearningRateScheduler):
    """
    `lr = initial_lr * decay_rate ** floor(batches / decay_steps)`, updated after every batch:
    TensorFlow's `exponential_decay(..., staircase=True)`, which Lee et al. (2017) train with
    (decay rate 0.999 every 100 batches). AllenNLP's "exponential" scheduler steps per epoch only.

    Registered as a `LearningRateScheduler` with name "exponential_decay".
    """

    def __init__(
        self, optimizer: torch.optim.Optimizer, decay_rate: float = 0.999, decay_steps: int = 100, last_epoch: int = -1
    ) -> None:
        if not 0 < decay_rate <= 1 or decay_steps < 1:
            raise ValueError(f"expected 0 < decay_rate <= 1 and decay_steps >= 1, not {decay_rate} and {decay_steps}")
        self.decay_rate, self.decay_steps = decay_rate, decay_steps
        self.batches = 0
        super().__init__(optimizer, last_epoch)

    def get_values(self):
        factor = self.decay_rate ** (self.batches // self.decay_steps)
        return [initial * factor for initial in self.base_values]

    def step(self, metric: float = None) -> None:
        """Nothing at the end of an epoch: the rate follows the batch count."""

    def step_batch(self, batch_num_total: int = None) -> None:
        self.batches = self.batches + 1 if batch_num_total is None else batch_num_total
        for group, value in zip(self.optimizer.param_groups, self.get_values()):
            group[self.param_group_field] = value
