"""A faulty HTTP proxy for tests: forwards to a real server, but fails on a schedule.

`FaultyProxy(upstream, faults)` listens on 127.0.0.1 (free port) in a background thread.
POST requests are numbered in arrival order (0, 1, ...); `faults` maps a number to what
happens to that request instead of forwarding it:

- ``"500"``: an OpenAI-style 500 error;
- ``"429"``: 429 with ``Retry-After: <retry_after>``;
- ``"stall"``: no answer for `stall_s` seconds, then the connection is closed;
- ``"echo_auth"``: 401 whose error message quotes the request's Authorization header (as
  some servers quote a wrong key back).

A number not in `faults` is forwarded (``always`` applies one fault to every POST). GET
requests are always forwarded. `log` records (number, path, action) for every POST.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Mapping
from typing import Any

import httpx
from openai_server import free_port

_REASONS = {200: "OK", 401: "Unauthorized", 429: "Too Many Requests", 500: "Internal Server Error"}


class FaultyProxy:
    def __init__(
        self,
        upstream: str,
        faults: Mapping[int, str] | None = None,
        *,
        always: str | None = None,
        stall_s: float = 10.0,
        retry_after: str = "1",
    ) -> None:
        self.upstream_root = str(httpx.URL(upstream).copy_with(path="/")).rstrip("/")
        self.faults = dict(faults or {})
        self.always = always
        self.stall_s = stall_s
        self.retry_after = retry_after
        self.port = free_port()
        self.log: list[tuple[int, str, str]] = []
        self.authorizations: list[str] = []
        self._count = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.base_events.Server | None = None
        self._client: httpx.AsyncClient | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def actions(self) -> list[str]:
        return [action for _, _, action in self.log]

    # -- lifecycle ----------------------------------------------------------------------

    def __enter__(self) -> FaultyProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(timeout=20)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    async def _start(self) -> None:
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(300.0))
        self._server = await asyncio.start_server(self._on_connection, "127.0.0.1", self.port)

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    # -- one connection, one request ----------------------------------------------------

    async def _on_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)  # type: ignore[arg-type]
        try:
            await self._serve(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self._tasks.discard(task)  # type: ignore[arg-type]
            writer.close()
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, target, _ = request_line.split(" ", 2)
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        action = "ok"
        if method == "POST":
            number = self._count
            self._count += 1
            action = self.always or self.faults.get(number, "ok")
            self.log.append((number, target, action))
            self.authorizations.append(headers.get("authorization", ""))
        if action == "stall":
            await asyncio.sleep(self.stall_s)
            return
        if action == "500":
            await _respond(writer, 500, _error("injected failure"))
        elif action == "429":
            await _respond(writer, 429, _error("slow down"), {"Retry-After": self.retry_after})
        elif action == "echo_auth":
            quoted = headers.get("authorization", "")
            await _respond(writer, 401, _error(f"Incorrect API key provided: {quoted}"))
        else:
            await self._forward(writer, method, target, headers, body)

    async def _forward(
        self,
        writer: asyncio.StreamWriter,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes,
    ) -> None:
        assert self._client is not None
        keep = {k: v for k, v in headers.items() if k in ("content-type", "authorization")}
        upstream = await self._client.request(
            method, self.upstream_root + target, content=body, headers=keep
        )
        await _respond(
            writer,
            upstream.status_code,
            upstream.content,
            {"Content-Type": upstream.headers.get("content-type", "application/json")},
        )


def _error(message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "server_error"}}).encode()


async def _respond(
    writer: asyncio.StreamWriter, status: int, body: bytes, extra: dict[str, Any] | None = None
) -> None:
    headers = {"Content-Type": "application/json", **(extra or {})}
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
    writer.write("\r\n".join(lines).encode("latin-1") + body)
    await writer.drain()
