"""Parsing `-O key=value` options into a benchmark's pydantic options model."""

from __future__ import annotations

import inspect
import json
import math
import re
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from biasaudit.errors import BiasauditError, UnknownNameError
from biasaudit.importing import did_you_mean

M = TypeVar("M", bound=BaseModel)


def parse_cli_pairs(pairs: list[str]) -> dict[str, Any]:
    """Turn ["a=1", "b=x,y"] into {"a": 1, "b": "x,y"}; values are JSON when they parse."""
    parsed: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise BiasauditError(f"option '{pair}' is not of the form key=value")
        try:
            parsed[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            parsed[key.strip()] = value
    return parsed


def parse_options(model: type[M], options: dict[str, Any], owner: str) -> M:
    """Validate `options` against `model`, with did-you-mean for unknown keys."""
    known = list(model.model_fields)
    for key in options:
        if key not in model.model_fields:
            hint = did_you_mean(key, known)
            raise UnknownNameError(
                f"unknown option '{key}' for {owner}{hint} (known: {', '.join(known) or 'none'})"
            )
    options = {key: _as_list(model, key, value) for key, value in options.items()}
    try:
        parsed = model.model_validate(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BiasauditError(f"option '{where}' for {owner}: {first['msg']}") from None
    bad = _non_finite(parsed.model_dump(), "")
    if bad is not None:  # -O temperature=inf / nan: a float, but no setting
        raise BiasauditError(f"option '{bad}' for {owner}: must be a finite number")
    return parsed


def _as_list(model: type[BaseModel], key: str, value: Any) -> Any:
    """A comma-separated string for a list option is its items ("splits=intrasentence",
    "tasks=nli,qa"); JSON lists and every other value pass unchanged."""
    if not isinstance(value, str):
        return value
    if typing.get_origin(model.model_fields[key].annotation) not in (list, tuple, set):
        return value
    return [item.strip() for item in value.split(",") if item.strip()]


def _type_name(annotation: Any) -> str:
    """A readable type: ``int``, ``list[str]``, ``Literal['a', 'b']``, ``float | None``."""
    if isinstance(annotation, type) and not getattr(annotation, "__args__", None):
        return annotation.__name__
    return str(annotation).replace("typing.", "").replace("NoneType", "None")


def _comment_docs(model: type[BaseModel]) -> dict[str, str]:
    """Field descriptions written as ``#:`` comments above the field in the class source
    (the Sphinx convention the benchmarks' options classes use), from the model and its bases."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        try:
            lines = inspect.getsource(cls).splitlines()
        except (OSError, TypeError):
            continue
        block: list[str] = []
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("#:"):
                block.append(stripped[2:].strip())
                continue
            name = re.match(r"(\w+)\s*:", stripped)
            if name and block:
                docs[name.group(1)] = " ".join(block)
            block = []
    return docs


def describe_options(model: type[BaseModel]) -> list[dict[str, str]]:
    """Every option of `model`: name, type, default (as JSON) and description (the field's
    `description`, else its ``#:`` comment, else "(no description)")."""
    comments = _comment_docs(model)
    rows = []
    for name, info in model.model_fields.items():
        if info.is_required():
            default = "(required)"
        else:
            value = info.get_default(call_default_factory=True)
            default = json.dumps(value, default=str)
        rows.append(
            {
                "name": name,
                "type": _type_name(info.annotation),
                "default": default,
                "description": info.description or comments.get(name) or "(no description)",
            }
        )
    return rows


def _non_finite(value: Any, path: str) -> str | None:
    """The dotted path of the first infinite or NaN float in `value`, else None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list | tuple)
        else ()
    )
    for key, inner in items:
        found = _non_finite(inner, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


def parse_benchmark_options(pairs: list[str], benchmarks: list[str]) -> dict[str, dict[str, Any]]:
    """-O key=value applies to the only benchmark; -O bench.key=value picks one."""
    options: dict[str, dict[str, Any]] = {}
    for key, value in parse_cli_pairs(pairs).items():
        bench, dot, name = key.partition(".")
        if dot and bench in benchmarks:
            options.setdefault(bench, {})[name] = value
        elif len(benchmarks) == 1:
            options.setdefault(benchmarks[0], {})[key] = value
        else:
            raise BiasauditError(
                f"option '{key}' is ambiguous with several benchmarks; write BENCHMARK.{key}"
            )
    return options
