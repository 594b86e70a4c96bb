"""
The exponential moving average of the weights that the paper evaluates with (§A.4, decay 0.999),
made safe to resume: AllenNLP 2.10.1's `exponential` average loses track of the model on `--recover`.

AllenNLP's `MovingAverage.state_dict()` stores the parameter tensors themselves next to the
averages, and `load_state_dict()` replaces its references to the live parameters with those
stored copies. After `allennlp train --recover` the averages are therefore updated from frozen
copies and swapped into those copies, never into the model: validation, `best.th` and the archive
silently get the raw weights. This subclass checkpoints the averages by parameter name and copies
them into the average it was built with, which still refers to the live parameters.
"""

from typing import Any, Dict

from allennlp.common.checks import ConfigurationError
from allennlp.training.moving_average import ExponentialMovingAverage, MovingAverage


@MovingAverage.register("resumable_exponential")
class ResumableExponentialMovingAverage(ExponentialMovingAverage):
    """
    AllenNLP's `exponential` moving average (same parameters, same update: the trainer passes the
    number of updates, so the decay is `min(decay, (1 + n) / (10 + n))`, TensorFlow's warm-up), whose
    checkpoint holds only the averages, by parameter name, and restores them onto the live model.

    The trainer swaps the averages in for validation, for `best.th` (hence the archive) and for the
    final model, and the raw weights back in for training.

    Registered as a `MovingAverage` with name "resumable_exponential".
    """

    def state_dict(self) -> Dict[str, Any]:
        return {"shadows": self._shadows}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        saved = state_dict["shadows"]
        if set(saved) != set(self._shadows):
            differences = sorted(set(saved) ^ set(self._shadows))
            raise ConfigurationError(
                "The checkpoint's moving average covers other parameters than the model's trainable ones "
                f"(differing: {', '.join(differences[:5])}): was the config changed since the checkpoint?"
            )
        for name, shadow in self._shadows.items():
            shadow.copy_(saved[name])
