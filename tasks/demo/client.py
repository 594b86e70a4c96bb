"""The client side of the demo's JSON API: what `scripts/demo_load.py` and the tests send."""

import json
import urllib.error
import urllib.request
from typing import Any, Dict, Tuple


def post_json(url: str, body: bytes, timeout: float = 60) -> Tuple[int, Dict[str, Any]]:
    """
    (HTTP status, JSON answer) of a POST of `body` to `url`; an error status's answer is returned too.
    An answer that is not JSON (a proxy's HTML error page, say) comes back as `{"error": ...}` quoting it.
    """
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _decoded(url, response.status, response.read())
    except urllib.error.HTTPError as error:
        return error.code, _decoded(url, error.code, error.read())


def _decoded(url: str, status: int, raw: bytes) -> Dict[str, Any]:
    try:
        return json.loads(raw)
    except ValueError:
        return {"error": f"{url} answered {status} with a body that is not JSON: {raw[:200]!r}"}
