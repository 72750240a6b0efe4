"""`replay:FILE`: answer requests from recorded responses instead of a model.

FILE is JSONL. Each line is either one exchange, ``{"request": {...}, "response": {...}}``
(requests and responses in the toolkit's own JSON form), or a whole `SampleRecord` line of a
previous run's samples.jsonl (its ``exchanges`` are read). So a published run, or outputs
converted from another tool, can be re-scored by any benchmark. A request that is not in the
file gets an error response (outcome "error"), never a made-up answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from biasaudit.errors import BackendError
from biasaudit.hashing import stream_sha256
from biasaudit.models.base import Backend
from biasaudit.requests import Capability, Request, Response, request_key

_REQUEST = TypeAdapter(Request)


def _read_exchanges(path: Path) -> dict[str, Response]:
    answers: dict[str, Response] = {}
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise BackendError(f"replay file {path}: cannot read it ({exc.strerror})") from None
    with handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                for request, response in _parse_line(raw):
                    answers[request_key(request)] = response
            except ValueError as exc:
                raise BackendError(
                    f"{path}:{line_number}: not a replay line ({exc}); expected "
                    f'{{"request": ..., "response": ...}} or a samples.jsonl record'
                ) from None
    return answers


def _parse_line(raw: bytes) -> list[tuple[Request, Response]]:
    """The (request, response) pairs of one line; ValueError says why the line is not one."""
    try:
        row = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(row, dict):
        raise ValueError(f"a JSON {type(row).__name__}, not an object")
    pairs = row.get("exchanges", [row])
    if not isinstance(pairs, list):
        raise ValueError("'exchanges' is not a list")
    parsed = []
    for index, pair in enumerate(pairs):
        if not isinstance(pair, dict) or "request" not in pair or "response" not in pair:
            raise ValueError(f"exchange {index} lacks 'request' or 'response'")
        try:
            request = _REQUEST.validate_python(pair["request"])
            response = Response.model_validate(pair["response"])
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ValueError(f"exchange {index}: invalid at '{where}': {first['msg']}") from None
        except (ValueError, TypeError) as exc:  # checks after field validation
            raise ValueError(f"exchange {index}: {exc}") from None
        except RecursionError:
            raise ValueError(f"exchange {index}: nested too deeply") from None
        parsed.append((request, response))
    return parsed


class ReplayBackend(Backend):
    """Serves recorded responses, keyed by the request's content hash."""

    name: ClassVar[str] = "replay"
    possible_capabilities = frozenset(Capability)

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        if not self.path.is_file():
            raise BackendError(f"replay file not found: {self.path}")
        self.answers = _read_exchanges(self.path)
        self.capabilities = frozenset(r.kind for r in self.answers.values())
        try:
            with self.path.open("rb") as handle:  # in chunks: a replay file can be large
                digest = stream_sha256(handle)[0]
        except OSError as exc:
            raise BackendError(
                f"replay file {self.path}: cannot read it ({exc.strerror})"
            ) from None
        self._sha256 = digest

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if not target:
            raise BackendError("replay backend needs a file: replay:FILE")
        if args:
            raise BackendError(f"replay backend takes no model arguments (got {sorted(args)})")
        if not Path(target).expanduser().is_file():
            raise BackendError(f"replay file not found: {target}")

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        cls.check_spec(target, args)
        return cls(target)

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name, "file": str(self.path), "sha256": self._sha256}

    def fingerprint(self) -> str:
        return f"replay|{self._sha256}"

    def default_batch_size(self) -> int:
        return 256

    def choice_support(self) -> str | None:
        return None  # recorded replies; constrained requests hash apart from free ones

    def _answer(self, requests: Sequence[Any]) -> list[Response]:
        out: list[Response] = []
        for request in requests:
            found = self.answers.get(request_key(request))
            if found is None:
                found = Response(
                    kind=Capability(request.kind), error=f"request not in replay file {self.path}"
                )
            out.append(found)
        return out

    loglikelihood = _answer
    pseudo_loglikelihood = _answer
    generate = _answer
    classify = _answer
    embed = _answer
    fill_mask = _answer
