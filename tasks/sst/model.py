"""
The biattentive classification network (McCann et al. 2017) of the ELMo paper's sentiment
experiment (Peters et al. 2018, §A.8): allennlp-models' `bcn`, whose ELMo is a `PaperElmo` with one
scalar mix per place it enters (the input, the output of the integrator biLSTM).
"""

from typing import Optional

from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.modules import FeedForward, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator
from allennlp_models.classification.models.biattentive_classification_network import (
    BiattentiveClassificationNetwork,
)

from tasks.elmo import PaperElmo


@Model.register("elmo_bcn")
class ElmoBcn(BiattentiveClassificationNetwork):
    """
    allennlp-models' `bcn` (same keys, same forward) with two changes: `elmo` is a `PaperElmo`
    (`elmo.module(settings, ...)` in a config), and the input sizes of `pre_encode_feedforward`
    and `output_layer` (a `FeedForward`: the paper replaces BCN's maxout by two ReLU layers with
    dropout) are filled in here from the embedder, the integrator and the ELMo vectors, so a config
    does not depend on the size of a given biLM.

    The ELMo representations are the mixes of `elmo` in order: the input's first (if
    `use_input_elmo`), then the integrator output's (if `use_integrator_output_elmo`).

    Registered as a `Model` with name "elmo_bcn"; its default predictor is "sentiment_classifier".

    # Parameters

    pre_encode_feedforward, output_layer : `Lazy[FeedForward]`
        Everything but `input_dim`.
    elmo : `PaperElmo`, optional
        One scalar mix per place ELMo enters; leave out (and both flags false) for the baseline.

    The other parameters are `bcn`'s.
    """

    default_predictor = "sentiment_classifier"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        embedding_dropout: float,
        pre_encode_feedforward: Lazy[FeedForward],
        encoder: Seq2SeqEncoder,
        integrator: Seq2SeqEncoder,
        integrator_dropout: float,
        output_layer: Lazy[FeedForward],
        elmo: Optional[PaperElmo] = None,
        use_input_elmo: bool = False,
        use_integrator_output_elmo: bool = False,
        initializer: InitializerApplicator = InitializerApplicator(),
        **kwargs,
    ) -> None:
        elmo_dim = elmo.get_output_dim() if elmo is not None else 0
        input_dim = text_field_embedder.get_output_dim() + (elmo_dim if use_input_elmo else 0)
        pooled_dim = 4 * (integrator.get_output_dim() + (elmo_dim if use_integrator_output_elmo else 0))
        super().__init__(
            vocab,
            text_field_embedder,
            embedding_dropout,
            pre_encode_feedforward.construct(input_dim=input_dim),
            encoder,
            integrator,
            integrator_dropout,
            output_layer.construct(input_dim=pooled_dim),
            elmo=elmo,
            use_input_elmo=use_input_elmo,
            use_integrator_output_elmo=use_integrator_output_elmo,
            initializer=initializer,
            **kwargs,
        )
