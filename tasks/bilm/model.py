"""
The bidirectional language model behind ELMo (Peters et al. 2018, §3), trainable with
`allennlp train`, its architecture read from an `options.json` of the original bilm-tf kind.

A forward and a backward LSTM stack share the character encoder and the softmax. Training is
truncated backpropagation through time on continuous text, as in bilm-tf: the reader cuts the
corpus into `batch_size` streams (the backward ones reversed) and each batch carries each stream
`unroll_steps` tokens further, so the model keeps each stream's LSTM state (detached) from one
batch to the next.
"""

import math
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.nn.util import remove_sentence_boundaries
from allennlp.training.metrics import Average

from tasks.bilm.modules import CharacterEncoder, LstmStack, State, bilm_layers
from tasks.bilm.weight_file import load_original_layout, read_options

DIRECTIONS = ("forward", "backward")


class SampledSoftmax(torch.nn.Module):
    """
    The output softmax over the word vocabulary. In training with `num_samples > 0` it is the
    sampled softmax of Jean et al. (2015), as bilm-tf trains: each batch scores the true words
    against `num_samples` words drawn from a log-uniform (Zipfian) distribution over the
    vocabulary, which is ordered by frequency, with the usual correction by the log expected
    count and accidental hits removed. Otherwise, and always in evaluation, the full softmax.
    """

    def __init__(self, num_words: int, input_dim: int, num_samples: int) -> None:
        super().__init__()
        self.num_samples = num_samples
        self.weight = torch.nn.Parameter(torch.randn(num_words, input_dim) / math.sqrt(input_dim))
        self.bias = torch.nn.Parameter(torch.zeros(num_words))
        ranks = torch.arange(num_words, dtype=torch.float64)
        probabilities = (torch.log(ranks + 2) - torch.log(ranks + 1)) / math.log(num_words + 1)
        probabilities[0] = 0.0  # padding is never a word to predict
        self.register_buffer("sampling_probabilities", (probabilities / probabilities.sum()).float(), persistent=False)

    @property
    def samples(self) -> bool:
        """Whether the next call samples (training, and fewer samples than words)."""
        return self.training and 0 < self.num_samples < self.weight.size(0)

    def forward(self, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """The summed negative log-likelihood of `targets` `(n,)` given `inputs` `(n, input_dim)`."""
        if not self.samples:
            logits = inputs @ self.weight.t() + self.bias
            return torch.nn.functional.cross_entropy(logits, targets, reduction="sum")
        sampled = torch.multinomial(self.sampling_probabilities, self.num_samples, replacement=True)
        log_expected = torch.log(self.sampling_probabilities * self.num_samples)
        true_logits = (inputs * self.weight[targets]).sum(-1) + self.bias[targets] - log_expected[targets]
        sampled_logits = inputs @ self.weight[sampled].t() + self.bias[sampled] - log_expected[sampled]
        sampled_logits = sampled_logits.masked_fill(sampled.unsqueeze(0) == targets.unsqueeze(1), -1e4)
        logits = torch.cat([true_logits.unsqueeze(1), sampled_logits], dim=1)
        return torch.nn.functional.cross_entropy(logits, targets.new_zeros(targets.size(0)), reduction="sum")


@Model.register("bilm")
class BidirectionalLm(Model):
    """
    Registered as a `Model` with name "bilm".

    # Parameters

    vocab : `Vocabulary`
        Its `tokens` namespace is the softmax vocabulary (ordered by frequency, as AllenNLP builds it).
    options_file : `str`
        A bilm-tf `options.json`: `char_cnn` and `lstm` give the architecture.
    dropout : `float`, optional (default = `0.1`)
        On the inputs of every LSTM layer and on the top layer before the softmax (bilm-tf: 0.1).
    num_samples : `int`, optional (default = `8192`)
        Negative samples per batch for the sampled softmax; 0 trains with the full softmax.
    initial_weight_file : `str`, optional
        A weight file in the original layout (published or exported by us) to start from, e.g. to
        fine-tune on a domain (the paper's §A.1); the softmax, which such files lack, starts afresh.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        options_file: str,
        dropout: float = 0.1,
        num_samples: int = 8192,
        initial_weight_file: Optional[str] = None,
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self.options = read_options(options_file)
        projection_dim = self.options["lstm"]["projection_dim"]
        self.character_encoder = CharacterEncoder(self.options["char_cnn"], projection_dim)
        # One LSTM stack per direction, in the order of DIRECTIONS.
        self.stacks = torch.nn.ModuleList(LstmStack(self.options["lstm"], dropout) for _ in DIRECTIONS)
        self.softmax = SampledSoftmax(vocab.get_vocab_size("tokens"), projection_dim, num_samples)
        self.dropout = torch.nn.Dropout(dropout)
        self._stream_states: Dict[Tuple[bool, str], List[State]] = {}
        self._negative_log_likelihood = {direction: Average() for direction in DIRECTIONS}
        if initial_weight_file:
            load_original_layout(self, initial_weight_file)

    def forward(  # type: ignore
        self, forward: TextFieldTensors, backward: TextFieldTensors, metadata: List[Dict[str, Any]]
    ) -> Dict[str, torch.Tensor]:
        """
        `forward` and `backward` hold `unroll_steps + 1` tokens of each stream (the backward streams
        run through the text in reverse): the model reads all but the last and predicts all but the
        first. `metadata[i]` names the row's `stream` (row i must be stream i) and the batch's
        `stream_position`, 0 on the streams' first batch, which resets the carried state.
        """
        if [entry["stream"] for entry in metadata] != list(range(len(metadata))):
            raise ConfigurationError(
                "biLM batches must hold every stream once, in order: set the data loader's batch_size "
                "to the reader's num_streams, with shuffle false and no batch sampler"
            )
        if metadata[0]["stream_position"] == 0:
            for direction in DIRECTIONS:
                self._stream_states.pop((self.training, direction), None)
        total_loss = 0.0
        for direction, stack, tokens in zip(DIRECTIONS, self.stacks, (forward, backward)):
            characters = tokens["elmo"]["elmo_tokens"][:, :-1]
            targets = tokens["words"]["tokens"][:, 1:]
            mask = targets != 0  # lm_streams windows are full; padding, if any, is not predicted
            key = (self.training, direction)
            layers, final_states = stack(self.character_encoder(characters), mask, self._stream_states.get(key))
            self._stream_states[key] = [(hidden.detach(), memory.detach()) for hidden, memory in final_states]
            top = self.dropout(layers[-1])
            negative_log_likelihood = self.softmax(top[mask], targets[mask])
            token_count = int(mask.sum())
            if not self.softmax.samples:  # only the full softmax gives a perplexity
                self._negative_log_likelihood[direction](negative_log_likelihood.item() / max(token_count, 1))
            total_loss = total_loss + negative_log_likelihood / max(token_count, 1)
        return {"loss": total_loss / len(DIRECTIONS)}

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """Per-token perplexity of each direction and their geometric mean, from full-softmax batches."""
        averages = {direction: self._negative_log_likelihood[direction].get_metric(reset) for direction in DIRECTIONS}
        if not any(averages.values()):
            return {}
        metrics = {f"{direction}_perplexity": math.exp(value) for direction, value in averages.items()}
        metrics["perplexity"] = math.exp(sum(averages.values()) / len(averages))
        return metrics

    def elmo_layers(
        self, character_ids: torch.Tensor, states: Optional[List[List[State]]] = None
    ) -> Tuple[List[torch.Tensor], List[List[State]]]:
        """
        What AllenNLP's `Elmo` mixes for `character_ids` from `batch_to_ids`, without the sentence
        boundaries: layer 0 (the token vector, repeated for both directions) and each LSTM layer
        (forward and backward outputs), each `(batch, time, 2 * projection_dim)`, zero on padding.
        Every row starts from `states` (zero when `None`); the states after each row are returned
        too, so a caller can carry them to the next batch (see `bilm_layers`).
        """
        layers, mask, final_states = bilm_layers(self.character_encoder, self.stacks, character_ids, states)
        return [remove_sentence_boundaries(layer, mask)[0] for layer in layers], final_states
