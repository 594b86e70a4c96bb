from data_readers.tokenizers import BlankSpacyTokenizer


def test_tokens_keep_character_offsets():
    text = "Alan Turing worked at Bletchley Park, didn't he?"
    tokens = BlankSpacyTokenizer().tokenize(text)
    assert [t.text for t in tokens] == [
        "Alan",
        "Turing",
        "worked",
        "at",
        "Bletchley",
        "Park",
        ",",
        "did",
        "n't",
        "he",
        "?",
    ]
    assert all(text[t.idx : t.idx_end] == t.text for t in tokens)


def test_whitespace_is_not_a_token():
    assert [t.text for t in BlankSpacyTokenizer().tokenize("  two \n words  ")] == ["two", "words"]


def test_sentences_are_split_by_the_rule_based_sentencizer():
    text = "Ada wrote notes. Babbage built engines! Did they meet?"
    sentences = BlankSpacyTokenizer().split_sentences(text)
    assert [[t.text for t in s] for s in sentences] == [
        ["Ada", "wrote", "notes", "."],
        ["Babbage", "built", "engines", "!"],
        ["Did", "they", "meet", "?"],
    ]
    assert text[sentences[1][0].idx : sentences[1][-1].idx_end] == "Babbage built engines!"
