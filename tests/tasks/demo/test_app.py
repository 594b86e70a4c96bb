"""
`allennlp demo`'s JSON API, over real HTTP: it answers exactly as `allennlp predict` does, bad requests
get error objects and the server goes on, requests at once share the one model, and the learned ELMo
weights it lists are the archive's.
"""

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from allennlp.models.archival import load_archive

from tasks.demo.app import make_app
from tasks.demo.client import post_json
from tasks.demo.models import finished_runs, load
from tests.helpers.demo_server import free_port, get_json, running_demo
from tests.helpers.repository import predict, run_subcommand

LINES = [
    {"sentence": "Ada Lovelace visited Turin ."},
    {"sentence": "Grace Hopper joined the Navy ."},
    {"sentence": "The Royal Society met in London ."},
    {"text": "a line without the sentence key"},
    {"sentence": "   "},
]


@pytest.fixture(scope="module")
def environment(tiny_elmo):
    return {**os.environ, "ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}


@pytest.fixture(scope="module")
def demo(tiny_archives, environment):
    with running_demo({"ner": tiny_archives["ner"]}, environment, "--max-chars", "200") as server:
        yield server


def test_the_api_answers_what_allennlp_predict_writes_line_for_line(demo, tiny_archives, environment, tmp_path):
    inputs = tmp_path / "input.jsonl"
    inputs.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    expected = predict(tiny_archives["ner"], inputs, environment=environment)
    answers = [post_json(f"{demo.url}/api/predict/ner", json.dumps(line).encode()) for line in LINES]
    assert [status for status, _ in answers] == [200] * len(LINES)
    assert [answer for _, answer in answers] == expected
    # the model learned the fixture: its first sentence's entities come back typed
    assert ("Ada Lovelace", "PER") in [(entity["text"], entity["type"]) for entity in answers[0][1]["entities"]]
    assert "error" in answers[3][1] and "sentence" in answers[3][1]["error"]


def test_bad_requests_get_an_error_object_and_the_server_goes_on(demo):
    status, answer = post_json(f"{demo.url}/api/predict/ner", b'{"sentence": "unclosed')
    assert status == 400 and answer["error"].startswith("the request is not JSON")
    status, answer = post_json(f"{demo.url}/api/predict/srl", b'{"sentence": "He left ."}')
    assert status == 404 and "this demo serves ner" in answer["error"]
    status, answer = post_json(f"{demo.url}/api/predict/ner", json.dumps({"sentence": "word " * 60}).encode())
    assert status == 413 and '"sentence" is 300 characters long; at most 200' in answer["error"]
    status, answer = post_json(f"{demo.url}/api/predict/ner", b"[" + b"1," * 5000 + b"1]")
    assert status == 413 and "bytes; at most" in answer["error"]
    status, answer = post_json(f"{demo.url}/api/predict/ner", b'"just a string"')
    assert status == 200 and "expected a JSON object" in answer["error"]
    assert demo.process.poll() is None
    assert post_json(f"{demo.url}/api/predict/ner", json.dumps(LINES[0]).encode())[0] == 200


def test_requests_at_once_are_all_answered_and_agree_with_one_at_a_time(demo):
    alone = [post_json(f"{demo.url}/api/predict/ner", json.dumps(line).encode())[1] for line in LINES[:3]]
    requests = [LINES[index % 3] for index in range(48)]
    with ThreadPoolExecutor(max_workers=8) as clients:
        answers = list(
            clients.map(lambda line: post_json(f"{demo.url}/api/predict/ner", json.dumps(line).encode()), requests)
        )
    assert [status for status, _ in answers] == [200] * len(requests)
    assert [answer for _, answer in answers] == [alone[index % 3] for index in range(48)]


def test_the_page_and_its_listing_name_the_model_and_its_learned_elmo(demo, tiny_archives):
    status, listing = get_json(f"{demo.url}/api/models")
    assert status == 200 and listing["max_chars"] == 200
    (model,) = listing["models"]
    assert (model["name"], model["kind"], model["fields"]) == ("ner", "ner", ["sentence"])
    archived = load_archive(tiny_archives["ner"]).model
    (mix,) = [module for name, module in archived.named_modules() if name.endswith("._elmo.scalar_mix_0")]
    weights = torch.softmax(torch.cat([p.detach().reshape(1) for p in mix.scalar_parameters]), dim=0).tolist()
    (listed,) = model["elmo"]
    assert listed["place"] == "input"
    assert listed["gamma"] == pytest.approx(mix.gamma.item())
    assert listed["weights"] == pytest.approx(weights)
    page = _get_text(f"{demo.url}/")
    assert '<script src="/static/demo.js"></script>' in page
    assert "RENDERERS" in _get_text(f"{demo.url}/static/demo.js")


def test_a_model_that_fails_on_an_input_answers_500_and_the_server_goes_on(tiny_archives):
    """In-process, with a predictor that raises on one input: the error is named, the next request answered."""
    import uvicorn

    model = load("ner", str(tiny_archives["ner"]))

    class Failing:
        def predict_json(self, inputs):
            if inputs["sentence"] == "fail":
                raise RuntimeError("out of cheese")
            return model.predictor.predict_json(inputs)

        dump_line = model.predictor.dump_line

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(make_app({"ner": model._replace(predictor=Failing())}), port=port, log_config=None)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline, "the in-process server did not start within 60 s"
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/api/predict/ner"
        status, answer = post_json(url, b'{"sentence": "fail"}')
        assert status == 500
        assert answer == {
            "error": "the model failed on this input: RuntimeError: out of cheese",
            "input": {"sentence": "fail"},
        }
        status, answer = post_json(url, json.dumps(LINES[0]).encode())
        assert status == 200 and answer["tokens"] == ["Ada", "Lovelace", "visited", "Turin", "."]
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_a_plans_folder_serves_its_finished_runs_by_name(tiny_archives, tmp_path):
    archive = tiny_archives["ner"]
    assert finished_runs(archive.parent.parent) == {"ner": str(archive)}
    unfinished = tmp_path / "runs" / "stopped"
    unfinished.mkdir(parents=True)
    (unfinished / "config.json").write_text("{}")
    assert finished_runs(tmp_path / "runs") == {}


@pytest.mark.parametrize(
    "arguments, message",
    [
        ([], "nothing to serve: give --archive NAME=PATH"),
        (["--archive", "runs/ner/model.tar.gz"], "expected NAME=PATH"),
        (["--archive", "ner=no/such/model.tar.gz"], "no such archive: no/such/model.tar.gz"),
        (["--runs-dir", "no/such/folder"], "--runs-dir no/such/folder: no such folder"),
    ],
)
def test_the_command_says_what_it_expected(arguments, message):
    with pytest.raises(SystemExit) as stopped:
        run_subcommand("demo", *arguments)
    assert message in str(stopped.value)


def _get_text(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")
