"""
The suite's `allennlp` subcommands, each declared by what sets it apart: its description, its
arguments, what it runs.
"""

import argparse

from allennlp.commands.subcommand import Subcommand


class Command(Subcommand):
    """
    A subcommand of the suite, registered with `@Subcommand.register(name)`. A subclass gives its
    `description` (the help the `allennlp` command prints), `add_arguments` and `run`, which the
    `allennlp` command calls with the parsed arguments.
    """

    description = ""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        subparser = parser.add_parser(self.name, description=self.description, help=self.description)
        self.add_arguments(subparser)
        subparser.set_defaults(func=self.run)
        return subparser

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        raise NotImplementedError

    def run(self, args: argparse.Namespace) -> None:
        raise NotImplementedError
