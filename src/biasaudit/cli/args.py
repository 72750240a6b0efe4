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


# --- the options shared by commands, declared once ------------------------------------------
# Each function returns a parent parser (argparse ``parents=[...]``): `run`, `audit` and the
# analyses take their common options from here, so a name, a default or a help text is never
# written twice.


def data_options() -> argparse.ArgumentParser:
    """``--data-dir``: the offline data mirrors."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--data-dir",
        action=JoinPaths,
        help="offline data mirror laid out like shared/datasets (env BIASAUDIT_DATA_DIR); "
        "repeat (or join with the OS path separator) for several, searched in order",
    )
    return parent


def model_options() -> argparse.ArgumentParser:
    """``--model``, ``--model-arg`` and ``--option``: which models, their backend arguments
    and the benchmarks' options."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--model",
        "-m",
        action="append",
        metavar="SPEC",
        help="model spec (default: embedded); repeat for several models",
    )
    parent.add_argument(
        "--model-arg",
        "-M",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="backend argument, e.g. n_ctx=4096 or device=cpu (repeatable)",
    )
    parent.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="BENCHMARK.KEY=VALUE",
        help="benchmark option (repeatable; KEY=VALUE alone with one benchmark); a list "
        "option takes a JSON list or comma-separated items (splits=intrasentence)",
    )
    return parent


def session_options() -> argparse.ArgumentParser:
    """``--seed``, ``--cache``, ``--no-cache``, ``--quiet``: what every command that asks a
    model shares (runs, audits, analyses)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--seed", type=int, default=0, help="draws the samples, decodes and resamples"
    )
    parent.add_argument("--cache", help="response cache file (default ~/.cache/biasaudit)")
    parent.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    parent.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    return parent


def run_options() -> argparse.ArgumentParser:
    """The settings of a run (`RunPlan`) that `run` and `audit` share."""
    parent = argparse.ArgumentParser(add_help=False, parents=[session_options()])
    parent.add_argument(
        "--batch-size", type=int, help="requests per batch (default: the backend's)"
    )
    parent.add_argument(
        "--shard", metavar="i/N", help="every N-th sample of every benchmark, starting at i"
    )
    parent.add_argument("--resume", action="store_true", help="continue the run in --output")
    parent.add_argument("--overwrite", action="store_true", help="replace the run in --output")
    parent.add_argument(
        "--max-failed-samples",
        type=int,
        default=0,
        metavar="N",
        help="samples that may be lost to request errors before the run counts as partial "
        "or failed (exit status 3); default 0",
    )
    return parent


def run_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The parsed `data_options` and `run_options` as the keyword arguments `evaluate` and
    `audit` take (one translation for both commands)."""
    from biasaudit.runner.runner import parse_shard

    return {
        "data_dir": args.data_dir,
        "cache_path": args.cache,
        "use_cache": not args.no_cache,
        "seed": args.seed,
        "batch_size": args.batch_size,
        "shard": parse_shard(args.shard) if args.shard else None,
        "resume": args.resume,
        "overwrite": args.overwrite,
        "progress": not args.quiet,
        "max_failed_samples": args.max_failed_samples,
    }
