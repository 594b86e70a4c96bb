"""
A disk cache of a frozen biLM's activations, one entry per distinct sentence.

The biLM is frozen and every sentence starts from the same LSTM state, so a sentence's layers are
a function of its characters alone: they are computed once and read back in every later epoch,
run and experiment that uses the same biLM. Only the scalar mix, γ, dropout and the task model
train, exactly as before.

Layout, under `directory/<fingerprint>-<dtype>-v<format>/`. The fingerprint (`FrozenBilm.fingerprint`) is
taken from what the biLM computes with: its options, the values of its parameters as loaded and its
initial state, not from file names or bytes; and a frozen biLM whose parameters change after loading
refuses to run. So changed weights never meet old vectors, and a change of this definition changes
every fingerprint, leaving the folders written before it unread.

- `activations.bin`: the layers of each sentence, `(num_layers, tokens + 2, dim)` (with the
  sentence boundaries), one after another, float16 by default; read through a memory map.
- `index.sqlite`: sentence key (a hash of its character ids) -> offset, number of positions and
  the CRC-32 of the entry's bytes.

Writers append under an exclusive lock on `write.lock`, and a sentence enters the index only after
its bytes are written, so any number of processes can read (and fill) one cache at a time.

Checked before use: an entry whose bytes no longer match their checksum, or lie past the end of
the data file (overwritten, truncated, a disk error), is never returned: it is computed again,
stored anew, and the log says how many entries of which cache were damaged. A damaged index or
metadata file stops the run, naming the folder to delete (it fills again).
"""

import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import threading
import zlib
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple, Union

import numpy
import torch
from allennlp.common.checks import ConfigurationError

logger = logging.getLogger(__name__)

Activations = Dict[str, Union[torch.Tensor, List[torch.Tensor]]]
DTYPES = {"float16": numpy.float16, "float32": numpy.float32}
FORMAT_VERSION = 3  # in the folder name: caches of another format are never opened


class ActivationCache:
    """
    # Parameters

    directory : `str`
        The cache's root; one subdirectory per biLM (fingerprint) and storage type.
    fingerprint : `str`
        What the biLM computes (`FrozenBilm.fingerprint`).
    num_layers, dim : `int`
        Layers per sentence (token layer included) and their width.
    dtype : `str`, optional (default = `"float16"`)
        `"float16"` halves the disk and changes ELMo vectors by under 0.1 % of their size;
        `"float32"` stores them exactly.
    """

    def __init__(self, directory: str, fingerprint: str, num_layers: int, dim: int, dtype: str = "float16") -> None:
        if dtype not in DTYPES:
            raise ConfigurationError(f"cache dtype must be one of {sorted(DTYPES)}, not {dtype!r}")
        self.path = Path(directory) / f"{fingerprint[:24]}-{dtype}-v{FORMAT_VERSION}"
        self.path.mkdir(parents=True, exist_ok=True)
        self.num_layers, self.dim, self.dtype = num_layers, dim, DTYPES[dtype]
        self._check_metadata(
            {"format": FORMAT_VERSION, "fingerprint": fingerprint, "num_layers": num_layers, "dim": dim, "dtype": dtype}
        )
        self._data_path = self.path / "activations.bin"
        self._data_path.touch(exist_ok=True)
        self._connections = threading.local()  # SQLite's connections serve the thread that opened them
        self._map: Optional[numpy.memmap] = None
        self.hits = self.misses = self.damaged = 0

    def activations(self, character_ids: torch.Tensor, compute: Callable[[torch.Tensor], Activations]) -> Activations:
        """What `compute` (the biLM) returns for `character_ids`, computing only the sentences not stored."""
        lengths = (character_ids > 0).any(dim=-1).sum(dim=1).tolist()
        keys = [sentence_key(row[:length]) for row, length in zip(character_ids, lengths)]
        stored = self._lookup(set(keys))
        missing_rows = [row for row, key in enumerate(keys) if key not in stored]
        self.hits += len(keys) - len(missing_rows)
        self.misses += len(missing_rows)
        if missing_rows:
            longest = max(1, max(lengths[row] for row in missing_rows))
            computed = compute(character_ids[missing_rows, :longest])
            stored.update(
                self._store([keys[row] for row in missing_rows], [lengths[row] for row in missing_rows], computed)
            )
        return self._assemble(keys, lengths, stored, character_ids.size(1), character_ids.device)

    def _assemble(self, keys, lengths, stored, timesteps: int, device) -> Activations:
        layers = numpy.zeros((self.num_layers, len(keys), timesteps + 2, self.dim), dtype=numpy.float32)
        for row, key in enumerate(keys):
            layers[:, row, : lengths[row] + 2] = stored[key]
        positions = torch.arange(timesteps + 2).unsqueeze(0)
        mask = positions < torch.tensor(lengths).unsqueeze(1) + 2
        tensors = torch.from_numpy(layers).to(device)
        return {"activations": list(tensors.unbind(0)), "mask": mask.to(device)}

    def _lookup(self, keys) -> Dict[bytes, numpy.ndarray]:
        """The stored layers `(num_layers, positions, dim)` of those `keys` that are in the cache."""
        found, damaged = self._intact_entries(list(keys))
        if damaged:
            self.damaged += damaged
            logger.warning(
                "ELMo activation cache %s: %d stored sentences damaged (checksum mismatch or past the end of "
                "activations.bin): computing them again. If this repeats, delete that folder.",
                self.path,
                damaged,
            )
        return found

    def _intact_entries(self, keys: List[bytes]) -> Tuple[Dict[bytes, numpy.ndarray], int]:
        """The stored layers of those `keys` whose entries are whole, and how many others are indexed but damaged."""
        rows = []
        for start in range(0, len(keys), 500):  # SQLite's limit on parameters per statement
            chunk = keys[start : start + 500]
            rows += (
                self._database()
                .execute(
                    "SELECT key, offset, positions, checksum FROM activations WHERE key IN "
                    f"({','.join('?' * len(chunk))})",
                    chunk,
                )
                .fetchall()
            )
        if not rows:
            return {}, 0
        width = self.num_layers * self.dim
        data = self._mapped(max(offset + positions * width for _, offset, positions, _ in rows))
        found, damaged = {}, 0
        for key, offset, positions, checksum in rows:
            entry = data[offset : offset + positions * width]
            if entry.size != positions * width or zlib.crc32(entry) != checksum:
                damaged += 1
                continue
            found[key] = entry.reshape(self.num_layers, positions, self.dim)
        return found, damaged

    def _store(self, keys: List[bytes], lengths: List[int], computed: Activations) -> Dict[bytes, numpy.ndarray]:
        """
        Appends each sentence's layers (as stored, so callers see the stored values) and indexes them;
        a sentence another process stored whole since this one looked is not stored twice.
        """
        layers = torch.stack([layer.detach() for layer in computed["activations"]]).cpu().numpy()
        entries = {
            key: numpy.ascontiguousarray(layers[:, row, : length + 2], dtype=self.dtype)
            for row, (key, length) in enumerate(zip(keys, lengths))
        }
        database = self._database()  # before taking the lock, which opening the database takes too
        with open(self.path / "write.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            stored_meanwhile, _ = self._intact_entries(list(entries))
            new = {key: array for key, array in entries.items() if key not in stored_meanwhile}
            try:
                with open(self._data_path, "ab") as data:
                    end = data.seek(0, os.SEEK_END)
                    itemsize = self.dtype().itemsize
                    data.write(bytes(-end % itemsize))  # a write cut short leaves the end unaligned
                    offset = (end + itemsize - 1) // itemsize
                    index_rows = []
                    for key, array in new.items():
                        data.write(array.tobytes())
                        index_rows.append((key, offset, array.shape[1], zlib.crc32(array)))
                        offset += array.size
                # REPLACE: an entry found damaged is stored again, and its new copy is the one indexed.
                database.executemany("INSERT OR REPLACE INTO activations VALUES (?, ?, ?, ?)", index_rows)
                database.commit()
            except OSError as error:
                raise OSError(
                    error.errno, f"ELMo activation cache {self.path}: cannot store activations ({error.strerror})"
                ) from error
        return {**entries, **stored_meanwhile}

    def _mapped(self, end: int) -> numpy.memmap:
        """The data file mapped at least up to element `end` (re-mapped when other writes grew it)."""
        if self._map is None or self._map.size < end:
            # Whole values only: a write cut short can leave part of one at the end.
            values = os.path.getsize(self._data_path) // self.dtype().itemsize
            if values == 0:  # numpy cannot map an empty file
                return numpy.zeros(0, dtype=self.dtype)
            self._map = numpy.memmap(self._data_path, dtype=self.dtype, mode="r", shape=(values,))
        return self._map

    def _database(self) -> sqlite3.Connection:
        """This thread's connection to the index: each thread (a server's) and each forked worker opens its own."""
        if getattr(self._connections, "pid", None) != os.getpid():
            # Under the writers' lock: two processes switching the journal mode at once (distributed
            # training's workers start together) get "database is locked" at once, not after a wait.
            with open(self.path / "write.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                try:
                    connection = sqlite3.connect(self.path / "index.sqlite", timeout=600)
                    connection.execute("PRAGMA journal_mode=WAL")
                    connection.execute(
                        "CREATE TABLE IF NOT EXISTS activations (key BLOB PRIMARY KEY, offset INTEGER NOT NULL, "
                        "positions INTEGER NOT NULL, checksum INTEGER NOT NULL)"
                    )
                    connection.commit()
                except sqlite3.DatabaseError as error:
                    raise self._damaged(f"its index, index.sqlite, cannot be read ({error})") from None
            self._connections.connection, self._connections.pid = connection, os.getpid()
        return self._connections.connection

    def _damaged(self, what: str) -> ConfigurationError:
        return ConfigurationError(
            f"ELMo activation cache {self.path}: {what}. Delete that folder; the next run fills it again."
        )

    def _check_metadata(self, metadata: Dict) -> None:
        path = self.path / "metadata.json"
        if path.exists():
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise self._damaged(f"metadata.json is not the JSON this suite writes ({error})") from None
            if found != metadata:
                raise self._damaged(f"metadata.json describes another cache ({found}), expected {metadata}")
        else:
            path.write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")

    def __len__(self) -> int:
        return self._database().execute("SELECT COUNT(*) FROM activations").fetchone()[0]

    def __getstate__(self):
        state = dict(self.__dict__)
        state.update(_connections=None, _map=None)
        return state

    def __setstate__(self, state) -> None:
        self.__dict__.update(state, _connections=threading.local())


def sentence_key(character_ids: torch.Tensor) -> bytes:
    """A sentence's key: a hash of its character ids `(tokens, 50)` (ELMo's ids fit 16 bits)."""
    return hashlib.blake2b(character_ids.to(torch.int16).cpu().numpy().tobytes(), digest_size=16).digest()
