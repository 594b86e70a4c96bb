"""
`allennlp demo` in a real browser (Debian's chromium through chromedriver, scripts/demo_browser.py):
text typed into each tab comes back highlighted as the JSON API (that is, `allennlp predict`) says,
the ELMo chart shows the weights the archive learned, and errors are shown, not thrown.
"""

import json
import os
import shutil

import pytest

from tasks.demo.client import post_json
from tests.helpers.demo_server import get_json, running_demo

if not (shutil.which("chromium") and shutil.which("chromedriver")):
    pytest.skip(
        "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)",
        allow_module_level=True,
    )

import demo_browser  # noqa: E402  (scripts/, on the tests' path)

# End-to-end through real processes (minutes on two cores): `pytest -m slow` runs them, as CI does, in one
# worker (`--dist loadgroup`), so the six tiny models and the browser are made once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("demo_page")]

# What each tab is given: words of the tiny fixtures each model was trained on.
INPUTS = {
    "ner": {"sentence": "Ada Lovelace visited Turin ."},
    "srl": {"sentence": "Ada repaired the old bridge on Monday .", "predicates": "1"},
    "coref": {"document": "Ada Lovelace met Charles Babbage in London . She admired his engine ."},
    "squad": {
        "question": "When was Velmora founded?",
        "passage": "Velmora is a small town on the Orwen river. "
        "It was founded in 1214 by Ada Marrow, a miller from Kalvik.",
    },
    "sst": {"sentence": "The film is truly brilliant"},
    "snli": {"premise": "A man is riding a bicycle down a street.", "hypothesis": "A person is riding."},
}


@pytest.fixture(scope="module")
def browser():
    driver = demo_browser.chromium()
    yield driver
    driver.quit()


def _environment(tiny_elmo):
    return {**os.environ, "ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}


def _api_answer(url, model, inputs):
    body = dict(inputs)
    if "predicates" in body:
        body["predicates"] = [int(word) for word in body["predicates"].split(",")]
    status, answer = post_json(f"{url}/api/predict/{model}", json.dumps(body).encode())
    assert status == 200 and "error" not in answer, answer
    return answer


def _check_the_page_shows_the_answer(kind, shown, answer, listed):
    """What the panel shows against the API's JSON for the same input, task by task."""
    assert shown["state"] == "done", shown["error"]
    assert shown["elmo"] == [
        {"place": mix["place"], "gamma": pytest.approx(mix["gamma"]), "weights": pytest.approx(mix["weights"])}
        for mix in listed["elmo"]
    ]
    tokens = answer.get("tokens")
    if kind == "ner":
        expected = [[" ".join(tokens[e["token_start"] : e["token_end"]]), e["type"]] for e in answer["entities"]]
        assert shown["entities"] == expected and expected, "the page's entities are not the API's (or none)"
    elif kind == "srl":
        assert [frame["predicate"] for frame in shown["frames"]] == [f["predicate"]["text"] for f in answer["frames"]]
        for seen, frame in zip(shown["frames"], answer["frames"]):
            spans = [[" ".join(tokens[a["token_start"] : a["token_end"]]), a["label"]] for a in frame["arguments"]]
            assert seen["arguments"] == spans
    elif kind == "coref":
        mentions = sorted(
            [" ".join(tokens[m["token_start"] : m["token_end"]]), number]
            for number, cluster in enumerate(answer["clusters"], start=1)
            for m in cluster
        )
        assert sorted(shown["mentions"]) == mentions
    elif kind == "squad":
        assert shown["answer"] == answer["answer"] and shown["alternatives"] == len(answer["alternatives"])
    else:
        assert shown["label"] == answer["label"]
        assert shown["probabilities"] == pytest.approx(answer["probabilities"])


def test_ner_entities_typed_in_the_browser_come_back_highlighted(tiny_archives, tiny_elmo, browser, tmp_path):
    with running_demo({"ner": tiny_archives["ner"]}, _environment(tiny_elmo)) as demo:
        demo_browser.open_page(browser, demo.url)
        shown = demo_browser.submit(browser, "ner", INPUTS["ner"])
        answer = _api_answer(demo.url, "ner", INPUTS["ner"])
        (listed,) = get_json(f"{demo.url}/api/models")[1]["models"]
        _check_the_page_shows_the_answer("ner", shown, answer, listed)
        assert ["Ada Lovelace", "PER"] in shown["entities"]
        demo_browser.screenshot(browser, tmp_path / "ner.png")
        assert (tmp_path / "ner.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        shown = demo_browser.submit(browser, "ner", {"sentence": " "})
        assert shown["state"] == "error" and "the sentence is empty" in shown["error"]
        shown = demo_browser.submit(browser, "ner", INPUTS["ner"])
        assert shown["state"] == "done"


def test_every_tab_shows_what_the_api_answers(tiny_archives, tiny_elmo, browser, tmp_path):
    archives = {kind: tiny_archives[kind] for kind in INPUTS}
    with running_demo(archives, _environment(tiny_elmo)) as demo:
        listing = {model["name"]: model for model in get_json(f"{demo.url}/api/models")[1]["models"]}
        assert sorted(listing) == sorted(INPUTS)
        demo_browser.open_page(browser, demo.url)
        for kind, inputs in INPUTS.items():
            shown = demo_browser.submit(browser, kind, inputs)
            _check_the_page_shows_the_answer(kind, shown, _api_answer(demo.url, kind, inputs), listing[kind])
            demo_browser.screenshot(browser, tmp_path / f"{kind}.png")
        assert sorted(path.name for path in tmp_path.glob("*.png")) == sorted(f"{kind}.png" for kind in INPUTS)
