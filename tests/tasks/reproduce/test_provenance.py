import hashlib
import json
import sys
import threading

from tasks.reproduce.provenance import FileIdentities


def test_threads_sharing_the_hash_cache_leave_it_whole(tmp_path):
    """`--parallel` identifies inputs from several threads at once: every hash is kept, the file stays JSON."""
    files = []
    for number in range(200):
        path = tmp_path / "inputs" / f"{number}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"input {number}\n" * (number + 1))
        files.append(path)
    cache = tmp_path / "runs" / ".file_hashes.json"
    identities = FileIdentities(cache)
    start = threading.Barrier(4)

    def identify(part):
        start.wait()
        for path in part:
            identities.identify(str(path))

    threads = [threading.Thread(target=identify, args=(files[offset::4],)) for offset in range(4)]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns often, as a busy runner's may
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    kept = json.loads(cache.read_text())
    assert len(kept) == len(files)
    assert FileIdentities(cache).identify(str(files[7])) == identities.identify(str(files[7]))


def test_a_damaged_hash_cache_is_computed_again(tmp_path, caplog):
    """A cache cut short (a machine lost mid-write) does not stop the runner: hashes are computed again."""
    source = tmp_path / "weights.hdf5"
    source.write_bytes(b"weights")
    cache = tmp_path / ".file_hashes.json"
    FileIdentities(cache).identify(str(source))
    cache.write_text(cache.read_text()[:-5] + "}\n}\n")
    identity = FileIdentities(cache).identify(str(source))
    assert identity["sha256"] == hashlib.sha256(b"weights").hexdigest()
    assert ".file_hashes.json cannot be read" in caplog.text
    json.loads(cache.read_text())  # written whole again
