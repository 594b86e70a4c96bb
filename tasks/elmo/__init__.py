"""ELMo as the paper defines it, over a fast, deterministic and cacheable frozen biLM."""

from tasks.elmo import archived  # noqa: F401  (an archive's ELMo on the machine that opens it)
from tasks.elmo.cache import ActivationCache
from tasks.elmo.commands import ElmoCache, ElmoEmbed
from tasks.elmo.elmo import FastElmoTokenEmbedder, PaperElmo, check_elmo_places
from tasks.elmo.frozen_bilm import FrozenBilm
