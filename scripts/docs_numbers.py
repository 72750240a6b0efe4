"""Regenerate the numbers the docs quote from the toolkit's own statistics, between markers.

A generated passage sits between ``<!-- docs-numbers:NAME -->`` and ``<!-- /docs-numbers -->``
(inline or over several lines); NAME is one of the blocks below, each computed by the current
code (`biasaudit.metrics`: intervals, floors), never typed by hand:

    python scripts/docs_numbers.py             # rewrite every block whose inputs are here
    python scripts/docs_numbers.py --check     # exit 1 when a block is stale (or unknown)
    python scripts/docs_numbers.py --list      # blocks, pages and what each needs

Two kinds of block:

* **model-free**: synthetic layouts computed with a fixed seed, or a recorded run's counts
  where the current interval rule needs nothing else (a proportion of independent samples
  gets a Wilson interval, which depends only on k and n: `mean_interval` is called on the
  run's k scores of 100 and n - k of 0). Always checked.
* **run**: a run folder under ``--runs`` (default ``runs/docs``, git-ignored; the upstream
  data in samples.jsonl is not committed) is re-scored with the current code
  (`biasaudit.api.score` on a copy) and its numbers are rendered. ``--make-runs`` first
  creates missing folders with the seeded, one-thread embedded-model commands listed in
  `RUNS`. A block whose folder is missing is reported and skipped by ``--check`` unless
  ``--require-runs`` is given.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_numbers_blocks import (
    RUNS,
    bbq_ll,
    beads_variation,
    crows_full,
    crows_subset,
    statistics_floors,
    statistics_wilson,
    stereoset_21,
)

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(
    r"(<!-- docs-numbers:(?P<name>[\w.-]+) -->)(?P<body>.*?)(<!-- /docs-numbers -->)", re.S
)
OPEN = re.compile(r"<!-- docs-numbers:([\w.-]+) -->")


class DocsNumbersError(Exception):
    """A page's markers are malformed or name an unknown block."""


@dataclass(frozen=True)
class Block:
    name: str
    page: str
    #: None: model-free; else the run folder name under --runs that the block re-scores.
    run: str | None
    render: Callable[[Path | None], str]


# ---- markers -------------------------------------------------------------------------------


def blocks_in(text: str, page: str) -> list[str]:
    """The block names of `text`, in order; an opening marker without its close is an error."""
    names = [m.group("name") for m in MARKER.finditer(text)]
    opened = OPEN.findall(text)
    if len(opened) != len(names):
        raise DocsNumbersError(f"{page}: a docs-numbers marker is not closed")
    return names


def rewrite(text: str, page: str, rendered: dict[str, str]) -> str:
    """`text` with every block named in `rendered` replaced; other blocks left as they are."""
    blocks_in(text, page)

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in rendered:
            return match.group(0)
        return f"{match.group(1)}{rendered[name]}{match.group(4)}"

    return MARKER.sub(replace, text)


def make_run(runs: Path, name: str) -> None:
    args = RUNS[name]
    out = ["-o", str(runs / name), "--no-cache", "--seed", "0"]
    command = [sys.executable, "-m", "biasaudit.cli", "run", *args, *out]
    print("running:", " ".join(command[2:]), file=sys.stderr)
    start, load = time.monotonic(), os.getloadavg()[0]
    subprocess.run(command, check=True)
    wall, end = time.monotonic() - start, os.getloadavg()[0]
    print(f"{name}: {wall:.0f} s wall, load {load:.1f} -> {end:.1f}", file=sys.stderr)


# ---- the registry and the command line -----------------------------------------------------

BLOCKS = [
    Block("statistics-floors", "docs/statistics.md", None, statistics_floors),
    Block("statistics-wilson-4", "docs/statistics.md", None, statistics_wilson),
    Block("crows-full", "docs/benchmarks/crows_pairs.md", None, crows_full),
    Block("crows-subset", "docs/benchmarks/crows_pairs.md", None, crows_subset),
    Block("stereoset-21-smol", "docs/benchmarks/stereoset.md", "stereoset_21_smol", stereoset_21),
    Block("beads-variation", "docs/benchmarks/beads.md", "beads_variation_smol", beads_variation),
    Block("bbq-ll-smol", "docs/benchmarks/bbq.md", "bbq_ll_smol", bbq_ll),
]


def by_name() -> dict[str, Block]:
    return {b.name: b for b in BLOCKS}


def render_all(
    blocks: Sequence[Block], runs: Path, require_runs: bool
) -> tuple[dict[str, str], list[str]]:
    """(name -> rendered text, blocks skipped because their run folder is missing)."""
    rendered: dict[str, str] = {}
    skipped: list[str] = []
    for block in blocks:
        folder = None
        if block.run is not None:
            folder = runs / block.run
            if not (folder / "results.json").is_file():
                if require_runs:
                    raise DocsNumbersError(f"{block.name}: run folder {folder} is missing")
                skipped.append(block.name)
                continue
        rendered[block.name] = block.render(folder)
    return rendered, skipped


def process(
    root: Path, blocks: Sequence[Block], rendered: dict[str, str], check: bool
) -> list[str]:
    """Rewrite (or, with `check`, only compare) every page; the stale blocks' names."""
    stale: list[str] = []
    known = by_name()
    for page in sorted({b.page for b in blocks}):
        path = root / page
        text = path.read_text(encoding="utf-8")
        names = blocks_in(text, page)
        for name in names:
            if name not in known:
                raise DocsNumbersError(f"{page}: unknown docs-numbers block '{name}'")
        missing = [b.name for b in blocks if b.page == page and b.name not in names]
        if missing:
            raise DocsNumbersError(f"{page}: no marker for block(s) {', '.join(missing)}")
        new = rewrite(text, page, rendered)
        if new != text:
            stale += [
                n for n in names if n in rendered and rewrite(text, page, {n: rendered[n]}) != text
            ]
            if not check:
                path.write_text(new, encoding="utf-8")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a block is stale")
    parser.add_argument("--list", action="store_true", help="list the blocks")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these blocks only")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "docs")
    parser.add_argument("--make-runs", action="store_true", help="create missing run folders")
    parser.add_argument("--require-runs", action="store_true", help="a missing run is an error")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    blocks = BLOCKS
    if args.only:
        unknown = sorted(set(args.only) - by_name().keys())
        if unknown:
            print(f"docs_numbers: unknown block(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        blocks = [b for b in BLOCKS if b.name in args.only]
    if args.list:
        for b in blocks:
            print(f"{b.name}\t{b.page}\t{'run ' + b.run if b.run else 'model-free'}")
        return 0
    if args.make_runs:
        for name in dict.fromkeys(b.run for b in blocks if b.run is not None):
            if not (args.runs / name / "results.json").is_file():
                make_run(args.runs, name)
    try:
        rendered, skipped = render_all(blocks, args.runs, args.require_runs)
        stale = process(args.root, blocks, rendered, args.check)
    except DocsNumbersError as exc:
        print(f"docs_numbers: {exc}", file=sys.stderr)
        return 2
    for name in skipped:
        print(f"docs_numbers: {name}: not checked (no run folder under {args.runs})")
    if args.check and stale:
        print(f"docs_numbers: stale: {', '.join(stale)} (run scripts/docs_numbers.py)")
        return 1
    verb = "up to date" if args.check or not stale else "rewritten"
    print(
        f"docs_numbers: {len(rendered)} block(s) {verb}"
        + (f": {', '.join(stale)}" if stale and not args.check else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
