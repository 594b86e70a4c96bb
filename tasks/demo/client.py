"""The client side of the demo's JSON API: what `scripts/demo_load.py` and the tests send."""

import json
import urllib.error
import urllib.request
from typing import Any, Dict, Tuple


def post_json(url: str, body: bytes, timeout: float = 60) -> Tuple[int, Dict[str, Any]]:
    """(HTTP status, JSON answer) of a POST of `body` to `url`; an error status's JSON answer is returned too."""
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
