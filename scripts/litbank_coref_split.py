"""Write one of LitBank's ten coreference splits as CoNLL-2012 train, dev and test files.

LitBank (Bamman et al. 2020) ships its 100 coreference documents one per file
(``coref/conll/<name>.conll``, already in the CoNLL-2012 layout) and ten document splits
(``litbank_tenfold_splits/N/{train,dev,test}.ids``, one ``<name>.tsv`` per line). This script
checks every document of split N (with the suite's CoNLL-2012 parser, which stops at the first
malformed line) and writes ``train.conll``, ``dev.conll`` and ``test.conll`` into the output folder,
each the split's documents one after another, as OntoNotes' ``*.v4_gold_conll`` files are. It then
prints the variables that point the coreference configs at them:

    python scripts/litbank_coref_split.py --litbank ../shared/data/litbank --split 0 \
        --output-dir runs/litbank_coref_data_0
"""

import argparse
import sys
from pathlib import Path
from typing import Dict, List

from data_readers.conll2012 import read_conll2012

SPLITS = {"train": "COREF_TRAIN_DATA", "dev": "COREF_DEV_DATA", "test": "COREF_TEST_DATA"}


def split_documents(litbank: Path, split: int) -> Dict[str, List[Path]]:
    """The coreference file of each document in split `split`, per part (train, dev, test)."""
    split_directory = litbank / "litbank_tenfold_splits" / str(split)
    documents = litbank / "coref" / "conll"
    if not split_directory.is_dir():
        raise SystemExit(f"{split_directory} is not a directory: expected LitBank's litbank_tenfold_splits/{split}")
    files: Dict[str, List[Path]] = {}
    for part in SPLITS:
        ids_file = split_directory / f"{part}.ids"
        if not ids_file.is_file():
            raise SystemExit(f"{ids_file} is missing: expected one document id per line")
        paths = []
        for line_number, line in enumerate(ids_file.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            path = documents / (Path(line.strip()).stem + ".conll")
            if not path.is_file():
                raise SystemExit(f"{ids_file}, line {line_number}: {line.strip()!r} has no coreference file {path}")
            paths.append(path)
        files[part] = paths
    return files


def write_split(litbank: Path, split: int, output_dir: Path) -> Dict[str, Path]:
    """Checks and writes the three files of split `split`; returns the path of each part's."""
    output_dir.mkdir(parents=True, exist_ok=True)
    outputs = {}
    for part, paths in split_documents(litbank, split).items():
        tokens = sum(document.num_tokens for path in paths for document in read_conll2012(path))
        texts = [path.read_text(encoding="utf-8") for path in paths]
        outputs[part] = output_dir / f"{part}.conll"
        outputs[part].write_text(
            "".join(text if text.endswith("\n") else text + "\n" for text in texts), encoding="utf-8"
        )
        print(f"# {part}: {len(paths)} documents, {tokens} tokens", file=sys.stderr)
    return outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--litbank", type=Path, required=True, help="LitBank's folder (with coref/ and litbank_tenfold_splits/)"
    )
    parser.add_argument("--split", type=int, default=0, help="which of the ten splits, 0-9 (default 0)")
    parser.add_argument("--output-dir", type=Path, required=True)
    args = parser.parse_args()
    for part, path in write_split(args.litbank, args.split, args.output_dir).items():
        print(f"export {SPLITS[part]}={path.resolve()}")


if __name__ == "__main__":
    main()
