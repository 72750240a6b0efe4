"""A small OpenAI-compatible HTTP server on loopback, for transport and chaos tests.

It is not a model: a generation's text is a pure function of the request (a hash of its
messages or prompt picks one of `ANSWERS`), so two runs over it must give identical results,
and `expected_text(body)` is the oracle a test compares with. Everything else is a real HTTP
server (asyncio streams, keep-alive, Content-Length framing) that a real client talks to.

Behaviours (`mode`), for the hostile cases of the reliability audit:

- ``ok``: answers ``GET /models`` and POSTs to ``/chat/completions`` and ``/completions``;
- ``hang_post``: answers GET, accepts POSTs and never answers them;
- ``trickle``: answers POSTs with a header promising a body, then one byte per second;
- ``malformed``: answers POSTs with ``{"choices": "nope"}``;
- ``echo_auth``: a normal answer whose text quotes the request's Authorization header;
- ``guided``: honours vLLM's ``guided_choice`` (the answer is one of the listed choices,
  picked by the same hash: `expected_text`); ``ok`` ignores the field, as a server without
  guided decoding does;
- ``strict``: answers a body with any field outside the OpenAI API (``guided_choice``) with
  HTTP 400, as OpenAI's own API does.

`delay_s` delays every POST answer. With `fail_after` = N, every POST after the first N is
answered with HTTP 500 (a server that breaks after the start-up probes); set it back to None
to heal the server. With `hold_after` = N, every POST after the first N waits until it is set
back to None (a run kept alive while a test looks at it). `posts` counts POSTs per request
key (path + body), so a test can tell whether a request was sent twice. Run it in-process
(`with FakeOpenAI() as s:`) or as a process: ``python fake_openai.py PORT [MODE] [DELAY_S]``
(prints ``ready``).
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loopback import LoopbackServer, free_port, read_request, respond

__all__ = ["ANSWERS", "FakeOpenAI", "expected_text", "free_port", "stop_run"]

ANSWERS = ("Yes", "No", "No.", "I cannot answer that.")
MODEL_ID = "fake-model"


def expected_text(body: dict[str, Any], mode: str = "ok") -> str:
    """The text this server answers to a generation request body."""
    content = body.get("messages", body.get("prompt"))
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).digest()
    answers = body.get("guided_choice") if mode == "guided" else None
    answers = answers or ANSWERS
    return str(answers[digest[0] % len(answers)])


#: Fields the ``strict`` mode accepts (the OpenAI API's, as far as biasaudit sends them).
OPENAI_FIELDS = {
    "model", "messages", "prompt", "temperature", "max_tokens", "top_p", "seed", "stop",
    "logprobs", "echo", "top_logprobs",
}  # fmt: skip


def _answer(path: str, body: dict[str, Any], auth: str, mode: str) -> dict[str, Any]:
    text = expected_text(body, mode)
    if mode == "echo_auth":
        text = f"{text} (debug: {auth})"
    choice: dict[str, Any] = {"index": 0, "finish_reason": "stop", "logprobs": None}
    if path.endswith("/chat/completions"):
        choice["message"] = {"role": "assistant", "content": text}
    else:
        choice["text"] = text
    return {"id": "x", "object": "completion", "model": MODEL_ID, "choices": [choice]}


class FakeOpenAI(LoopbackServer):
    """The server, on 127.0.0.1 at a free port, in a background thread."""

    def __init__(self, mode: str = "ok", delay_s: float = 0.0, port: int | None = None) -> None:
        super().__init__(port)
        self.mode = mode
        self.delay_s = delay_s
        self.posts: collections.Counter[str] = collections.Counter()
        self.fail_after: int | None = None
        self.hold_after: int | None = None
        #: POSTs whose JSON body this returns True for are answered with HTTP 500.
        self.fail_if: Callable[[dict[str, Any]], bool] | None = None
        #: The body of those 500s: by default an OpenAI-style error "broken"; a function of
        #: the request's Authorization header gives another (a server quoting the key).
        self.error_body: Callable[[str], bytes] | None = None
        #: When set, every POST is answered 429 with this Retry-After (seconds).
        self.retry_after: float | None = None
        self.n_posts = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await self._serve_one(reader, writer):
            pass

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        method, target, headers, raw = await read_request(reader)
        if method == "GET":
            listing = {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]}
            await respond(writer, 200, json.dumps(listing).encode(), close=False)
            return True
        self.posts[target + " " + raw.decode()] += 1
        self.n_posts += 1
        if self.retry_after is not None:
            body = b'{"error": {"message": "slow down"}}'
            extra = {"Content-Type": "application/json", "Retry-After": f"{self.retry_after:g}"}
            await respond(writer, 429, body, extra, close=False)
            return True
        failing = self.fail_after is not None and self.n_posts > self.fail_after
        if failing or (self.fail_if is not None and self.fail_if(json.loads(raw))):
            auth = headers.get("authorization", "")
            body = self.error_body(auth) if self.error_body else b'{"error": {"message": "broken"}}'
            await respond(writer, 500, body, close=False)
            return True
        if self.hold_after is not None and self.n_posts > self.hold_after:
            while self.hold_after is not None:
                await asyncio.sleep(0.02)
        if self.mode == "hang_post":
            await asyncio.sleep(3600)
            return False
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if self.mode == "trickle":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
            writer.write(b"Content-Length: 100000\r\n\r\n")
            for _ in range(3600):
                writer.write(b" ")
                await writer.drain()
                await asyncio.sleep(1.0)
            return False
        if self.mode == "malformed":
            await respond(writer, 200, b'{"choices": "nope"}', close=False)
            return True
        body = json.loads(raw)
        unknown = sorted(set(body) - OPENAI_FIELDS)
        if self.mode == "strict" and unknown:
            message = {"error": {"message": f"Unrecognized request argument: {unknown[0]}"}}
            await respond(writer, 400, json.dumps(message).encode(), close=False)
            return True
        answer = _answer(target, body, headers.get("authorization", ""), self.mode)
        await respond(writer, 200, json.dumps(answer).encode(), close=False)
        return True


def stop_run(out: Path, data_dir: Path, limit: int, **kwargs: Any) -> Path:
    """A real STOP run of `limit` samples through the openai backend against this server."""
    import biasaudit

    with FakeOpenAI() as server:
        biasaudit.evaluate(
            "stop", f"openai:m@{server.base_url}", limit=limit, output_dir=out,
            data_dir=data_dir, use_cache=False, progress=False, **kwargs,
        )  # fmt: skip
    return out


if __name__ == "__main__":
    port = int(sys.argv[1])
    server = FakeOpenAI(
        sys.argv[2] if len(sys.argv) > 2 else "ok",
        float(sys.argv[3]) if len(sys.argv) > 3 else 0.0,
        port,
    )
    with server:
        print("ready", flush=True)
        threading.Event().wait()
