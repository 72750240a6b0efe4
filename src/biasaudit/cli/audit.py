"""The `biasaudit audit` command (registered by `biasaudit.cli.app`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from biasaudit.audit.planner import parse_duration
from biasaudit.cli.args import model_options, run_options, run_settings
from biasaudit.errors import RunError
from biasaudit.suites import SUITES

#: Exit status of an audit that finished but is not complete (as `biasaudit run`'s).
EXIT_INCOMPLETE = 3


def cmd_audit(args: argparse.Namespace) -> int:
    from biasaudit.audit.run import audit
    from biasaudit.options import parse_cli_pairs
    from biasaudit.plugin import names

    chosen = [b.strip() for b in args.benchmarks.split(",") if b.strip()] if args.benchmarks else []
    budget_s = parse_duration(args.budget) if args.budget else None
    if args.plan_only:
        return _plan_only(args, chosen or names(), budget_s)
    if not args.output:
        raise RunError("--output DIR is required (only --plan-only writes nothing)")
    runs = audit(
        args.model or ["embedded"],
        args.suite,
        args.output,
        benchmarks=chosen or None,
        options=_options(args.option, chosen or names()),
        model_args=parse_cli_pairs(args.model_arg),
        budget_s=budget_s,
        **run_settings(args),
    )
    for item in runs:
        print_summary(item.info)
    where = args.output if len(runs) == 1 else f"{args.output}/<model>"
    print(f"\nwrote {where}/audit.json, results.json and samples.jsonl")
    print(f"next: biasaudit report {args.output} -o {args.output}/report.html")
    bad = [r for r in runs if r.info.status != "complete"]
    for item in bad:
        print(
            f"biasaudit: {item.info.status} audit of {item.info.models[0]} "
            f"(rerun the same command with --resume to retry)",
            file=sys.stderr,
        )
    return EXIT_INCOMPLETE if bad else 0


def _plan_only(args: argparse.Namespace, chosen: list[str], budget_s: float | None) -> int:
    """Print the plan (per benchmark: size, requests, predicted time, cells with their MDE)
    from the model's recorded costs; nothing is run and no weights are loaded."""
    from biasaudit.audit.budget import budget_plans, forecast_plans
    from biasaudit.audit.planner import plan_rows, total_seconds
    from biasaudit.audit.plans import plan_suite
    from biasaudit.models.spec import validate_model
    from biasaudit.options import parse_cli_pairs
    from biasaudit.textfmt import format_table

    model = (args.model or ["embedded"])[0]
    validate_model(model, parse_cli_pairs(args.model_arg))
    options = _options(args.option, chosen)
    where = {"seed": args.seed, "data_dir": args.data_dir}
    if budget_s is None:
        plans = plan_suite(chosen, args.suite, options, **where)
        forecasts = forecast_plans(plans, model)
        what = f"{args.suite} suite"
    else:
        plans, forecasts = budget_plans(chosen, options, budget_s, model, measure=False, **where)
        what = f"budget {budget_s / 60:.1f} min"
    print(f"plan of {model} ({what}); MDE at 80 % power and alpha/m over the m cells")
    columns = ["benchmark", "size", "samples", "requests", "minutes", "sd", "cell", "n", "MDE"]
    print(format_table(columns, plan_rows(forecasts)))
    for plan in plans:
        if plan.skip_reason is not None:
            print(f"skipped: {plan.name}: {plan.skip_reason}")
    if not forecasts:
        print("nothing would run: every benchmark is skipped (the reasons above)")
        return 0
    total = total_seconds(forecasts)
    print(
        "predicted time: "
        + (f"{total / 60:.1f} min" if total is not None else "unknown (no recorded cost of ")
        + ("" if total is not None else f"{model} for some benchmark; an audit records them)")
    )
    return 0


def _options(pairs: list[str], benchmarks: list[str]) -> dict[str, dict[str, Any]]:
    from biasaudit.options import parse_benchmark_options

    return parse_benchmark_options(pairs, benchmarks)


def print_summary(info: Any) -> None:
    """The suite's benchmarks, one line each: status, samples, plan, reason."""
    from biasaudit.textfmt import format_table

    rows = []
    for b in info.benchmarks:
        plan = b.sample_plan
        drawn = f"{plan.n_units}/{plan.n_units_total} {plan.unit or 'samples'}" if plan else "all"
        drawn = "-" if b.status == "skipped" else drawn
        rows.append([b.name, b.status, b.n_samples, drawn, f"{b.wall_time_s:.0f}", b.reason or ""])
    print(f"\naudit of {info.models[0]} ({info.suite} suite): {info.status}")
    print(format_table(["benchmark", "status", "samples", "drawn", "wall_s", "reason"], rows))


def register(sub: Any, data_parent: argparse.ArgumentParser) -> None:
    audit = sub.add_parser(
        "audit",
        parents=[data_parent, model_options(), run_options()],
        help="audit a model with every benchmark it can serve (a suite)",
        description="Run a suite of every benchmark the model can serve into one audit "
        "folder per model (see docs/audit.md).",
    )
    audit.add_argument(
        "--suite",
        choices=SUITES,
        default="quick",
        help="demo (minutes), quick (default), standard, or full (every item)",
    )
    audit.add_argument(
        "--benchmarks", metavar="A,B", help="only these benchmarks (default: all installed)"
    )
    audit.add_argument("--output", "-o", help="the audit folder (required unless --plan-only)")
    audit.add_argument(
        "--budget",
        metavar="DURATION",
        help="a time budget (90s, 15m, 1h) in place of --suite: each benchmark gets the "
        "declared size that buys the most precision within it (a pilot measures a new model)",
    )
    audit.add_argument(
        "--plan-only",
        action="store_true",
        help="print the plan (sizes, predicted time and MDE per cell) and stop; loads no model",
    )
    audit.set_defaults(func=cmd_audit)
