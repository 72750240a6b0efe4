"""Command-line options generated from pydantic argument models (analyses' `Args`).

Each field becomes ``--field-name``: booleans are ``--x/--no-x``, literals get choices, lists
take several values (or one comma-separated value), dicts take repeated KEY=VALUE. Only the
options given are passed on, so the model's defaults and validation stay the single truth;
a validation error is one line naming the option.
"""

from __future__ import annotations

import argparse
import os
import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from biasaudit.errors import BiasauditError


def _kind(annotation: Any) -> tuple[str, tuple[Any, ...]]:
    """('bool' | 'list' | 'dict' | 'literal' | 'scalar', literal choices)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _kind(inner[0]) if len(inner) == 1 else ("scalar", ())
    if annotation is bool:
        return "bool", ()
    if origin is Literal:
        return "literal", typing.get_args(annotation)
    if origin in (list, tuple, set, frozenset):
        return "list", ()
    if origin is dict:
        return "dict", ()
    return "scalar", ()


def option_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _help(info: FieldInfo) -> str:
    text = info.description or ""
    given = not info.is_required() and info.default_factory is None
    if given and info.default not in (None, "", [], {}):
        text = f"{text} (default: {info.default})".strip()
    return text


def add_model_arguments(parser: argparse.ArgumentParser, model: type[BaseModel]) -> None:
    for name, info in model.model_fields.items():
        kind, choices = _kind(info.annotation)
        common: dict[str, Any] = {
            "dest": name,
            "default": argparse.SUPPRESS,
            "help": _help(info),
        }
        if kind == "bool":
            parser.add_argument(option_name(name), action=argparse.BooleanOptionalAction, **common)
            continue
        if info.is_required():
            common["required"] = True
        if kind == "literal":
            parser.add_argument(
                option_name(name),
                choices=[str(c) for c in choices],
                metavar="|".join(str(c) for c in choices),
                **common,
            )
        elif kind == "list":
            parser.add_argument(option_name(name), nargs="+", metavar="VALUE", **common)
        elif kind == "dict":
            parser.add_argument(option_name(name), action="append", metavar="KEY=VALUE", **common)
        else:
            parser.add_argument(option_name(name), metavar=name.upper(), **common)


def model_from_namespace(model: type[BaseModel], args: argparse.Namespace, owner: str) -> Any:
    """Validate the given options against `model`; errors are one line naming the option."""
    from biasaudit.options import parse_cli_pairs

    values: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if not hasattr(args, name):
            continue
        raw = getattr(args, name)
        kind, _ = _kind(info.annotation)
        if kind == "list":
            raw = [part.strip() for item in raw for part in str(item).split(",") if part.strip()]
        elif kind == "dict":
            raw = parse_cli_pairs(raw)
        values[name] = raw
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        where = option_name(field) if field else owner
        raise BiasauditError(f"{owner}: {where}: {first['msg']}") from None


class JoinPaths(argparse.Action):
    """A repeated option's values joined by the OS path separator (``--data-dir A
    --data-dir B`` is ``A:B``, as BIASAUDIT_DATA_DIR may be)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        old = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{old}{os.pathsep}{values}" if old else values)
