"""scripts/demo_load.py on `allennlp demo`: hundreds of requests from several clients, none failing, memory flat."""

import os

import pytest

import demo_load
from tests.helpers.demo_server import running_demo


@pytest.mark.slow
def test_hundreds_of_requests_at_once_all_answer_the_same_and_memory_stays_flat(tiny_archives, tiny_elmo):
    environment = {**os.environ, "ELMO_OPTIONS_FILE": str(tiny_elmo[0]), "ELMO_WEIGHT_FILE": str(tiny_elmo[1])}
    with running_demo({"ner": tiny_archives["ner"]}, environment) as demo:
        inputs = {"sentence": "Ada Lovelace visited Turin ."}
        figures = demo_load.load(demo.url, "ner", inputs, requests=300, clients=8, pid=demo.process.pid)
    assert figures["failed"] == 0, figures["first_failure"]
    assert figures["distinct_answers"] == 1
    assert figures["p50_ms"] <= figures["p90_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    # After the warm-up, 300 more requests add no more than 50 MB (a leak of the inputs or answers would).
    assert figures["rss_after_mb"] - figures["rss_before_mb"] < 50, figures
