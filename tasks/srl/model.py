"""
The SRL model of the ELMo paper (Peters et al. 2018, §A.5): He et al.'s (2017) deep BIO tagger,
with ELMo at its input and, for Table 3, optionally at the output of its top LSTM.
"""

from typing import Any, Dict, List, Optional

import torch
import torch.nn.functional as F
from allennlp.common import Lazy
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.modules.conditional_random_field import allowed_transitions
from allennlp.modules.seq2seq_encoders import LstmSeq2SeqEncoder
from allennlp.modules.token_embedders import Embedding
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import get_text_field_mask, sequence_cross_entropy_with_logits, viterbi_decode
from allennlp.training.metrics import F1Measure

from tasks.elmo import PaperElmo, check_elmo_places
from tasks.srl.metrics import Conll2005SrlScore

ELMO_INDEXER = "elmo"


@Model.register("deep_srl")
class DeepSrl(Model):
    """
    Labels the arguments of one predicate with BIO tags (He et al. 2017): each word is embedded
    (word vector, a learned embedding of the binary predicate indicator, and ELMo when
    `elmo_at_input`), encoded by a stack of interleaved highway LSTMs (AllenNLP's
    `alternating_lstm`), the top output (with ELMo when `elmo_at_output`) projected to tag scores,
    and trained by per-word cross-entropy. Decoding is Viterbi over log-probabilities under the
    BIO constraints (no `I-X` that does not continue an `X`). Outside training the official
    CoNLL-2005 score (`Conll2005SrlScore`) is computed on the decoded tags.

    Not in the paper, whose SRL is given gold predicates: with `predicate_finder_size`, a small
    biLSTM over the word embeddings (detached, so the role labeller learns as without it) says
    which words are predicates, trained from the readers' `sentence_predicates`, so that the
    archive alone labels raw text (`predicate-f1` on dev, each sentence counted once).

    The instances are allennlp-models' `srl` layout, and the encoder is the one its
    `SemanticRoleLabeler` uses. That model is not subclassed: it fixes the encoder's input to
    words and the indicator (no place for ELMo from a `PaperElmo`), Viterbi-decodes
    probabilities rather than log-probabilities, and scores with the Perl script.

    Registered as a `Model` with name "deep_srl"; its default predictor is "srl_frames".

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds the words (not the `elmo` indexer's character ids, which go to `elmo`).
    encoder : `Lazy[Seq2SeqEncoder]`
        Built here with its input size (words + indicator + ELMo at the input), so configs need
        not know the ELMo size of a weight file.
    binary_feature_dim : `int`, optional (default = `100`)
        Size of the predicate indicator's embedding.
    embedding_dropout : `float`, optional (default = `0.0`)
        On the word embeddings.
    elmo : `PaperElmo`, optional
        With one output representation for each of `elmo_at_input` and `elmo_at_output` that is true.
    elmo_at_input, elmo_at_output : `bool`, optional (default = `False`)
        Where ELMo enters: concatenated to the word embeddings, and to the top LSTM's output.
    label_namespace : `str`, optional (default = `"labels"`)
    predicate_finder_size : `int`, optional (default = `0`)
        Hidden size of the predicate finder's biLSTM; 0: no predicate finder.
    """

    default_predictor = "srl_frames"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Lazy[Seq2SeqEncoder],
        binary_feature_dim: int = 100,
        embedding_dropout: float = 0.0,
        elmo: Optional[PaperElmo] = None,
        elmo_at_input: bool = False,
        elmo_at_output: bool = False,
        label_namespace: str = "labels",
        predicate_finder_size: int = 0,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_elmo_places(elmo, elmo_at_input, elmo_at_output)
        self.elmo = elmo
        self.elmo_at_input = elmo_at_input
        self.elmo_at_output = elmo_at_output
        elmo_dim = elmo.get_output_dim() if elmo is not None else 0

        self.text_field_embedder = text_field_embedder
        self.binary_feature_embedding = Embedding(num_embeddings=2, embedding_dim=binary_feature_dim)
        input_dim = text_field_embedder.get_output_dim() + binary_feature_dim + (elmo_dim if elmo_at_input else 0)
        self.encoder = encoder.construct(input_size=input_dim)
        output_dim = self.encoder.get_output_dim() + (elmo_dim if elmo_at_output else 0)

        self.label_namespace = label_namespace
        labels = vocab.get_index_to_token_vocabulary(label_namespace)
        _check_bio(labels.values())
        self.tag_projection_layer = torch.nn.Linear(output_dim, len(labels))
        self.embedding_dropout = torch.nn.Dropout(embedding_dropout)
        self._register_bio_constraints(labels)
        self.srl_score = Conll2005SrlScore()
        self.predicate_finder: Optional[Seq2SeqEncoder] = None
        if predicate_finder_size:
            self.predicate_finder = LstmSeq2SeqEncoder(
                text_field_embedder.get_output_dim(), predicate_finder_size, bidirectional=True
            )
            self.predicate_scorer = torch.nn.Linear(self.predicate_finder.get_output_dim(), 2)
            self.predicate_f1 = F1Measure(positive_label=1)
            self._predicates_scored = False  # AllenNLP's F1Measure raises when asked before any batch
        initializer(self)

    def forward(  # type: ignore
        self,
        tokens: TextFieldTensors,
        verb_indicator: torch.LongTensor,
        metadata: List[Dict[str, Any]],
        tags: Optional[torch.LongTensor] = None,
        sentence_predicates: Optional[torch.LongTensor] = None,
    ) -> Dict[str, Any]:
        """
        `verb_indicator` `(batch, time)` marks the predicate; `tags` `(batch, time)` are gold BIO
        tag ids; `sentence_predicates` `(batch, time)` mark every predicate of the sentence (for
        the predicate finder). Outside training the output holds the decoded tag ids
        (`predicted_tag_ids`), and with a predicate finder its scores (`predicate_logits`).
        """
        mask = get_text_field_mask(tokens)
        word_inputs = {name: tensors for name, tensors in tokens.items() if name != ELMO_INDEXER}
        word_embeddings = self.text_field_embedder(word_inputs)
        pieces = [
            self.embedding_dropout(word_embeddings),
            self.binary_feature_embedding(verb_indicator.long()),
        ]
        elmo_representations = self._elmo_representations(tokens)
        if self.elmo_at_input:
            pieces.append(elmo_representations.pop(0))
        encoded = self.encoder(torch.cat(pieces, dim=-1), mask)
        if self.elmo_at_output:
            encoded = torch.cat([encoded, elmo_representations.pop(0)], dim=-1)
        logits = self.tag_projection_layer(encoded)

        output: Dict[str, Any] = {
            "logits": logits,
            "mask": mask,
            "words": [entry["words"] for entry in metadata],
            "verb": [entry["verb"] for entry in metadata],
            "verb_index": [entry["verb_index"] for entry in metadata],
        }
        if tags is not None:
            output["loss"] = sequence_cross_entropy_with_logits(logits, tags, mask)
        if self.predicate_finder is not None:
            self._find_predicates(word_embeddings.detach(), mask, metadata, sentence_predicates, output)
        if not self.training:
            output["predicted_tag_ids"] = self.decode(logits, mask)
            if tags is not None:
                lengths = mask.sum(dim=1).tolist()
                gold = [
                    entry.get("gold_tags") or self._tag_strings(row[:length])  # as read: roles the model lacks count
                    for entry, row, length in zip(metadata, tags.tolist(), lengths)
                ]
                self.srl_score([self._tag_strings(path) for path in output["predicted_tag_ids"]], gold)
        return output

    def _find_predicates(
        self,
        word_embeddings: torch.Tensor,
        mask: torch.BoolTensor,
        metadata: List[Dict[str, Any]],
        sentence_predicates: Optional[torch.LongTensor],
        output: Dict[str, Any],
    ) -> None:
        """The predicate finder's scores, its loss added to the labeller's, and its F1 on each sentence once."""
        predicate_logits = self.predicate_scorer(self.predicate_finder(word_embeddings, mask))
        output["predicate_logits"] = predicate_logits
        if sentence_predicates is None:
            return
        loss = sequence_cross_entropy_with_logits(predicate_logits, sentence_predicates, mask)
        output["loss"] = output["loss"] + loss if "loss" in output else loss
        if self.training:  # scored in evaluation only, as the labeller is
            return
        # A sentence gives one instance per predicate: score it on the instance of its first one.
        first = torch.tensor(
            [entry["verb_index"] == min(entry["sentence_predicates"]) for entry in metadata], device=mask.device
        )
        self.predicate_f1(predicate_logits, sentence_predicates, mask & first.unsqueeze(1))
        self._predicates_scored = True

    def decode(self, logits: torch.Tensor, mask: torch.BoolTensor) -> List[List[int]]:
        """The most probable BIO-valid tag ids of each sequence (Viterbi on log-probabilities)."""
        log_probabilities = F.log_softmax(logits.detach(), dim=-1).cpu()
        paths = []
        for sequence, length in zip(log_probabilities, mask.sum(dim=1).tolist()):
            path, _ = viterbi_decode(
                sequence[:length],
                self._transitions,
                allowed_start_transitions=self._start_transitions,
            )
            paths.append(path)
        return paths

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        """`tags`, the decoded BIO tags; with a predicate finder, `predicates`: the word indices it marks."""
        output_dict["tags"] = [self._tag_strings(path) for path in output_dict.pop("predicted_tag_ids")]
        if "predicate_logits" in output_dict:
            best = output_dict.pop("predicate_logits").argmax(dim=-1).tolist()
            lengths = output_dict["mask"].sum(dim=-1).tolist()
            output_dict["predicates"] = [
                [index for index in range(length) if row[index] == 1] for row, length in zip(best, lengths)
            ]
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """
        Overall P/R/F1 for the progress bar, per label too at the end of an evaluation; nothing
        while training, when no tags are decoded (as in allennlp-models' SRL model).
        """
        if self.training:
            return {}
        metrics = self.srl_score.get_metric(reset)
        if self.predicate_finder is not None and self._predicates_scored:
            metrics.update({f"predicate-{name}": value for name, value in self.predicate_f1.get_metric(reset).items()})
            self._predicates_scored = not reset
        if reset:
            return metrics
        return {name: value for name, value in metrics.items() if name.endswith("-overall")}

    def _elmo_representations(self, tokens: TextFieldTensors) -> List[torch.Tensor]:
        if self.elmo is None:
            return []
        if ELMO_INDEXER not in tokens:
            raise ConfigurationError(f"the model has an elmo, but the reader has no {ELMO_INDEXER!r} token indexer")
        return list(self.elmo(tokens[ELMO_INDEXER]["elmo_tokens"])["elmo_representations"])

    def _register_bio_constraints(self, labels: Dict[int, str]) -> None:
        """0 / -inf transition and start scores that allow exactly the valid BIO sequences."""
        size = len(labels)
        allowed = torch.zeros(size + 2, size + 2, dtype=torch.bool)
        for from_index, to_index in allowed_transitions("BIO", labels):
            allowed[from_index, to_index] = True
        impossible = float("-inf")
        transitions = torch.zeros(size, size).masked_fill(~allowed[:size, :size], impossible)
        starts = torch.zeros(size).masked_fill(~allowed[size, :size], impossible)
        self.register_buffer("_transitions", transitions, persistent=False)
        self.register_buffer("_start_transitions", starts, persistent=False)

    def _tag_strings(self, tag_ids: List[int]) -> List[str]:
        return [self.vocab.get_token_from_index(index, self.label_namespace) for index in tag_ids]


def _check_bio(labels) -> None:
    """Every label must be `O`, `B-X` or `I-X`: the decoding constraints depend on it."""
    foreign = sorted(label for label in labels if label != "O" and label[:2] not in ("B-", "I-"))
    if foreign:
        raise ConfigurationError(f"SRL labels must be BIO (O, B-X, I-X); found {', '.join(foreign[:5])}")
