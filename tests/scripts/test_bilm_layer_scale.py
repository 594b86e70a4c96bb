import subprocess
import sys

from tests.helpers.repository import ROOT


def test_each_layer_and_the_word_vectors_get_a_row_of_their_scale(tiny_elmo, tmp_path):
    text = tmp_path / "text.txt"
    text.write_text("The cat sat .\n\nA dog ran home .\nNot read : past --lines .\n", encoding="utf-8")
    vectors = tmp_path / "vectors.txt"
    vectors.write_text("the 3.0 4.0\ndog 0.0 -1.0\nzebra 9.0 9.0\n", encoding="utf-8")
    command = [sys.executable, "scripts/bilm_layer_scale.py", *map(str, tiny_elmo), str(text), "--tokenized"]
    result = subprocess.run(
        command + ["--lines", "2", "--word-vectors", str(vectors)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    lines = result.stdout.splitlines()
    assert lines[0] == f"{text}: 2 sentences, 9 tokens"  # the empty line skipped, the fourth past --lines
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| layer")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| 0 (token)",
        "| 1 (biLSTM)",
        "| 2 (biLSTM)",
        "| word vectors (vectors.txt)",
    ]
    # "the" (3, 4) and "dog" (0, -1): mean |x| 2.0, rms sqrt(26 / 4), max 4, mean norm (5 + 1) / 2
    assert rows[-1] == "| word vectors (vectors.txt) | 2 | 2.000 | 2.550 | 4.00 | 3.00 |"

    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    failed = subprocess.run([*command[:-2], str(empty)], cwd=ROOT, capture_output=True, text=True)
    assert failed.returncode != 0 and f"{empty}: no non-empty line" in failed.stderr
