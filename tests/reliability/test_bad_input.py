"""
Files the suite did not write, taken apart: model archives that reach outside their folder, damaged
activation caches, byte order marks, empty and truncated inputs. Each case is a row of the table in
docs/reliability.md.
"""

import io
import json
import logging
import os
import tarfile
from pathlib import Path

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.modules.elmo import batch_to_ids

from data_readers.conll2003 import Conll2003NerReader
from data_readers.errors import DataFormatError, numbered_lines
from data_readers.squad import SquadV1Reader
from tasks.elmo import FrozenBilm
from tests.helpers.repository import ROOT

SENTENCES = [["The", "cat", "sat", "."], ["Hello"], ["A", "longer", "sentence", "than", "the", "first", "!"]]


# --- model archives -------------------------------------------------------------------------------


def _archive(path: Path, members) -> Path:
    """A gzipped tar file with `members`: (TarInfo, bytes or None)."""
    with tarfile.open(path, "w:gz") as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _file(name: str, data: bytes = b"x") -> tuple:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _link(name: str, target: str, kind) -> tuple:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, None


@pytest.mark.parametrize(
    "member, problem",
    [
        (lambda outside: _file("../" * 12 + str(outside).lstrip("/")), "climbs out"),
        (lambda outside: _file(str(outside)), "absolute path"),
        (lambda outside: _link("config.json", str(outside), tarfile.SYMTYPE), "symbolic link"),
        (lambda outside: _link("weights.th", str(outside), tarfile.LNKTYPE), "hard link"),
    ],
)
def test_an_archive_reaching_outside_its_folder_is_refused_and_changes_nothing(tmp_path, member, problem):
    outside = tmp_path / "outside" / "victim.txt"
    outside.parent.mkdir()
    outside.write_text("untouched")
    outside.chmod(0o600)
    archive = _archive(tmp_path / "model.tar.gz", [_file("config.json", b"{}"), member(outside)])
    with pytest.raises(
        ConfigurationError, match=rf"{archive}: refusing to open this model archive: member .*{problem}"
    ):
        load_archive(str(archive))
    assert outside.read_text() == "untouched" and (outside.stat().st_mode & 0o777) == 0o600
    assert sorted(path.name for path in outside.parent.iterdir()) == ["victim.txt"]


def test_a_truncated_archive_is_named(tmp_path):
    whole = _archive(tmp_path / "whole.tar.gz", [_file("config.json", b"{}" * 5000)])
    cut = tmp_path / "model.tar.gz"
    cut.write_bytes(whole.read_bytes()[:60])
    with pytest.raises(ConfigurationError, match=rf"{cut}: not a readable model archive"):
        load_archive(str(cut))


# --- the activation cache ---------------------------------------------------------------------------


def _cached_layers(tiny_elmo, directory):
    bilm = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]), cache_directory=str(directory), cache_dtype="float32")
    with torch.no_grad():
        return bilm, bilm(batch_to_ids(SENTENCES))["activations"]


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "overwritten":
        data[len(data) // 2 : len(data) // 2 + 8] = b"\x00\x7f" * 4
    elif how == "random bytes":
        data[:] = os.urandom(len(data))
    elif how == "truncated":
        del data[len(data) // 3 :]
    elif how == "emptied":
        del data[:]
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["overwritten", "random bytes", "truncated", "emptied"])
def test_a_damaged_cache_entry_is_computed_again_never_used(tmp_path, tiny_elmo, how, caplog):
    _, expected = _cached_layers(tiny_elmo, tmp_path)
    data = next(tmp_path.glob("*/activations.bin"))
    _damage(data, how)
    with caplog.at_level(logging.WARNING):
        bilm, layers = _cached_layers(tiny_elmo, tmp_path)  # a new process would open it just so
    assert bilm.cache.damaged >= 1
    assert f"ELMo activation cache {bilm.cache.path}" in caplog.text and "computing them again" in caplog.text
    for got, want in zip(layers, expected):  # the damaged sentence computed alone, not in its batch: rounding
        torch.testing.assert_close(got, want, atol=1e-6, rtol=0)
    # What was computed again was stored again: the next reader finds every entry intact.
    again, _ = _cached_layers(tiny_elmo, tmp_path)
    assert (again.cache.damaged, again.cache.hits, again.cache.misses) == (0, 3, 0)


def test_an_append_cut_short_does_not_shift_later_entries(tmp_path, tiny_elmo):
    bilm, _ = _cached_layers(tiny_elmo, tmp_path)
    with open(bilm.cache.path / "activations.bin", "ab") as data:
        data.write(b"\x01")  # half a float16, or a quarter of a float32: a write stopped mid-value
    more = [["Another", "sentence", "entirely"]]
    with torch.no_grad():
        stored = bilm(batch_to_ids(more))["activations"]
        reader = FrozenBilm(str(tiny_elmo[0]), str(tiny_elmo[1]), cache_directory=str(tmp_path), cache_dtype="float32")
        read = reader(batch_to_ids(more))["activations"]
    assert (reader.cache.hits, reader.cache.damaged) == (1, 0)
    for got, want in zip(read, stored):
        torch.testing.assert_close(got, want, atol=0, rtol=0)


@pytest.mark.parametrize(
    "damaged_file, message",
    [
        ("index.sqlite", "its index, index.sqlite, cannot be read"),
        ("metadata.json", "metadata.json is not the JSON this suite writes"),
    ],
)
def test_a_damaged_cache_index_stops_naming_the_folder_to_delete(tmp_path, tiny_elmo, damaged_file, message):
    bilm, _ = _cached_layers(tiny_elmo, tmp_path)
    for leftover in bilm.cache.path.glob("index.sqlite-*"):  # SQLite's write-ahead log
        leftover.unlink()
    (bilm.cache.path / damaged_file).write_bytes(os.urandom(4096))
    with pytest.raises(ConfigurationError, match=rf"{bilm.cache.path}: {message}.*Delete that folder"):
        _cached_layers(tiny_elmo, tmp_path)


def test_caches_of_the_earlier_format_are_not_opened(tmp_path, tiny_elmo):
    bilm, _ = _cached_layers(tiny_elmo, tmp_path)
    assert bilm.cache.path.name.endswith("-float32-v3")


# --- encodings and empty files ---------------------------------------------------------------------


def test_a_byte_order_mark_is_not_part_of_the_first_line(tmp_path):
    path = tmp_path / "windows.txt"
    path.write_bytes("\ufefffirst\r\nsecond \ufeff kept\n".encode("utf-8"))
    assert [line for _, line in numbered_lines(path)] == ["first\r\n", "second \ufeff kept\n"]


def test_conll2003_with_a_byte_order_mark_reads_as_without(tmp_path, tiny_conll):
    with_mark = tmp_path / "bom.conll"
    with_mark.write_bytes(b"\xef\xbb\xbf" + tiny_conll.read_bytes())
    reader = Conll2003NerReader()
    read = [[token.text for token in instance["tokens"]] for instance in reader.read(str(with_mark))]
    assert read == [[token.text for token in instance["tokens"]] for instance in reader.read(str(tiny_conll))]
    assert not any("\ufeff" in word or "DOCSTART" in word for sentence in read for word in sentence)


def test_squad_json_with_a_byte_order_mark_reads(tmp_path):
    data = {
        "data": [
            {
                "title": "t",
                "paragraphs": [
                    {
                        "context": "Ada wrote notes.",
                        "qas": [
                            {
                                "id": "q1",
                                "question": "Who wrote notes?",
                                "answers": [{"text": "Ada", "answer_start": 0}],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    path = tmp_path / "squad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8"))
    assert len(list(SquadV1Reader().read(str(path)))) == 1


@pytest.mark.parametrize("content", [b"", b"\n\n", b"-DOCSTART- -X- -X- O\n\n"])
def test_a_data_file_with_no_instance_stops_naming_it(tmp_path, content):
    path = tmp_path / "eng.train"
    path.write_bytes(content)
    with pytest.raises(
        ConfigurationError,
        match=rf"{path}: no instances: the file is empty, or holds nothing the Conll2003NerReader reader takes",
    ):
        list(Conll2003NerReader().read(str(path)))


def test_text_that_is_not_utf8_names_the_line(tmp_path, tiny_conll):
    path = tmp_path / "latin1.conll"
    path.write_bytes(tiny_conll.read_bytes() + "Zürich NNP I-NP I-LOC\n".encode("latin-1"))
    with pytest.raises(DataFormatError, match=rf"{path}, line \d+: expected UTF-8 text, found byte 0xfc"):
        list(Conll2003NerReader().read(str(path)))


# --- biLM weight files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["truncated", "emptied", "random bytes"])
def test_a_damaged_weight_file_is_named_with_its_variable(tmp_path, tiny_elmo, how):
    weights = tmp_path / "weights.hdf5"
    weights.write_bytes(tiny_elmo[1].read_bytes())
    _damage(weights, how)
    with pytest.raises(ConfigurationError, match=rf"{weights}: cannot read the biLM weights .*ELMO_WEIGHT_FILE"):
        FrozenBilm(str(tiny_elmo[0]), str(weights))


def test_options_that_are_not_json_are_named(tmp_path, tiny_elmo):
    options = tmp_path / "options.json"
    options.write_text('{"lstm": ')
    with pytest.raises(ConfigurationError, match=rf"cannot read biLM options from {options}"):
        FrozenBilm(str(options), str(tiny_elmo[1]))


# --- every data format the suite reads ------------------------------------------------------------

BUNDLED = ROOT / "bundled" / "data"
READERS = {  # registered name, its arguments, and a bundled sample in that format
    "conll2003_ner": ({}, "ner/dev.txt"),
    "conll2012_coref": ({"max_span_width": 10}, "coref/dev.conll"),
    "srl_universal_propbank": ({}, "srl/dev.conllu"),
    "sst_trees": ({}, "sst/dev.txt"),
    "snli_jsonl": ({}, "snli/dev.jsonl"),
    "squad_v1": ({}, "squad/dev.json"),
    "lm_streams": ({"num_streams": 2, "unroll_steps": 5, "tokenized": True}, "lm/heldout.txt"),
}


def _reader(name: str):
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    arguments, _ = READERS[name]
    return DatasetReader.from_params(Params({"type": name, **arguments}))


def _described(instances) -> list:
    return [str(instance) for instance in instances]


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_format_reads_the_same_with_a_byte_order_mark(tmp_path, name):
    sample = BUNDLED / READERS[name][1]
    with_mark = tmp_path / sample.name
    with_mark.write_bytes(b"\xef\xbb\xbf" + sample.read_bytes())
    assert _described(_reader(name).read(str(with_mark))) == _described(_reader(name).read(str(sample)))


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_format_stops_on_an_empty_file(tmp_path, name):
    empty = tmp_path / Path(READERS[name][1]).name
    empty.write_bytes(b"")
    with pytest.raises((ConfigurationError, DataFormatError), match=rf"{empty}"):
        list(_reader(name).read(str(empty)))
