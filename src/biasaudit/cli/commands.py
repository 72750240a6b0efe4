"""The `biasaudit` subcommands that read or combine what exists: `list`, `score`, `merge`,
`validate`, `reproduce`, `schema` (`biasaudit.cli.app` builds the parser and runs `run`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from biasaudit.analysis import analysis_of
from biasaudit.errors import BiasauditError

#: Exit status of a run that finished but is not complete (samples lost to request errors).
EXIT_INCOMPLETE = 3


def _list_items(what: str) -> tuple[list[dict[str, Any]], list[str]]:
    from biasaudit import plugin

    if what == "benchmarks":
        from biasaudit.cli.data import benchmark_version

        items = [
            {
                "name": name,
                "title": spec.title,
                "version": benchmark_version(name),
                "analyses": sorted(spec.analyses),
            }
            for name, spec in plugin.discover().items()
        ]
        return items, ["name", "version", "title", "analyses"]
    if what == "analyses":
        items = []
        for name, spec in plugin.discover().items():
            for analysis_name in sorted(spec.analyses):
                chosen = analysis_of(name, analysis_name)
                items.append(
                    {
                        "benchmark": name,
                        "analysis": analysis_name,
                        "description": chosen.description,
                        "command": f"biasaudit {name} {analysis_name}",
                    }
                )
        return items, ["benchmark", "analysis", "description"]
    from biasaudit.models.spec import BACKENDS

    items = []
    for name in BACKENDS.names():
        try:  # an installed package's broken backend is described, never raised
            capabilities = sorted(c.value for c in BACKENDS.load(name).possible_capabilities)
        except Exception:
            capabilities = []
        items.append(
            {
                "name": name,
                "origin": BACKENDS.origin(name),
                "capabilities": capabilities,
                "description": BACKENDS.description(name),
            }
        )
    for problem in BACKENDS.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return items, ["name", "origin", "capabilities", "description"]


def cmd_list(args: argparse.Namespace) -> int:
    from biasaudit.textfmt import format_table

    if args.what == "options":
        from biasaudit.cli.data import print_options

        if not args.name:
            raise BiasauditError("list options needs a benchmark name: biasaudit list options NAME")
        print_options(args.name, args.json)
        return 0
    from biasaudit.cli.data import report_plugin_problems

    items, columns = _list_items(args.what)
    report_plugin_problems(args.debug)
    if args.json:
        print(json.dumps(items, indent=2))
    else:
        rows = [
            [", ".join(i[c]) if isinstance(i[c], list) else i[c] for c in columns] for i in items
        ]
        print(format_table(columns, rows))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from biasaudit.api import score

    run = score(args.run_dir, data_dir=args.data_dir)
    for bench in run.benchmarks:
        for metric in bench.metrics:
            print(f"{bench.benchmark}\t{metric.name}\t{metric.value}")
    print(f"rescored {args.run_dir}/results.json")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from biasaudit.api import merge
    from biasaudit.audit.folder import is_audit

    if all(is_audit(d) for d in args.run_dirs):
        from biasaudit.audit.merge import merge_audit_folders

        info = merge_audit_folders(args.run_dirs, args.output, data_dir=args.data_dir)
        print(f"merged {len(args.run_dirs)} audit shards into {args.output} ({info.status})")
        if info.status != "complete":
            reasons = sorted(
                {b.reason for b in info.benchmarks if b.reason and b.status != "skipped"}
            )
            why = "; ".join(reasons) or "a model folder is not complete"
            print(f"biasaudit: {info.status} merge into {args.output}: {why}", file=sys.stderr)
            return EXIT_INCOMPLETE
        return 0

    run = merge(args.run_dirs, args.output, data_dir=args.data_dir, overwrite=args.overwrite)
    counts = ", ".join(f"{b.benchmark}: {b.n_samples} samples" for b in run.benchmarks)
    print(f"merged {len(args.run_dirs)} runs into {args.output} ({counts})")
    if run.status != "complete":
        print(
            f"biasaudit: {run.status} merge into {args.output}: {run.status_reason}",
            file=sys.stderr,
        )
        return EXIT_INCOMPLETE
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from biasaudit.api import build_benchmarks
    from biasaudit.discovery import open_store

    store = open_store(args.data_dir)
    failed = False
    for bench in build_benchmarks(args.benchmarks, None, store, 0):
        # the files these options read (shared ones too), then the rest the spec declares
        declared = bench.declaration.sources if bench.declaration is not None else {}
        keys = list(dict.fromkeys([*bench.data_keys(), *sorted(declared)]))
        for key in keys:
            store.path(key)
        samples = bench.load_samples()
        problems = bench.validate()
        status = "ok" if not problems else f"{len(problems)} problems"
        print(
            f"{bench.name}: {len(keys)} data files verified, "
            f"{len(samples)} samples, prompts render: {status}"
        )
        for problem in problems[:20]:
            print(f"  {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    from biasaudit.api import analyze

    result = analyze(args.benchmark, "reproduce", data_dir=args.data_dir)
    print(result.to_json() if args.json else result.render())
    return 0 if result.ok else 1


def cmd_schema(args: argparse.Namespace) -> int:
    from biasaudit.results.schema import json_schemas

    print(json.dumps(json_schemas(), indent=2, sort_keys=True))
    return 0
