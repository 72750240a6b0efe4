"""The `biasaudit` command line.

User mistakes (`BiasauditError`) are printed as one line and exit with status 2; an interrupt
exits with 130 and keeps everything cached so ``--resume`` continues the run.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from biasaudit._version import __version__
from biasaudit.cli.args import data_options, model_options, run_options, run_settings
from biasaudit.cli.commands import (
    EXIT_INCOMPLETE,
    cmd_list,
    cmd_merge,
    cmd_reproduce,
    cmd_schema,
    cmd_score,
    cmd_validate,
)
from biasaudit.errors import BiasauditError, OneLineWarning


def _parse_options(pairs: list[str], benchmarks: list[str]) -> dict[str, dict[str, Any]]:
    """-O key=value applies to the only benchmark; -O bench.key=value picks one."""
    from biasaudit.options import parse_benchmark_options

    return parse_benchmark_options(pairs, benchmarks)


def cmd_run(args: argparse.Namespace) -> int:
    from biasaudit.api import evaluate
    from biasaudit.options import parse_cli_pairs
    from biasaudit.textfmt import format_table

    if args.help_options:
        from biasaudit.cli.data import print_options

        for name in args.benchmarks:
            print(f"{name}:")
            print_options(name)
        return 0
    models = args.model or ["embedded"]
    options = _parse_options(args.option, args.benchmarks)
    if args.limit is not None and args.limit >= 1 and args.sample is None:
        from biasaudit.audit.plans import limit_warnings

        for line in limit_warnings(args.benchmarks, options, args.limit, args.data_dir):
            warnings.warn(line, SubsetWarning, stacklevel=1)
    runs = evaluate(
        args.benchmarks,
        models if len(models) > 1 else models[0],
        options=options,
        model_args=parse_cli_pairs(args.model_arg),
        output_dir=args.output,
        limit=args.limit,
        sample=args.sample,
        **run_settings(args),
    )
    from biasaudit.profile.display import METRIC_COLUMNS, metric_row, status_lines

    for run in runs if isinstance(runs, list) else [runs]:
        for bench in run.benchmarks:
            rows = [metric_row(bench, m) for m in bench.metrics]
            head = f"{bench.benchmark} on {run.model.spec}"
            print(f"\n{head} ({bench.n_samples} samples, {bench.wall_time_s:.1f}s)")
            plan = bench.sample_plan
            if plan is not None and plan.n_units > plan.size:
                print(
                    f"(--sample {plan.size} drew {plan.n_units} {plan.unit or 'sample'}s: "
                    f"every one of the {plan.n_strata} strata ({', '.join(plan.strata)}) "
                    f"and every level of {', '.join(plan.cover) or 'them'} is represented)"
                )
            print(format_table(METRIC_COLUMNS, rows))
            for m in bench.metrics:
                if m.value is None and m.undefined_reason:
                    print(f"  {m.name}: not measurable: {m.undefined_reason}")
            print("\n".join(status_lines(bench)))
    if args.output:
        where = args.output if len(models) == 1 else f"{args.output}/<model>"
        print(f"\nwrote {where}/results.json and samples.jsonl")
        print(f"next: biasaudit report {where} -o report.html; biasaudit card {where}")
    all_runs = runs if isinstance(runs, list) else [runs]
    code = _report_incomplete(all_runs, args)
    return code or _report_not_measurable(all_runs, args)


def _report_not_measurable(runs: list[Any], args: argparse.Namespace) -> int:
    """One line on stderr per benchmark that is not measurable; exit 4 only with --strict."""
    from biasaudit.profile.display import EXIT_NOT_MEASURABLE, not_measurable_benchmarks

    found = not_measurable_benchmarks(runs)
    for model, bench, reason in found:
        print(f"biasaudit: {bench} on {model} is not measurable: {reason}", file=sys.stderr)
    return EXIT_NOT_MEASURABLE if found and getattr(args, "strict", False) else 0


class SubsetWarning(OneLineWarning):
    """A subset that leaves out whole groups (``--limit``): printed as one line."""


def _format_warning(message: Any, category: Any, *args: Any, **kwargs: Any) -> str:
    if isinstance(category, type) and issubclass(category, OneLineWarning):
        return f"biasaudit: warning: {message}\n"
    return _default_format(message, category, *args, **kwargs)


_default_format = warnings.formatwarning
warnings.formatwarning = _format_warning


def _report_incomplete(runs: list[Any], args: argparse.Namespace) -> int:
    """One line on stderr per run that is not complete, and a non-zero exit status."""
    bad = [run for run in runs if run.status != "complete"]
    for run in bad:
        hint = " (rerun the same command with --resume to retry them)" if args.output else ""
        print(
            f"biasaudit: {run.status} run of {run.model.spec}: {run.status_reason}{hint}",
            file=sys.stderr,
        )
    return EXIT_INCOMPLETE if bad else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="biasaudit", description="Audit social bias in language models."
    )
    parser.add_argument("--version", action="version", version=f"biasaudit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    data_parent = data_options()

    run = sub.add_parser(
        "run",
        parents=[data_parent, model_options(), run_options()],
        help="run benchmarks on a model",
    )
    run.add_argument("benchmarks", nargs="+", metavar="BENCHMARK")
    run.add_argument("--output", "-o", help="run directory for results.json and samples.jsonl")
    run.add_argument(
        "--limit",
        type=int,
        help="only the first N samples of each benchmark, in file order (quick checks; it "
        "may drop whole groups, and says so: prefer --sample for a subset to read)",
    )
    run.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="a stratified sample of N units of each benchmark: every group, category and "
        "severity it declares, drawn with --seed (see docs/audit.md)",
    )
    run.add_argument(
        "--help-options",
        action="store_true",
        help="print every -O option of the benchmarks (type, default, description) and exit",
    )
    run.add_argument(
        "--strict",
        action="store_true",
        help="exit status 4 when a benchmark finished but is not measurable (a validity gate "
        "failed, see docs/profile.md); without it such a run exits 0 and says so on stderr",
    )
    run.set_defaults(func=cmd_run)

    lst = sub.add_parser("list", help="list benchmarks, analyses or backends")
    lst.add_argument("what", choices=["benchmarks", "analyses", "backends", "options"])
    lst.add_argument("name", nargs="?", metavar="BENCHMARK", help="with 'options'")
    lst.add_argument("--json", action="store_true")
    lst.add_argument(
        "--debug", action="store_true", help="with each plug-in that failed to load, its traceback"
    )
    lst.set_defaults(func=cmd_list)

    score = sub.add_parser("score", parents=[data_parent], help="re-score a run without a model")
    score.add_argument("run_dir")
    score.set_defaults(func=cmd_score)

    merge = sub.add_parser(
        "merge", parents=[data_parent], help="combine the --shard outputs of one run or audit"
    )
    merge.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    merge.add_argument("--output", "-o", required=True)
    merge.add_argument("--overwrite", action="store_true", help="replace a run already in --output")
    merge.set_defaults(func=cmd_merge)

    validate = sub.add_parser(
        "validate", parents=[data_parent], help="check data, checksums and prompt rendering"
    )
    validate.add_argument("benchmarks", nargs="+", metavar="BENCHMARK")
    validate.set_defaults(func=cmd_validate)

    reproduce = sub.add_parser(
        "reproduce", parents=[data_parent], help="recompute the authors' released numbers"
    )
    reproduce.add_argument("benchmark")
    reproduce.add_argument("--json", action="store_true")
    reproduce.set_defaults(func=cmd_reproduce)

    schema = sub.add_parser("schema", help="print the JSON Schema of results and samples")
    schema.set_defaults(func=cmd_schema)

    from biasaudit import plugin
    from biasaudit.cli.report import register as register_report

    register_report(sub, data_parent)
    from biasaudit.cli.data import register as register_data

    register_data(sub)
    from biasaudit.cli.finetune import register as register_finetune

    register_finetune(sub, data_parent)
    from biasaudit.cli.profile import register as register_profile

    register_profile(sub)
    from biasaudit.cli.audit import register as register_audit

    register_audit(sub, data_parent)
    for name, spec in plugin.discover().items():
        if spec.analyses:
            # Parsed by `analysis_main`; listed here so `biasaudit --help` shows them.
            sub.add_parser(name, help=f"analyses: {', '.join(sorted(spec.analyses))}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and _is_benchmark_command(argv[0]):
            from biasaudit.cli.analyses import analysis_main

            return analysis_main(argv[0], argv[1:])
        parser = build_parser()
        args = parser.parse_args(argv)
        code: int = args.func(args)
        return code
    except BiasauditError as exc:
        print(f"biasaudit: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        if not _stdout_closed():
            raise  # another pipe (e.g. to a browser) broke: not the reader of our output
        # `biasaudit ... | head`: the reader is gone; say nothing more, exit as SIGPIPE would
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        print(
            "biasaudit: interrupted; cached responses are kept, rerun with --resume",
            file=sys.stderr,
        )
        return 130


def _stdout_closed() -> bool:
    """Whether stdout is a pipe whose reader has gone (poll reports an error on it)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (captured output)
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _is_benchmark_command(word: str) -> bool:
    from biasaudit import plugin

    spec = plugin.discover().get(word)
    return spec is not None and bool(spec.analyses)


if __name__ == "__main__":
    sys.exit(main())
