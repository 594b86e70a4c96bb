"""
Load on a running `allennlp demo`: REQUESTS predictions from CLIENTS clients at once, each a fresh
HTTP request, with the server's resident memory read before and after (from /proc, by its port).
Prints throughput, latency percentiles and memory; exits 1 if any request failed.

    allennlp demo --archive ner=runs/ner/model.tar.gz &
    python scripts/demo_load.py http://127.0.0.1:8000 ner '{"sentence": "Alan Turing worked at Bletchley Park."}'
"""

import argparse
import json
import secrets
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional

from tasks.demo.client import post_json


def _one(url: str, body: bytes) -> Dict[str, Any]:
    started = time.perf_counter()
    try:
        status, answer = post_json(url, body, timeout=120)
    except OSError as error:
        status, answer = 0, {"error": str(error)}
    ok = status == 200 and "error" not in answer
    return {"seconds": time.perf_counter() - started, "ok": ok, "status": status, "answer": answer}


def server_pid(port: int) -> Optional[int]:
    """The process listening on `port` (ss from iproute2), or None."""
    try:
        listing = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return None
    for part in listing.split("pid=")[1:]:
        return int(part.split(",")[0])
    return None


def resident_mb(pid: Optional[int]) -> Optional[float]:
    if pid is None:
        return None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def _varied(inputs: Dict[str, Any], tag: str) -> Dict[str, Any]:
    """`inputs` with `tag` appended to its last text: a sentence no cache has seen."""
    last = [key for key, value in inputs.items() if isinstance(value, str)][-1]
    return {**inputs, last: f"{inputs[last]} ( {tag} )"}


def load(
    url: str,
    model: str,
    inputs: Dict[str, Any],
    requests: int,
    clients: int,
    pid: Optional[int],
    distinct: bool = False,
    warmup: int = 20,
) -> Dict[str, Any]:
    """
    Sends `warmup` requests, reads the server's (`pid`'s) memory, then `requests` from `clients` at
    once: the same input each time, or with `distinct` each its own text (ELMo's activation cache misses).
    """
    endpoint = f"{url}/api/predict/{model}"
    run = secrets.token_hex(4)  # a later run's texts are new too
    bodies = [
        json.dumps(_varied(inputs, f"{run}-{n}") if distinct else inputs).encode() for n in range(warmup + requests)
    ]
    failed: List[Dict[str, Any]] = [r for r in (_one(endpoint, body) for body in bodies[:warmup]) if not r["ok"]]
    memory_before = resident_mb(pid)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        results = list(pool.map(lambda body: _one(endpoint, body), bodies[warmup:]))
    wall = time.perf_counter() - started
    failed += [r for r in results if not r["ok"]]
    latencies = sorted(r["seconds"] for r in results)
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "requests": requests,
        "clients": clients,
        "failed": len(failed),
        "first_failure": failed[0] if failed else None,
        "seconds": wall,
        "per_second": requests / wall,
        "p50_ms": 1000 * quantiles[49],
        "p90_ms": 1000 * quantiles[89],
        "p99_ms": 1000 * quantiles[98],
        "max_ms": 1000 * latencies[-1],
        "rss_before_mb": memory_before,
        "rss_after_mb": resident_mb(pid),
        "distinct_answers": len({json.dumps(r["answer"], sort_keys=True) for r in results}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="where allennlp demo serves, e.g. http://127.0.0.1:8000")
    parser.add_argument("model", help="the tab's name, e.g. ner")
    parser.add_argument("inputs", help="one input as JSON, as a line of allennlp predict's input")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--distinct", action="store_true", help="each request its own text (no cached ELMo)")
    args = parser.parse_args()
    pid = server_pid(int(args.url.rstrip("/").rsplit(":", 1)[1]))
    figures = load(args.url, args.model, json.loads(args.inputs), args.requests, args.clients, pid, args.distinct)
    print(json.dumps(figures, indent=2))
    raise SystemExit(1 if figures["failed"] else 0)


if __name__ == "__main__":
    main()
