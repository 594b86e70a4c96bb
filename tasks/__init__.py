"""
The ELMo paper's downstream experiments, one package per task, registered as AllenNLP components
when imported: `import tasks` (or `--include-package tasks`) is all a trained archive needs to load,
from any directory. Importing leaves the environment alone; `tasks.plugin`, which the `allennlp`
command loads, also gives the configs' variables their defaults.
"""

import allennlp_compat  # noqa: F401  (torch 2.x fixes first)
import data_readers  # noqa: F401
import tasks.bilm  # noqa: F401
import tasks.coref  # noqa: F401
import tasks.demo  # noqa: F401
import tasks.elmo  # noqa: F401
import tasks.inspect  # noqa: F401
import tasks.ner  # noqa: F401
import tasks.reproduce  # noqa: F401
import tasks.snli  # noqa: F401
import tasks.squad  # noqa: F401
import tasks.srl  # noqa: F401
import tasks.sst  # noqa: F401
