"""`allennlp export-bilm`: a trained biLM archive to the `options.json` + `weights.hdf5` ELMo reads."""

import argparse
import logging

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

from tasks.bilm.model import BidirectionalLm
from tasks.bilm.weight_file import export_elmo_files
from tasks.common.command import Command

logger = logging.getLogger(__name__)


@Subcommand.register("export-bilm")
class ExportBilm(Command):
    description = (
        "Write a biLM trained with configs/bilm_pretrain.jsonnet as options.json and weights.hdf5 "
        "in the original ELMo layout, for ELMO_OPTIONS_FILE / ELMO_WEIGHT_FILE."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("archive_file", help="model.tar.gz (or a serialization directory) of a biLM run")
        parser.add_argument("output_dir", help="where to write options.json and weights.hdf5")

    def run(self, args: argparse.Namespace) -> None:
        model = load_archive(args.archive_file).model
        if not isinstance(model, BidirectionalLm):
            raise ConfigurationError(f"{args.archive_file} holds a {type(model).__name__}, not a biLM")
        export_elmo_files(model, args.output_dir)
        logger.info("Wrote %s/options.json and %s/weights.hdf5", args.output_dir, args.output_dir)
