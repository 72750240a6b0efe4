"""`biasaudit BENCHMARK ANALYSIS [--arg ...]`: a benchmark's typed analyses on the command line.

The parser is built from the analysis' pydantic `Args` (see `cli_args`); every analysis gets
the same common options. The exit status is 1 when the result has a failing check.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from biasaudit import plugin
from biasaudit.analysis import analysis_of
from biasaudit.cli.args import (
    add_model_arguments,
    data_options,
    model_from_namespace,
    session_options,
)

#: Options every analysis has; an `Args` model may not reuse these names.
COMMON = ("data_dir", "output", "seed", "json", "quiet", "cache", "no_cache")


def common_options() -> argparse.ArgumentParser:
    """Every analysis' options: the shared data and session options (`biasaudit.cli.args`),
    ``--output`` and ``--json``."""
    parent = argparse.ArgumentParser(add_help=False, parents=[data_options(), session_options()])
    parent.add_argument("--output", "-o", help="folder for files the analysis writes")
    parent.add_argument("--json", action="store_true", help="print the result as JSON")
    return parent


def build_analysis_parser(benchmark: str) -> argparse.ArgumentParser:
    spec = plugin.get_spec(benchmark)
    parser = argparse.ArgumentParser(
        prog=f"biasaudit {benchmark}", description=f"{spec.title}: analyses."
    )
    sub = parser.add_subparsers(dest="analysis", required=True, metavar="ANALYSIS")
    for name in sorted(spec.analyses):
        chosen = analysis_of(benchmark, name)
        clash = set(COMMON) & set(chosen.Args.model_fields)
        if clash:
            raise TypeError(f"{benchmark} {name}: argument names {sorted(clash)} are reserved")
        child = sub.add_parser(
            name,
            parents=[common_options()],
            help=chosen.description,
            description=chosen.description,
        )
        add_model_arguments(child, chosen.Args)
    return parser


def analysis_main(benchmark: str, argv: Sequence[str]) -> int:
    from biasaudit.api import analyze

    if argv and not argv[0].startswith("-"):
        analysis_of(benchmark, argv[0])  # did-you-mean for an unknown analysis
    parser = build_analysis_parser(benchmark)
    args = parser.parse_args(list(argv))
    chosen = analysis_of(benchmark, args.analysis)
    parsed = model_from_namespace(chosen.Args, args, f"{benchmark} {args.analysis}")
    result = analyze(
        benchmark,
        args.analysis,
        parsed.model_dump(),
        data_dir=args.data_dir,
        output_dir=args.output,
        seed=args.seed,
        cache_path=args.cache,
        use_cache=not args.no_cache,
        progress=not args.quiet,
    )
    print(result.to_json() if args.json else result.render(), file=sys.stdout)
    return 0 if result.ok else 1
