"""`biasaudit card AUDIT_DIR` and `biasaudit profile RUN_DIR` (the profile in a terminal)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

#: Exit status when what was read is not a complete audit (as `run`'s and `merge`'s).
EXIT_INCOMPLETE = 3


def _warn_gaps(folder: str) -> bool:
    """Print the audit's gaps as one warning line; whether there were any."""
    from biasaudit.profile.outputs import gaps_line

    line = gaps_line(folder)
    if line:
        print(f"biasaudit: warning: {line}", file=sys.stderr)
    return line is not None


def cmd_card(args: argparse.Namespace) -> int:
    from biasaudit.profile.outputs import model_dirs, write_outputs

    paths = write_outputs(args.audit_dir, alpha=args.alpha)
    dirs = model_dirs(args.audit_dir)
    if args.json:
        cards = [json.loads((d / "card.json").read_text("utf-8")) for d in dirs]
        print(json.dumps(cards if len(cards) > 1 else cards[0], indent=2))
    else:
        for d in dirs:
            print((d / "card.md").read_text("utf-8"))
    for path in paths:
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_INCOMPLETE if _warn_gaps(args.audit_dir) else 0


def cmd_profile(args: argparse.Namespace) -> int:
    from biasaudit.profile.build import profile_of_dir
    from biasaudit.profile.outputs import model_dirs, suite_of
    from biasaudit.report.profile_view import VERDICT_COLUMNS, verdict_rows
    from biasaudit.textfmt import format_table

    for run_dir in model_dirs(args.run_dir):
        profile = profile_of_dir(run_dir, alpha=args.alpha)
        if args.json:
            print(profile.model_dump_json(indent=2))
            continue
        print(f"bias profile of {profile.model} ({run_dir})")
        print(format_table(VERDICT_COLUMNS, verdict_rows(profile)))
        print(f"verdicts: {profile.fdr}")
        info = suite_of(run_dir)
        if info and info.get("status") not in (None, "complete"):
            print(f"audit status: {info['status']} (not every benchmark finished)")
    return EXIT_INCOMPLETE if _warn_gaps(args.run_dir) else 0


def register(sub: Any) -> None:
    card = sub.add_parser(
        "card", help="write the model-card section of an audit (card.md/json, profile.json/csv)"
    )
    card.add_argument("audit_dir", metavar="AUDIT_DIR")
    card.add_argument("--alpha", type=float, default=0.05, help="false discovery rate (BH)")
    card.add_argument("--json", action="store_true", help="print card.json instead of card.md")
    card.set_defaults(func=cmd_card)
    profile = sub.add_parser("profile", help="print the bias profile of a run or audit folder")
    profile.add_argument("run_dir", metavar="RUN_DIR")
    profile.add_argument("--alpha", type=float, default=0.05, help="false discovery rate (BH)")
    profile.add_argument("--json", action="store_true")
    profile.set_defaults(func=cmd_profile)
