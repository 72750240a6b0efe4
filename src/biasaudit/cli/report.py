"""`biasaudit report`, `compare` and `export`: reading run directories, no model needed."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biasaudit.errors import RunError
from biasaudit.results.outputs import atomic_output, check_output_file

if TYPE_CHECKING:
    from biasaudit.report.runs import LoadedRun
    from biasaudit.results.schema import RunResult

#: Columns of `compare` output, in order (see `Difference`).
COMPARE_COLUMNS = [
    "benchmark",
    "metric",
    "group",
    "baseline",
    "other",
    "baseline_value",
    "baseline_ci_low",
    "baseline_ci_high",
    "baseline_n",
    "other_value",
    "other_ci_low",
    "other_ci_high",
    "other_n",
    "difference",
    "ci_low",
    "ci_high",
    "method",
    "higher_is_better",
    "not_measurable",
    "reading",
    "baseline_status",
    "other_status",
    "kind",
    "baseline_p_value",
    "other_p_value",
    "baseline_null_p95",
    "other_null_p95",
]

#: Exit status when an input run is not complete (as `biasaudit run` uses for such a run).
EXIT_INCOMPLETE = 3


def incomplete_banner(runs: Sequence[tuple[str | Path, RunResult]]) -> int:
    """One line on stderr per input run that is not complete; EXIT_INCOMPLETE if any."""
    bad = [(path, run) for path, run in runs if run.status != "complete"]
    for path, run in bad:
        print(f"biasaudit: {path} is a {run.status} run: {run.status_reason}", file=sys.stderr)
    return EXIT_INCOMPLETE if bad else 0


def _banner(runs: Sequence[LoadedRun]) -> int:
    return incomplete_banner([(run.path, run.result) for run in runs])


def cmd_report(args: argparse.Namespace) -> int:
    from biasaudit.report.page import write_report

    default = (
        Path(args.run_dirs[0]) / "report.html" if len(args.run_dirs) == 1 else Path("report.html")
    )
    if args.screenshot:
        check_output_file(Path(args.screenshot), args.run_dirs)
    path = write_report(expand_audit_dirs(args.run_dirs), args.output or default)
    print(f"wrote {path}")
    if args.screenshot:
        from biasaudit.report.browser import render

        rendered = render(path, width=args.width, height=args.height)
        with atomic_output(Path(args.screenshot)) as tmp:
            tmp.write_bytes(rendered.png)
        print(f"wrote {args.screenshot}")
        for message in rendered.console_errors:
            print(f"console error: {message}", file=sys.stderr)
    return 0


def _value_cell(row: dict[str, Any], side: str) -> str:
    """ "value [ci_low, ci_high] n=N" of one run's side of a compare row ("-" for None)."""
    from biasaudit.textfmt import format_cell

    value, low, high = (row[f"{side}_{k}"] for k in ("value", "ci_low", "ci_high"))
    ci = f" [{format_cell(low)}, {format_cell(high)}]" if low is not None else ""
    return f"{format_cell(value)}{ci} n={row[f'{side}_n']}"


def _floor_cell(row: dict[str, Any]) -> str:
    """A contrast's floor p-values "p_baseline / p_other"; "" for other rows."""
    from biasaudit.textfmt import format_cell

    if row["kind"] != "contrast":
        return ""
    return f"{format_cell(row['baseline_p_value'])} / {format_cell(row['other_p_value'])}"


def _compare_rows(rows: list[dict[str, Any]]) -> str:
    from biasaudit.textfmt import format_table

    out = []
    for other in dict.fromkeys(r["other"] for r in rows):
        for bench in dict.fromkeys(r["benchmark"] for r in rows):
            mine = [r for r in rows if r["other"] == other and r["benchmark"] == bench]
            if not mine:
                continue
            base = mine[0]["baseline"]
            table = [
                [
                    r["metric"],
                    r["group"] or "(overall)",
                    _value_cell(r, "baseline"),
                    _value_cell(r, "other"),
                    r["difference"],
                    r["ci_low"],
                    r["ci_high"],
                    r["method"] or "-",
                    _floor_cell(r),
                    r["reading"],
                ]
                for r in mine
            ]
            out.append(f"{bench}: {other} minus {base}")
            columns = [
                "metric",
                "group",
                base,
                other,
                "diff",
                "ci_low",
                "ci_high",
                "method",
                "floor p",
                "reading",
            ]
            out.append(format_table(columns, table) + "\n")
    return "\n".join(out)


def cmd_compare(args: argparse.Namespace) -> int:
    from biasaudit.report.compare import compare_runs
    from biasaudit.report.runs import load_runs

    if args.over_seeds:
        if len(args.run_dirs) < 2:
            raise RunError("compare needs at least two run directories")
        return _over_seeds(args)
    runs = load_runs(expand_audit_dirs(args.run_dirs))  # an audit folder: its models
    if len(runs) < 2:
        raise RunError("compare needs at least two run directories")
    from biasaudit.audit.folder import plan_mismatches

    for run in runs[1:]:
        for line in plan_mismatches(runs[0].result, run.result, run.label):
            print(f"biasaudit: warning: {line}", file=sys.stderr)
    if args.profile:
        _compare_profile_cells(runs, args)
        return _banner(runs)
    diffs = compare_runs(runs)
    if not diffs:
        raise RunError("the runs share no benchmark with the same metrics; nothing to compare")
    status = {run.label: run.result.status for run in runs}
    rows = [
        d.as_dict() | {"baseline_status": status[d.baseline], "other_status": status[d.other]}
        for d in diffs
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
    elif args.csv:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COMPARE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        sys.stdout.write(buffer.getvalue())
    else:
        shown = rows if args.groups else [r for r in rows if r["kind"] != "group"]
        print(_compare_rows(shown))
        print("difference = other - baseline (the first run). method: 'paired bootstrap' when both")
        print(
            "runs saw the same samples, else 'conservative' (from the two CIs). See docs/report.md."
        )
        print("each run: value [95% CI] n=samples counted. Contrast rows (signed a - b; n = both")
        print("sides): floor p = each run's permutation p-value of |a - b| (baseline / other).")
        print()
        _compare_profile_cells(runs, args)
    return _banner(runs)


def expand_audit_dirs(paths: list[str]) -> list[str]:
    """Each path, or the model folders of a several-model audit folder (DIR/<model>/)."""
    from biasaudit.profile.outputs import gaps_line, model_dirs

    out: list[str] = []
    for path in paths:
        folder = Path(path)
        if not folder.is_dir() or any((folder / f).is_file() for f in ("results.json", "run.json")):
            out.append(path)  # a run folder (finished or live), or a path load_run reports
        else:
            out += [str(p) for p in model_dirs(path)]
            line = gaps_line(path)  # a model that did not finish is named, never dropped
            if line:
                print(f"biasaudit: warning: {line}", file=sys.stderr)
    return out


def _compare_profile_cells(runs: list[Any], args: argparse.Namespace) -> int:
    """Every profile cell of each later run against the first (biasaudit.profile.compare)."""
    from biasaudit.profile.build import build_profile
    from biasaudit.profile.compare import compare_profiles
    from biasaudit.textfmt import format_table

    def profile(run: Any) -> Any:
        records = [r for rs in run.records.values() for r in rs]
        return build_profile(run.result, records, run_dir=str(run.path))

    base = profile(runs[0])
    rows = []
    for other in runs[1:]:
        rows += [
            d.as_dict() for d in compare_profiles(base, profile(other), runs[0].label, other.label)
        ]
    if args.json and args.profile:
        print(json.dumps(rows, indent=2))
    elif args.csv and args.profile:
        buffer = io.StringIO()
        fields = list(rows[0]) if rows else ["axis"]
        writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        sys.stdout.write(buffer.getvalue())
    elif rows:
        for row in rows:  # a per-group cell (CALM) is read as "axis: group"
            row["axis"] = f"{row['axis']}: {row['group']}" if row["group"] else row["axis"]
        columns = [
            "axis",
            "benchmark",
            "baseline_effect",
            "other_effect",
            "difference",
            "ci_low",
            "ci_high",
            "baseline_verdict",
            "other_verdict",
            "reading",
        ]
        print(f"profile cells: {runs[1].label if len(runs) == 2 else 'other'} vs {runs[0].label}")
        print(format_table(columns, [[r[c] for c in columns] for r in rows]))
        print("effects are signed (+ = toward the stereotype; in a group's cell, the benchmark's")
        print("+, CALM: in favour of the group); interval: conservative, from the two cells' 95%")
        print("CIs. Not measurable cells give no difference. See docs/profile.md.")
    return 0


def _over_seeds(args: argparse.Namespace) -> int:
    from biasaudit.report.runs import load_runs
    from biasaudit.report.seeds import summarize_over_seeds
    from biasaudit.textfmt import format_table

    runs = load_runs(args.run_dirs)
    rows = [s.as_dict() for s in summarize_over_seeds(runs)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return _banner(runs)
    shown = rows if args.groups else [r for r in rows if not r["group"]]
    columns = ["benchmark", "metric", "group", "n_runs", "mean", "sd"]
    print(format_table(columns, [[r[c] for c in columns] for r in shown]))
    print("mean and sample sd (n - 1) of each metric across the seeded runs")
    return _banner(runs)


def cmd_export(args: argparse.Namespace) -> int:
    from biasaudit.report.export import export_run
    from biasaudit.results.io import read_results

    output = args.output or Path(args.run_dir) / "export"
    for path in export_run(args.run_dir, args.format, output):
        print(f"wrote {path}")
    return incomplete_banner([(args.run_dir, read_results(args.run_dir))])


def register(sub: Any, data_parent: argparse.ArgumentParser) -> None:
    """Add `report`, `compare` and `export` to the biasaudit CLI."""
    report = sub.add_parser("report", help="write a self-contained HTML report of one or more runs")
    report.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    report.add_argument(
        "--output",
        "-o",
        help="HTML file (default RUN_DIR/report.html, or ./report.html for several runs)",
    )
    report.add_argument(
        "--screenshot", metavar="PNG", help="also render a PNG with headless Chromium"
    )
    report.add_argument("--width", type=int, default=1280, help="screenshot width in pixels")
    report.add_argument("--height", type=int, default=900, help="screenshot height in pixels")
    report.set_defaults(func=cmd_report)

    compare = sub.add_parser("compare", help="differences between runs, with confidence intervals")
    compare.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    fmt = compare.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="machine-readable JSON")
    fmt.add_argument("--csv", action="store_true", help="machine-readable CSV")
    compare.add_argument(
        "--groups", action="store_true", help="also show per-group rows in the table"
    )
    compare.add_argument(
        "--profile",
        action="store_true",
        help="only the bias-profile cells (with --json / --csv: those rows)",
    )
    compare.add_argument(
        "--over-seeds",
        action="store_true",
        help="runs of one setup with different seeds: each metric's mean and sd across them",
    )
    compare.set_defaults(func=cmd_compare)

    export = sub.add_parser("export", help="per-sample and per-group tables as CSV or Parquet")
    export.add_argument("run_dir", metavar="RUN_DIR")
    export.add_argument("--format", choices=["csv", "parquet"], default="csv")
    export.add_argument("--output", "-o", help="directory (default RUN_DIR/export)")
    export.set_defaults(func=cmd_export)
