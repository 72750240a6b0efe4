"""`biasaudit report`, `compare` and `export`: reading run directories, no model needed."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError

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
    "reading",
]


def cmd_report(args: argparse.Namespace) -> int:
    from biasaudit.report.page import write_report

    default = (
        Path(args.run_dirs[0]) / "report.html" if len(args.run_dirs) == 1 else Path("report.html")
    )
    path = write_report(args.run_dirs, args.output or default)
    print(f"wrote {path}")
    if args.screenshot:
        from biasaudit.report.browser import render

        rendered = render(path, width=args.width, height=args.height)
        Path(args.screenshot).write_bytes(rendered.png)
        print(f"wrote {args.screenshot}")
        for message in rendered.console_errors:
            print(f"console error: {message}", file=sys.stderr)
    return 0


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
                    r["baseline_value"],
                    r["other_value"],
                    r["difference"],
                    r["ci_low"],
                    r["ci_high"],
                    r["method"] or "-",
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
                "reading",
            ]
            out.append(format_table(columns, table) + "\n")
    return "\n".join(out)


def cmd_compare(args: argparse.Namespace) -> int:
    from biasaudit.report.compare import compare_runs
    from biasaudit.report.runs import load_runs

    if len(args.run_dirs) < 2:
        raise RunError("compare needs at least two run directories")
    if args.over_seeds:
        return _over_seeds(args)
    runs = load_runs(args.run_dirs)
    from biasaudit.audit.folder import plan_mismatches

    for run in runs[1:]:
        for line in plan_mismatches(runs[0].result, run.result, run.label):
            print(f"biasaudit: warning: {line}", file=sys.stderr)
    diffs = compare_runs(runs)
    if not diffs:
        raise RunError("the runs share no benchmark with the same metrics; nothing to compare")
    rows = [d.as_dict() for d in diffs]
    if args.json:
        print(json.dumps(rows, indent=2))
    elif args.csv:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COMPARE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        sys.stdout.write(buffer.getvalue())
    else:
        shown = rows if args.groups else [r for r in rows if not r["group"]]
        print(_compare_rows(shown))
        print("difference = other - baseline (the first run). method: 'paired bootstrap' when both")
        print(
            "runs saw the same samples, else 'conservative' (from the two CIs). See docs/report.md."
        )
    return 0


def _over_seeds(args: argparse.Namespace) -> int:
    from biasaudit.report.runs import load_runs
    from biasaudit.report.seeds import summarize_over_seeds
    from biasaudit.textfmt import format_table

    rows = [s.as_dict() for s in summarize_over_seeds(load_runs(args.run_dirs))]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    shown = rows if args.groups else [r for r in rows if not r["group"]]
    columns = ["benchmark", "metric", "group", "n_runs", "mean", "sd"]
    print(format_table(columns, [[r[c] for c in columns] for r in shown]))
    print("mean and sample sd (n - 1) of each metric across the seeded runs")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from biasaudit.report.export import export_run

    output = args.output or Path(args.run_dir) / "export"
    for path in export_run(args.run_dir, args.format, output):
        print(f"wrote {path}")
    return 0


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
