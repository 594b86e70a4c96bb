from tasks.environment import PROJECT_ROOT
from tasks.reproduce.records import portable, read_run_record, write_run_record
from tasks.reproduce.results import RunResult


def test_a_record_names_no_machines_folders(tmp_path):
    shared = tmp_path / "shared" / "data"
    info = {
        "inputs": {"SNLI_TEST_DATA": {"path": f"{shared}/snli/snli_1.0_test.jsonl", "sha256": "ab12"}},
        "command": [f"{PROJECT_ROOT}/.venv/bin/python", "-s", f"{PROJECT_ROOT}/runs/reproduce/cpu/snli-elmo-seed1"],
        "shell": f"SNLI_TEST_DATA={shared}/snli/snli_1.0_test.jsonl allennlp train",
        "elsewhere": "/data/mine/vectors.txt",  # outside both: kept as it is
    }
    assert portable(info, str(shared)) == {
        "inputs": {"SNLI_TEST_DATA": {"path": "$SHARED_DATA_DIR/snli/snli_1.0_test.jsonl", "sha256": "ab12"}},
        "command": [".venv/bin/python", "-s", "runs/reproduce/cpu/snli-elmo-seed1"],
        "shell": "SNLI_TEST_DATA=$SHARED_DATA_DIR/snli/snli_1.0_test.jsonl allennlp train",
        "elsewhere": "/data/mine/vectors.txt",
    }


def test_records_are_written_portable(tmp_path, monkeypatch):
    monkeypatch.setenv("SHARED_DATA_DIR", str(tmp_path / "data"))
    spec = {"name": "x-seed1", "metric": "accuracy", "environment": {"X_DATA": str(tmp_path / "data" / "x.txt")}}
    info = {"inputs": {"X_DATA": {"path": str(tmp_path / "data" / "x.txt"), "sha256": "cd34"}}}
    run = RunResult("x-seed1", tmp_path, "finished", spec, info, {"epoch": 0}, [], None, [], None, [])
    write_run_record(tmp_path / "records", run)
    record = read_run_record(tmp_path / "records", "x-seed1")
    assert record.spec["environment"]["X_DATA"] == "$SHARED_DATA_DIR/x.txt"
    assert record.info["inputs"]["X_DATA"] == {"path": "$SHARED_DATA_DIR/x.txt", "sha256": "cd34"}
