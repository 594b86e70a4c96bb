"""
The demo's web app (FastAPI, served by uvicorn): one page with a tab per model, and a JSON API beside
it that the page itself calls.

    GET  /                      the page (static/index.html, demo.js, demo.css)
    GET  /api/models            the models: name, task, input fields, examples, learned ELMo weights
    POST /api/predict/{name}    a JSON object, exactly as one input line of `allennlp predict`; the
                                answer is exactly what `allennlp predict` writes for that line

The answer comes from the model's own predictor (`predict_json`, `dump_line`), so the page can never
disagree with the command line. Bad requests get an error object, never a stack trace: a body that
is not JSON (400), one over the size limit or with a text longer than `max_chars` (413), an unknown
model (404); input the predictor refuses gets its own error object, as `allennlp predict` writes
it (200); a model that fails on an input gets a 500 with the error's type and message, and the
server goes on.
"""

import json
import logging
from pathlib import Path
from typing import Any, Dict

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from tasks.demo.models import DemoModel

logger = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"


def make_app(models: Dict[str, DemoModel], max_chars: int = 5000) -> FastAPI:
    app = FastAPI(title="ELMo experiments: demo", docs_url=None, redoc_url=None, openapi_url=None)
    max_bytes = 8 * max_chars + 4096  # the texts, their JSON escapes and the keys

    @app.get("/")
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/models")
    def listed() -> Dict[str, Any]:
        return {"models": [model.describe() for model in models.values()], "max_chars": max_chars}

    @app.post("/api/predict/{name}")
    async def predict(name: str, request: Request) -> JSONResponse:
        if name not in models:
            return _error(404, f"no model named {name!r}; this demo serves {', '.join(sorted(models))}")
        body = await request.body()
        if len(body) > max_bytes:
            return _error(413, f"the request is {len(body):,} bytes; at most {max_bytes:,}")
        try:
            inputs = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return _error(400, f"the request is not JSON ({error})", body.decode("utf-8", errors="replace")[:200])
        too_long = _too_long(inputs, max_chars)
        if too_long:
            return _error(413, too_long, inputs)
        model = models[name]
        try:
            answer = await _in_thread(model.predict, inputs)
        except Exception as error:  # noqa: BLE001 - any failure of the model: said, and the server goes on
            logger.exception("%s failed on %s", name, str(inputs)[:200])
            return _error(500, f"the model failed on this input: {type(error).__name__}: {error}", inputs)
        return JSONResponse(answer)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def _in_thread(function, argument):
    """A model's forward runs in a worker thread: the server keeps answering other requests meanwhile."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, argument)


def _too_long(inputs: Any, max_chars: int) -> str:
    if isinstance(inputs, dict):
        for key, value in inputs.items():
            if isinstance(value, str) and len(value) > max_chars:
                return f'"{key}" is {len(value):,} characters long; at most {max_chars:,} (allennlp demo --max-chars)'
    return ""


def _error(status: int, message: str, inputs: Any = None) -> JSONResponse:
    return JSONResponse({"error": message, "input": inputs}, status_code=status)
