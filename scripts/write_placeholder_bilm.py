"""
Writes the placeholder biLM bundled in `bundled/bilm/`: a tiny biLM with random weights, written
by our own weight writer in the original ELMo layout.

It lets every ELMo config run offline out of the box (the published weights cannot be downloaded
here) until the suite's own pretrained biLM replaces it. Its vectors carry no knowledge of
language: ELMo results with it say nothing about ELMo.

    python scripts/write_placeholder_bilm.py [--output-dir bundled/bilm] [--seed 0]
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.bilm.weight_file import random_weights, tiny_options, write_elmo_files  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", type=Path, default=Path(__file__).resolve().parent.parent / "bundled" / "bilm")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.output_dir.mkdir(parents=True, exist_ok=True)
    options = tiny_options(cell_dim=64, projection_dim=32)
    write_elmo_files(
        options, random_weights(options, seed=args.seed), args.output_dir / "options.json", args.output_dir / "weights.hdf5"
    )
    print(f"wrote {args.output_dir / 'options.json'} and {args.output_dir / 'weights.hdf5'}")


if __name__ == "__main__":
    main()
