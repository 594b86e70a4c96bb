"""The ELMo paper's downstream experiments, one package per task, registered as AllenNLP plugins."""
import allennlp_compat  # noqa: F401  (torch 2.x fixes first)
from tasks.environment import apply_defaults

apply_defaults()

import tasks.bilm  # noqa: E402,F401
import tasks.elmo  # noqa: E402,F401
import tasks.ner  # noqa: E402,F401
import tasks.sst  # noqa: E402,F401
import tasks.snli  # noqa: E402,F401
import tasks.squad  # noqa: E402,F401
import tasks.reproduce  # noqa: E402,F401
import tasks.coref  # noqa: E402,F401
import tasks.srl  # noqa: E402,F401
import tasks.inspect  # noqa: E402,F401
