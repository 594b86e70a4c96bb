"""
The end-to-end coreference model of Lee et al. (2017), as the ELMo paper's coreference experiment
uses it (Peters et al. 2018, §A.6), on allennlp-models' `coref` model.

allennlp-models' model follows Lee et al. only in part; this subclass keeps its mention and
antecedent scorers, distance features, antecedent pruning, loss and cluster decoding, and restores
what the paper has and it lacks:

- each sentence is encoded on its own, by the biLSTM and by ELMo (allennlp-models runs both over the
  whole document as one sequence, which the biLM never saw in pretraining);
- the head attention scores words from the biLSTM outputs x* and averages the input embeddings x
  (allennlp-models scores from x itself);
- dropout on the biLSTM outputs and on the width, speaker, genre and distance features;
- the same-speaker and genre features of the antecedent score;
- mention pruning that keeps no span crossing a better one;
- the CoNLL-2012 metrics as the reference scorer computes them (`Conll2012CorefScores`).
"""

import math
from typing import Any, Dict, List, Sequence

import torch
from allennlp.common import Lazy
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import FeedForward, Seq2SeqEncoder, TextFieldEmbedder, TimeDistributed
from allennlp.modules.token_embedders import Embedding
from allennlp.nn import InitializerApplicator, util
from allennlp_models.coref.models.coref import CoreferenceResolver

from tasks.coref.metrics import Conll2012CorefScores
from tasks.coref.pruning import batched_non_crossing_top_spans

ONTONOTES_GENRES = ("bc", "bn", "mz", "nw", "pt", "tc", "wb")


class SentenceLayout:
    """
    Moves token tensors between document order `(documents, document length, ...)` and sentence
    order `(sentences, sentence length, ...)`, zeros in the padding, from each document's sentence
    lengths.
    """

    def __init__(self, sentence_lengths: Sequence[Sequence[int]], document_length: int, device: torch.device) -> None:
        sentences = [
            (document, sum(lengths[:i]), length)
            for document, lengths in enumerate(sentence_lengths)
            for i, length in enumerate(lengths)
        ]
        longest = max(length for _, _, length in sentences)
        positions = torch.arange(longest)
        starts = torch.tensor([document * document_length + offset for document, offset, _ in sentences])
        self.sentence_mask = positions.unsqueeze(0) < torch.tensor([length for _, _, length in sentences]).unsqueeze(1)
        # for each sentence position, its place in the flattened documents
        self._to_document_place = torch.where(self.sentence_mask, starts.unsqueeze(1) + positions, 0)
        self.document_mask = torch.zeros(len(sentence_lengths) * document_length, dtype=torch.bool)
        self.document_mask[self._to_document_place[self.sentence_mask]] = True
        # for each document position, its place in the flattened sentences
        self._to_sentence_place = torch.zeros(len(sentence_lengths) * document_length, dtype=torch.long)
        self._to_sentence_place[self._to_document_place[self.sentence_mask]] = torch.nonzero(
            self.sentence_mask.flatten()
        ).squeeze(1)
        self.num_documents, self.document_length = len(sentence_lengths), document_length
        for name in ("sentence_mask", "document_mask", "_to_document_place", "_to_sentence_place"):
            setattr(self, name, getattr(self, name).to(device))

    def by_sentence(self, tensor: torch.Tensor) -> torch.Tensor:
        flat = tensor.reshape(self.num_documents * self.document_length, *tensor.shape[2:])
        return _zero_outside(flat[self._to_document_place], self.sentence_mask)

    def by_document(self, tensor: torch.Tensor) -> torch.Tensor:
        flat = tensor.reshape(-1, *tensor.shape[2:])
        in_documents = _zero_outside(flat[self._to_sentence_place], self.document_mask)
        return in_documents.reshape(self.num_documents, self.document_length, *tensor.shape[2:])

    def text_by_sentence(self, text: TextFieldTensors) -> TextFieldTensors:
        """Every tensor of a text field (token ids, character ids, ELMo's character ids) in sentence order."""
        return {
            indexer: {key: self.by_sentence(tensor) for key, tensor in tensors.items()}
            for indexer, tensors in text.items()
        }


def _zero_outside(tensor: torch.Tensor, mask: torch.BoolTensor) -> torch.Tensor:
    mask = mask.view(*mask.shape, *([1] * (tensor.dim() - mask.dim())))
    return torch.where(mask, tensor, torch.zeros((), dtype=tensor.dtype, device=tensor.device))


@Model.register("e2e_coref")
class EndToEndCoreferenceResolver(CoreferenceResolver):
    """
    Lee et al. (2017): every span of up to `max_span_width` words within a sentence is a candidate
    mention, represented by the biLSTM outputs at its ends, an embedding of its width and an
    attention-weighted average of its words' input embeddings (its "head"); a mention score
    prunes them to `spans_per_word` per word, without crossing spans; each kept span scores up to
    `max_antecedents` preceding kept spans and a dummy "no antecedent" (score 0) by the two mention
    scores plus a pair score over both spans, their product and features (same speaker, genre,
    distance in spans). Trained on the marginal likelihood of the gold antecedents; decoded by
    linking each span to its best antecedent.

    Registered as a `Model` with name "e2e_coref"; its default predictor is "coref_resolver".
    Takes the instances of the "conll2012_coref" reader (whose `metadata` has `sentence_lengths`,
    `speakers` and `genre`).

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds each sentence of the `text` field (words, characters and, in the ELMo configs, ELMo).
    context_layer : `Lazy[Seq2SeqEncoder]`
        The biLSTM over each sentence, built here with `input_size` set to the embedder's output size.
    mention_feedforward, antecedent_feedforward : `Lazy[FeedForward]`
        The hidden layers of the mention and pair scores, built here with their `input_dim`.
    feature_size : `int`, optional (default = `20`)
        The size of the width, speaker, genre and distance embeddings.
    max_span_width : `int`, optional (default = `10`)
        Must equal the reader's.
    spans_per_word : `float`, optional (default = `0.4`)
    max_antecedents : `int`, optional (default = `250`)
    lexical_dropout : `float`, optional (default = `0.5`)
        On the input embeddings (ELMo included).
    dropout : `float`, optional (default = `0.2`)
        On the biLSTM outputs and the feature embeddings (the feedforward layers take their own).
    genres : `List[str]`, optional (default = OntoNotes' seven)
        Genres with an embedding of their own; a document of any other genre (or none: LitBank,
        raw text) gets one shared embedding.
    use_metadata : `bool`, optional (default = `True`)
        Whether the pair score sees the same-speaker and genre features.
    non_crossing_pruning : `bool`, optional (default = `True`)
        Lee et al.'s pruning; `False` keeps the top-scoring spans whether or not they cross (allennlp-models').
    """

    default_predictor = "coref_resolver"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        context_layer: Lazy[Seq2SeqEncoder],
        mention_feedforward: Lazy[FeedForward],
        antecedent_feedforward: Lazy[FeedForward],
        feature_size: int = 20,
        max_span_width: int = 10,
        spans_per_word: float = 0.4,
        max_antecedents: int = 250,
        lexical_dropout: float = 0.5,
        dropout: float = 0.2,
        genres: Sequence[str] = ONTONOTES_GENRES,
        use_metadata: bool = True,
        non_crossing_pruning: bool = True,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        embedding_dim = text_field_embedder.get_output_dim()
        encoder = context_layer.construct(input_size=embedding_dim)
        span_dim = 2 * encoder.get_output_dim() + feature_size + embedding_dim
        pair_feature_dim = feature_size * (3 if use_metadata else 1)
        super().__init__(
            vocab,
            text_field_embedder,
            encoder,
            mention_feedforward.construct(input_dim=span_dim),
            antecedent_feedforward.construct(input_dim=3 * span_dim + pair_feature_dim),
            feature_size,
            max_span_width,
            spans_per_word,
            max_antecedents,
            lexical_dropout=lexical_dropout,
            **kwargs,
        )
        # Replaced below: the span representation (its width features take dropout; its head
        # attention scores from the biLSTM) and the metric (the reference scorer's).
        del self._endpoint_span_extractor, self._attentive_span_extractor, self._conll_coref_scores
        self._width_embedding = Embedding(embedding_dim=feature_size, num_embeddings=max_span_width)
        self._head_scorer = TimeDistributed(torch.nn.Linear(encoder.get_output_dim(), 1))
        self._dropout = torch.nn.Dropout(dropout)
        self._use_metadata = use_metadata
        self._genres = {genre: index for index, genre in enumerate(genres)}
        if use_metadata:
            self._same_speaker_embedding = Embedding(embedding_dim=feature_size, num_embeddings=2)
            self._genre_embedding = Embedding(embedding_dim=feature_size, num_embeddings=len(genres) + 1)
        self._non_crossing_pruning = non_crossing_pruning
        self._coref_scores = Conll2012CorefScores()
        initializer(self)

    def forward(  # type: ignore
        self,
        text: TextFieldTensors,
        spans: torch.IntTensor,
        metadata: List[Dict[str, Any]],
        span_labels: torch.IntTensor = None,
    ) -> Dict[str, Any]:
        """
        `spans` `(batch, num_spans, 2)`: candidate mentions (inclusive token offsets, -1 padding);
        `span_labels` `(batch, num_spans)`: each candidate's gold cluster, -1 for none. Returns
        `top_spans`, `antecedent_indices`, `predicted_antecedents` (as allennlp-models' model),
        `document`, and with gold labels the `loss`.
        """
        embedded, contextual = self._encode_sentences(text, metadata)
        span_mask = spans[:, :, 0] >= 0
        spans = torch.relu(spans.float()).long()
        span_embeddings = self._span_embeddings(embedded, contextual, spans)
        mention_scores = self._mention_scorer(self._mention_feedforward(span_embeddings)).squeeze(-1)

        # The best `spans_per_word` spans per word of each document, in document order.
        num_to_keep = [
            min(max(1, math.floor(self._spans_per_word * sum(entry["sentence_lengths"]))), spans.size(1))
            for entry in metadata
        ]
        if self._non_crossing_pruning:
            top_indices, top_mask = batched_non_crossing_top_spans(spans, mention_scores, span_mask, num_to_keep)
        else:
            _, top_mask, top_indices = util.masked_topk(
                mention_scores, span_mask, torch.tensor(num_to_keep, device=spans.device)
            )
        flat_top_indices = util.flatten_and_batch_shift_indices(top_indices, spans.size(1))
        top_spans = util.batched_index_select(spans, top_indices, flat_top_indices)
        top_embeddings = util.batched_index_select(span_embeddings, top_indices, flat_top_indices)
        top_mention_scores = util.batched_index_select(
            mention_scores.unsqueeze(-1), top_indices, flat_top_indices
        ).squeeze(-1)

        # Up to `max_antecedents` preceding kept spans per kept span (the nearest ones).
        max_antecedents = min(self._max_antecedents, top_indices.size(1))
        partial_scores, antecedent_mask, antecedent_offsets, antecedent_indices = self._distance_pruning(
            top_embeddings, top_mention_scores, max_antecedents
        )
        antecedent_mask = antecedent_mask & top_mask.unsqueeze(-1)
        flat_antecedent_indices = util.flatten_and_batch_shift_indices(antecedent_indices, top_indices.size(1))
        features = self._pair_features(
            metadata, top_spans, antecedent_indices, flat_antecedent_indices, antecedent_offsets
        )
        coreference_scores = self._coreference_scores(
            top_embeddings, antecedent_indices, flat_antecedent_indices, features, partial_scores, antecedent_mask
        )
        predicted_antecedents = coreference_scores.argmax(-1) - 1
        predicted_antecedents = predicted_antecedents.masked_fill(~top_mask, -1)
        top_spans = top_spans.masked_fill(~top_mask.unsqueeze(-1), -1)

        output: Dict[str, Any] = {
            "top_spans": top_spans,
            "antecedent_indices": antecedent_indices,
            "predicted_antecedents": predicted_antecedents,
            "document": [entry["original_text"] for entry in metadata],
        }
        if span_labels is not None:
            output["loss"] = self._loss(
                span_labels,
                top_indices,
                flat_top_indices,
                top_mask,
                antecedent_indices,
                flat_antecedent_indices,
                antecedent_mask,
                coreference_scores,
            )
        if all("clusters" in entry for entry in metadata):
            self._mention_recall(top_spans, metadata)
            predicted = self.make_output_human_readable(dict(output))["clusters"]
            self._coref_scores(predicted, [entry["clusters"] for entry in metadata])
        return output

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        """The CoNLL-2012 average and mention recall in the progress bar; every metric at the end of an epoch."""
        metrics = self._coref_scores.get_metric(reset)
        metrics["mention_recall"] = self._mention_recall.get_metric(reset)
        if reset:
            return metrics
        return {name: metrics[name] for name in ("coref_f1", "mention_recall")}

    def _encode_sentences(self, text: TextFieldTensors, metadata: List[Dict[str, Any]]):
        """Input embeddings (after lexical dropout) and biLSTM outputs (after dropout), each sentence on its own."""
        sentence_lengths = [entry["sentence_lengths"] for entry in metadata]
        for entry, lengths in zip(metadata, sentence_lengths):
            if sum(lengths) != len(entry["original_text"]) or not all(lengths):
                raise ValueError(
                    f"sentence lengths {lengths} must be positive and add up to the document's "
                    f"{len(entry['original_text'])} tokens"
                )
        document_mask = util.get_text_field_mask(text)
        layout = SentenceLayout(sentence_lengths, document_mask.size(1), document_mask.device)
        embedded = self._lexical_dropout(self._text_field_embedder(layout.text_by_sentence(text)))
        contextual = self._dropout(self._context_layer(embedded, layout.sentence_mask))
        return layout.by_document(embedded), layout.by_document(contextual)

    def _span_embeddings(
        self, embedded: torch.Tensor, contextual: torch.Tensor, spans: torch.LongTensor
    ) -> torch.Tensor:
        """[x*_start, x*_end, width, head]: `(batch, num_spans, span_dim)`."""
        starts = util.batched_index_select(contextual, spans[:, :, 0])
        ends = util.batched_index_select(contextual, spans[:, :, 1])
        widths = self._dropout(self._width_embedding(spans[:, :, 1] - spans[:, :, 0]))
        head_logits, width_mask = util.batched_span_select(self._head_scorer(contextual), spans)
        words, _ = util.batched_span_select(embedded, spans)
        heads = util.weighted_sum(words, util.masked_softmax(head_logits.squeeze(-1), width_mask))
        return torch.cat([starts, ends, widths, heads], -1)

    def _pair_features(
        self,
        metadata: List[Dict[str, Any]],
        top_spans: torch.LongTensor,
        antecedent_indices: torch.LongTensor,
        flat_antecedent_indices: torch.LongTensor,
        antecedent_offsets: torch.LongTensor,
    ) -> torch.Tensor:
        """Same speaker, genre and distance embeddings of each (span, antecedent) pair, after dropout."""
        distance = self._distance_embedding(
            util.bucket_values(antecedent_offsets, num_total_buckets=self._num_distance_buckets)
        )
        if not self._use_metadata:
            return self._dropout(distance)
        device = top_spans.device
        speaker_ids = torch.tensor(
            [_speaker_ids(entry["speakers"], starts) for entry, starts in zip(metadata, top_spans[:, :, 0].tolist())],
            dtype=torch.long,
            device=device,
        )
        antecedent_speaker_ids = util.batched_index_select(
            speaker_ids.unsqueeze(-1), antecedent_indices, flat_antecedent_indices
        ).squeeze(-1)
        same_speaker = self._same_speaker_embedding((speaker_ids.unsqueeze(-1) == antecedent_speaker_ids).long())
        genre_ids = torch.tensor(
            [self._genres.get(entry.get("genre"), len(self._genres)) for entry in metadata], device=device
        )
        genre = self._genre_embedding(genre_ids).view(len(metadata), 1, 1, -1).expand_as(distance)
        return self._dropout(torch.cat([same_speaker, genre, distance], -1))

    def _coreference_scores(
        self,
        top_embeddings: torch.Tensor,
        antecedent_indices: torch.LongTensor,
        flat_antecedent_indices: torch.LongTensor,
        features: torch.Tensor,
        partial_scores: torch.Tensor,
        antecedent_mask: torch.BoolTensor,
    ) -> torch.Tensor:
        """
        `(batch, num_top_spans, 1 + max_antecedents)`: the dummy's 0, then each antecedent's score,
        the mention scores plus FFNN([g_i, g_j, g_i ∘ g_j, φ(i, j)]).

        The FFNN's first layer is applied to the four parts separately (its weight split by
        columns), which is the same function: the parts for g_i and g_j are then computed once
        per span rather than once per pair, and the pairs' concatenation is never built. This
        cuts the time and memory of the largest computation of the model by about two thirds.
        """
        feedforward = self._antecedent_feedforward._module
        first_layer = feedforward._linear_layers[0]
        span_dim = top_embeddings.size(-1)
        target_weight, antecedent_weight, product_weight, feature_weight = first_layer.weight.split(
            [span_dim, span_dim, span_dim, features.size(-1)], dim=1
        )
        antecedent_embeddings = util.batched_index_select(top_embeddings, antecedent_indices, flat_antecedent_indices)
        antecedent_parts = util.batched_index_select(
            top_embeddings @ antecedent_weight.t(), antecedent_indices, flat_antecedent_indices
        )
        hidden = (
            (top_embeddings @ target_weight.t()).unsqueeze(2)
            + antecedent_parts
            + (top_embeddings.unsqueeze(2) * antecedent_embeddings) @ product_weight.t()
            + features @ feature_weight.t()
            + first_layer.bias
        )
        hidden = feedforward._dropout[0](feedforward._activations[0](hidden))
        for layer, activation, dropout in zip(
            feedforward._linear_layers[1:], feedforward._activations[1:], feedforward._dropout[1:]
        ):
            hidden = dropout(activation(layer(hidden)))
        scores = self._antecedent_scorer(hidden).squeeze(-1) + partial_scores
        scores = util.replace_masked_values(scores, antecedent_mask, util.min_value_of_dtype(scores.dtype))
        return torch.cat([scores.new_zeros(*scores.shape[:2], 1), scores], -1)

    def _loss(
        self,
        span_labels: torch.IntTensor,
        top_indices: torch.LongTensor,
        flat_top_indices: torch.LongTensor,
        top_mask: torch.BoolTensor,
        antecedent_indices: torch.LongTensor,
        flat_antecedent_indices: torch.LongTensor,
        antecedent_mask: torch.BoolTensor,
        coreference_scores: torch.Tensor,
    ) -> torch.Tensor:
        """Minus the log of the probability of all gold antecedents (the dummy for spans without one), summed."""
        top_labels = util.batched_index_select(span_labels.unsqueeze(-1), top_indices, flat_top_indices)
        antecedent_labels = util.batched_index_select(top_labels, antecedent_indices, flat_antecedent_indices).squeeze(
            -1
        )
        antecedent_labels = util.replace_masked_values(antecedent_labels, antecedent_mask, -100)
        gold = self._compute_antecedent_gold_labels(top_labels, antecedent_labels)
        log_probabilities = torch.log_softmax(coreference_scores, -1)
        gold_log_probability = util.logsumexp(log_probabilities + gold.log())
        return -torch.where(top_mask, gold_log_probability, torch.zeros_like(gold_log_probability)).sum()


def _speaker_ids(speakers: List[str], span_starts: List[int]) -> List[int]:
    """For each span start, an id of its word's speaker (equal ids: the same speaker)."""
    ids: Dict[str, int] = {}
    return [ids.setdefault(speakers[start], len(ids)) for start in span_starts]
