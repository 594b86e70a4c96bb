"""
The suite as the `allennlp` command loads it: `.allennlp_plugins` names this module, and
`--include-package tasks` imports it with the rest of the package. Besides registering every
component (`import tasks`), it gives each variable the configs read its default when it is unset
(`tasks.environment.apply_defaults`): the command evaluates a config's `std.extVar`s from the
environment right after loading its plugins, so this is where the defaults must be in place.
"""

import tasks  # noqa: F401  (registers every component)
from tasks.environment import apply_defaults

apply_defaults()
