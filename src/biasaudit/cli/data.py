"""Commands for benchmark authors: `data pin`, `data fetch` and a benchmark's option list.

`biasaudit data pin URL...` prints (or merges into a sources.json) the pins a benchmark
declares; `biasaudit data fetch NAME` downloads every file a benchmark declares into the cache
and verifies it; `biasaudit list options NAME` / `biasaudit run NAME --help-options` print
every option of a benchmark with its type, default and description.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import traceback
from pathlib import Path

from biasaudit.errors import DataError, one_line

#: Benchmarks whose class could not be imported while listing: (name, one line, traceback).
_broken_classes: list[tuple[str, str, str]] = []


def benchmark_version(name: str) -> str:
    """The version of benchmark `name`, or "(broken)" when its class fails to import (the
    failure is reported by `report_plugin_problems`, and the listing goes on)."""
    from biasaudit import plugin

    try:
        return str(plugin.benchmark_class(name).version)
    except Exception as exc:
        line = one_line(exc)
        _broken_classes.append((name, line, traceback.format_exc()))
        return "(broken)"


def broken_declarations() -> list[str]:
    """One line per declared part of an installed benchmark that cannot be loaded (profile,
    analyses, report view, sources: `biasaudit.declarations`); the benchmark stays listed,
    and an audit skips it with the same line."""
    from biasaudit import plugin
    from biasaudit.declarations import part_problems

    return [line for name, spec in plugin.discover().items() for line in part_problems(name, spec)]


def report_plugin_problems(debug: bool) -> None:
    """One line on stderr per plug-in that was left out; with `debug`, its traceback too."""
    from biasaudit import plugin

    problems = [(p.line(), p.traceback) for p in plugin.discovery_problems()]
    problems += [
        (f"benchmark {name}: its class cannot be imported: {line}", trace)
        for name, line, trace in _broken_classes
    ]
    _broken_classes.clear()  # reported once (main() may run several times in one process)
    problems += [(line, "") for line in broken_declarations()]
    for line, trace in problems:
        hint = "" if debug or not trace else " (--debug for the traceback)"
        print(f"biasaudit: warning: {line}{hint}", file=sys.stderr)
        if debug and trace:
            print(trace.rstrip(), file=sys.stderr)


def print_options(name: str, as_json: bool = False) -> None:
    from biasaudit import plugin
    from biasaudit.options import describe_options
    from biasaudit.textfmt import format_table

    rows = describe_options(plugin.benchmark_class(name).Options)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    if not rows:
        print(f"{name} has no options")
        return
    columns = ["name", "type", "default", "description"]
    print(format_table(columns, [[row[c] for c in columns] for row in rows]))
    print(
        f"\nset with -O KEY=VALUE (values are JSON when they parse), e.g. "
        f"biasaudit run {name} -O {rows[0]['name']}=..."
    )


def cmd_pin(args: argparse.Namespace) -> int:
    from biasaudit.data.pin import as_json_entries, pin
    from biasaudit.results.io import atomic_write_text

    if not math.isfinite(args.timeout) or args.timeout <= 0:
        raise DataError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    out = Path(args.output) if args.output is not None else None
    # the sources file is checked before anything is downloaded
    existing = _read_sources(out) if out is not None else {}
    pins, warnings = pin(
        args.locations,
        prefix=args.prefix,
        license=args.license,
        citation=args.citation,
        timeout=args.timeout,
    )
    for warning in warnings:
        print(f"biasaudit: warning: {warning}", file=sys.stderr)
    entries = as_json_entries(pins)
    if out is None:
        print(json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False))
        return 0
    merged = {**existing, **entries}
    atomic_write_text(out, json.dumps(merged, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"pinned {len(entries)} files into {out} ({len(merged)} in all)")
    return 0


def _read_sources(out: Path) -> dict[str, object]:
    """The entries already in the `data pin -o` file (none when it does not exist yet); one
    that cannot be merged into (not JSON, not UTF-8, not an object, a folder, under a file) is
    one DataError, and it is not changed."""
    from biasaudit.datasets.files import load_json

    # the nearest folder above `out` that exists ("/" when none)
    folder = next((p for p in out.absolute().parents if p.exists()), Path(out.anchor or "/"))
    if not folder.is_dir():
        raise DataError(f"{out}: {folder} is a file, not a folder; not written")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DataError(f"{out}: cannot write in {folder} (a read-only folder); not written")
    if not out.exists():
        return {}
    try:
        existing = load_json(out)
    except DataError as exc:
        raise DataError(f"{exc}; not changed") from None
    if not isinstance(existing, dict):
        raise DataError(f"{out}: not a sources.json (expected an object); not changed")
    return existing


def cmd_fetch(args: argparse.Namespace) -> int:
    from biasaudit import plugin
    from biasaudit.discovery import open_store

    spec = plugin.get_spec(args.benchmark)
    sources = plugin.spec_sources(spec)
    if not sources:
        raise DataError(f"benchmark '{spec.name}' declares no data files (BenchmarkSpec.sources)")
    store = open_store(cache_dir=args.cache_dir, use_mirror=False)
    for key in sorted(sources):
        path = store.path(key)
        print(f"{key}\t{sources[key].sha256[:12]}\t{path}")
    print(f"{spec.name}: {len(sources)} files downloaded and verified in {store.cache_dir}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    data = sub.add_parser("data", help="pin new data files, fetch a benchmark's data")
    verbs = data.add_subparsers(dest="data_command", required=True, metavar="VERB")

    pin = verbs.add_parser(
        "pin", help="hash files (URLs, file:// URLs or local paths) into sources.json entries"
    )
    pin.add_argument("locations", nargs="+", metavar="URL")
    pin.add_argument("--license", required=True, help="the files' licence (SPDX id)")
    pin.add_argument("--citation", required=True, help="what to cite for the files")
    pin.add_argument("--prefix", default="", help="key prefix, e.g. 'winobias/'")
    pin.add_argument("--output", "-o", help="merge into this sources.json (default: print)")
    pin.add_argument("--timeout", type=float, default=60.0, help="seconds per download")
    pin.set_defaults(func=cmd_pin)

    fetch = verbs.add_parser(
        "fetch", help="download a benchmark's declared files into the cache and verify them"
    )
    fetch.add_argument("benchmark", metavar="BENCHMARK")
    fetch.add_argument(
        "--cache-dir", help="where to keep them (default: $BIASAUDIT_CACHE_DIR/data)"
    )
    fetch.set_defaults(func=cmd_fetch)
