"""
scripts/demo_load.py on `allennlp demo`: hundreds of requests from several clients, none failing, memory
flat; behind a server that answers an HTML error page, every request counted failed with that page quoted.
"""

import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import demo_load
from tasks.demo.client import post_json
from tests.helpers.demo_server import running_demo


class _BadGateway(BaseHTTPRequestHandler):
    """What a reverse proxy in front of a stopped demo answers: 502 and an HTML page."""

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
        self.send_response(502)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args):
        pass


def test_an_answer_that_is_not_json_is_a_failure_that_quotes_it():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _BadGateway)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        status, answer = post_json(f"{url}/api/predict/ner", b'{"sentence": "Ada ."}')
        figures = demo_load.load(url, "ner", {"sentence": "Ada ."}, requests=6, clients=2, pid=None, warmup=2)
    finally:
        server.shutdown()
        server.server_close()
    assert status == 502
    assert answer["error"].startswith(f"{url}/api/predict/ner answered 502 with a body that is not JSON: ")
    assert "502 Bad Gateway" in answer["error"]
    assert figures["failed"] == 8
    assert figures["first_failure"]["answer"] == answer


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
