"""`allennlp demo`: serves trained archives on a local web page (tasks/demo/app.py), a tab per model."""

import argparse
import logging
import sys
from pathlib import Path

from allennlp.commands.subcommand import Subcommand
from allennlp.common.util import SigTermReceived

from tasks.common.command import Command

logger = logging.getLogger(__name__)


@Subcommand.register("demo")
class Demo(Command):
    description = (
        "Serve trained models on a local web page, a tab per model (NER, SRL, coreference, SQuAD, SST-5, "
        "SNLI), with a JSON API that answers exactly as `allennlp predict` does."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--archive",
            action="append",
            default=[],
            metavar="NAME=PATH",
            help="a model to serve, by the name of its tab: ner=runs/ner/model.tar.gz (repeatable)",
        )
        parser.add_argument("--runs-dir", help="also serve every finished run of a plan's folder, by run name")
        parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this machine only)")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--max-chars", type=int, default=5000, help="the longest text a request may hold (default 5,000)"
        )

    def run(self, args: argparse.Namespace) -> None:
        import uvicorn

        from tasks.demo.app import make_app
        from tasks.demo.models import finished_runs, load

        archives = {}
        for item in args.archive:
            name, separator, path = item.partition("=")
            if not separator or not name or not path:
                sys.exit(f"--archive {item!r}: expected NAME=PATH, e.g. ner=runs/ner/model.tar.gz")
            archives[name] = path
        if args.runs_dir:
            if not Path(args.runs_dir).is_dir():
                sys.exit(f"--runs-dir {args.runs_dir}: no such folder")
            archives.update(finished_runs(Path(args.runs_dir)))
        if not archives:
            sys.exit("nothing to serve: give --archive NAME=PATH (repeatable) or --runs-dir")
        missing = [path for path in archives.values() if not Path(path).is_file()]
        if missing:
            sys.exit(f"no such archive: {', '.join(missing)}")
        models = {}
        for name, path in archives.items():
            logger.info("Loading %s from %s", name, path)
            models[name] = load(name, path)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            logger.warning("Listening on %s: anyone who can reach this machine can use the models", args.host)
        print(f"Serving {', '.join(models)} at http://{args.host}:{args.port}/", flush=True)
        try:
            uvicorn.run(make_app(models, args.max_chars), host=args.host, port=args.port, log_level="warning")
        except SigTermReceived:  # uvicorn shut down cleanly, then passed the signal on to allennlp's handler
            logger.info("Stopped by SIGTERM")
