"""The CoNLL-U words reader of the probes: tags, rolesets, and what it skips or refuses."""

import pytest

from data_readers.conllu_words import read_conllu_words
from data_readers.errors import DataFormatError
from tests.helpers.srl_data import UP_FILE


def test_conllu_words_reader_keeps_tags_and_rolesets_and_counts_what_it_skips(tmp_path, caplog):
    path = tmp_path / "up.conllu"
    path.write_text(UP_FILE, encoding="utf-8")
    with caplog.at_level("INFO"):
        first, second = read_conllu_words(str(path))
    assert first.words == ["Kim", "ran", "the", "shop", "."] and first.xpos[1] == "VBD" and first.upos[3] == "NOUN"
    assert first.rolesets == [None, "run.02", None, None, None]
    assert second.words == ["do", "n't", "run"] and second.rolesets == [None, None, None]  # no-up: no roleset read
    assert "1 multiword-token lines, 1 empty nodes, 1 sentences without PropBank annotation" in caplog.text
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tKim\tKim\tPROPN\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="bad.conllu, line 1: expected the 10 tab-separated columns"):
        read_conllu_words(str(bad))
    bad.write_text(
        "1\tKim\tKim\tPROPN\tNNP\t_\t0\troot\t_\t_\n3\tran\trun\tVERB\tVBD\t_\t1\tx\t_\t_\n", encoding="utf-8"
    )
    with pytest.raises(DataFormatError, match="line 2: expected word ID 2"):
        read_conllu_words(str(bad))
