"""
Prints the README's status table, built from the committed report of the cpu plan
(docs/reproduce_cpu/README.md); with --write, puts it into README.md between its markers.
Run it after the report is rebuilt (`allennlp report`):

    python scripts/readme_status.py --write
"""

import argparse

from tasks.reproduce.status import README, REPORT, status_table, with_status_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write the table into {README.name}")
    args = parser.parse_args()
    table = status_table(REPORT)
    if args.write:
        README.write_text(with_status_table(README.read_text(encoding="utf-8"), table), encoding="utf-8")
    else:
        print(table, end="")


if __name__ == "__main__":
    main()
