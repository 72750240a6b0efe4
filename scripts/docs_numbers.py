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
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

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


# ---- model-free blocks ---------------------------------------------------------------------


def _records(values: Sequence[float], groups: Sequence[dict[str, str]]) -> list[object]:
    from biasaudit.results.schema import SampleRecord

    return [
        SampleRecord(
            benchmark="docs",
            sample_id=f"s{i}",
            sample_hash=f"{i:064x}",
            groups=g,
            scores={"score": v},
            outcomes=["answered"],
        )
        for i, (v, g) in enumerate(zip(values, groups, strict=True))
    ]


def _floor(records: list[object], by: str, **design: str) -> tuple[float, float, float]:
    """(gap, null p95, p) of the breakdown `by` under the current floor rules (`frame`)."""
    from biasaudit.metrics import MetricSpec, frame

    spec = MetricSpec(name="m", score="score", group_by=[by], noise_floor=True, **design)
    breakdown = frame(records, spec, seed=0).breakdowns[0]  # type: ignore[arg-type]
    floor = breakdown.noise_floor
    assert breakdown.gap is not None and floor is not None and floor.null_p95 is not None
    assert floor.p_value is not None
    return breakdown.gap, floor.null_p95, floor.p_value


def _within_only(
    values: Sequence[float], labels: list[str], blocks: list[str]
) -> tuple[float, float]:
    """(null p95, p) of the old rule: single samples shuffled within each block."""
    from biasaudit.metrics import permutation_null

    null = permutation_null(values, labels, seed=0, strata=blocks, n_permutations=1000)
    assert null is not None
    return null.null_p95, null.p_value


def statistics_floors(_: Path | None) -> str:
    import numpy as np

    rng = np.random.default_rng(0)
    templates = [f"t{t}" for t in range(12) for _ in range(10)]
    stance = ["pro" if int(t[1:]) < 6 else "anti" for t in templates]
    values = [float(rng.random() < (0.7 if s == "pro" else 0.3)) for s in stance]
    groups = [{"stance": s, "template": t} for s, t in zip(stance, templates, strict=True)]
    gap, p95, p = _floor(_records(values, groups), "stance", permute_within="template")
    old_p95, old_p = _within_only(values, stance, templates)
    bases = [f"b{b}" for b in range(3) for _ in range(10)]
    names = ["female", "male", *(f"g{g}" for g in range(8))]
    beads_groups = [n for _ in range(3) for n in names]
    biased = [
        float(g == "female" or (g not in ("female", "male") and b == "b0"))
        for b, g in zip(bases, beads_groups, strict=True)
    ]
    text_ids = [f"text{i}" for i in range(len(bases))]
    _, _, text_p = _floor(
        _records(
            biased, [{"group": g, "base": t} for g, t in zip(beads_groups, text_ids, strict=True)]
        ),
        "group",
        permute_within="base",
    )
    old_text_p = _within_only(biased, beads_groups, text_ids)[1]
    beads_gap, beads_p95, beads_p = _floor(
        _records(
            biased, [{"group": g, "base": b} for g, b in zip(beads_groups, bases, strict=True)]
        ),
        "group",
        permute_within="base",
        cluster_by="base",
    )
    reading = "indistinguishable from chance" if beads_p >= 0.05 else "a gap beyond chance"
    text = (
        "Measured (`scripts/docs_numbers.py`: seed 0, 1,000 permutations, `frame` on synthetic "
        "records): 12 templates × 10 samples with the pro/anti label constant within a template "
        f"and successes drawn at rates 0.7 / 0.3 (observed gap {gap:.2f}): the old "
        f"within-template shuffle gives null p95 {old_p95:.2f} = the gap and p = {old_p:.3f}; "
        f"whole templates shuffled give null p95 {p95:.2f} and p = {p:.3f}. BEADs demo layout "
        '(3 base sentences × 10 groups, "female" always judged biased, "male" never, the other '
        "eight on the first sentence only): with the text as base id (each row its own block) "
        f"the old within-block shuffle gave the gap as floor (p = {old_text_p:.3f}), and the "
        f"current rule moves whole rows (p = {text_p:.2f}, but 30 one-row blocks say nothing "
        f"about sentences); with the real ids (gap {beads_gap:.2f}, null p95 {beads_p95:.2f}) "
        f"p = {beads_p:.2f}: ten groups of three samples each, {reading}."
    )
    return "\n" + textwrap.fill(text, width=96) + "\n"


def statistics_wilson(_: Path | None) -> str:
    low, high = _wilson_percent(4, 4)
    return f"[{low:.1f}, {high:.0f}]"


def _wilson_percent(k: int, n: int) -> tuple[float, float]:
    """The toolkit's interval of a 0/100 score with k of n at 100 (no clusters: Wilson), on
    the percent scale CrowS-Pairs declares (`MetricSpec.scale`)."""
    from biasaudit.metrics.intervals import mean_interval

    interval = mean_interval(
        [100.0] * k + [0.0] * (n - k),
        clusters=None,
        strata=None,
        seed=0,
        n_resamples=1000,
        level=0.95,
        scale=100.0,
    )
    assert interval.method == "wilson" and interval.low is not None and interval.high is not None
    return interval.low, interval.high


#: Pairs preferring the more stereotyping sentence (k of n) in the recorded full CrowS-Pairs
#: runs (docs/benchmarks/crows_pairs.md: 2026-11, `-O scorer=loglikelihood`, embedded models;
#: the values printed there are these k / n). likelihood_diff is not a proportion: its
#: bootstrap CI (recorded) is unchanged by the interval rules.
CROWS_COUNTS = {
    "metric_score": ((821, 1508), (865, 1508)),
    "metric_score_normalised": ((828, 1508), (893, 1508)),
    "stereotype_score": ((688, 1290), (726, 1290)),
    "antistereotype_score": ((133, 218), (139, 218)),
    "pct_neutral": ((0, 1508), (0, 1508)),
}
CROWS_LABELS = {"metric_score_normalised": "`metric_score_normalised` (per token)"}
CROWS_LIKELIHOOD_DIFF = ("4.650 [4.415, 4.889]", "3.861 [3.658, 4.054]")


def _percent_cell(k: int, n: int, bold: bool = False) -> str:
    low, high = _wilson_percent(k, n)
    value = f"{100 * k / n:.2f}"
    return f"{f'**{value}**' if bold else value} [{low:.2f}, {high:.2f}]"


def crows_full(_: Path | None) -> str:
    rows = [
        "",
        "Percentages with 95% Wilson intervals (each pair's score is 0 or 100 and pairs are",
        "independent, docs/statistics.md; computed by `scripts/docs_numbers.py` from each run's",
        "counts); `likelihood_diff` with its bootstrap CI (pairs resampled, 1,000 resamples):",
        "",
        "| metric | SmolLM2-135M-Instruct | n | Gemma 3 270M | n |",
        "|---|---|---|---|---|",
    ]
    for metric, ((k1, n1), (k2, n2)) in CROWS_COUNTS.items():
        bold = metric == "metric_score"
        label = CROWS_LABELS.get(metric, f"`{metric}`")
        cells = _percent_cell(k1, n1, bold), _percent_cell(k2, n2, bold)
        rows.append(f"| {label} | {cells[0]} | {n1:,} | {cells[1]} | {n2:,} |")
    smol, gemma = CROWS_LIKELIHOOD_DIFF
    rows.append(f"| `likelihood_diff` | {smol} | 1,508 | {gemma} | 1,508 |")
    return "\n".join(rows) + "\n"


def crows_subset(_: Path | None) -> str:
    """The earlier 250-pair subset: 141 and 139 of 250 pairs."""
    return f"metric score {_short(141, 250)},\nper token {_short(139, 250)}"


def _short(k: int, n: int) -> str:
    low, high = _wilson_percent(k, n)
    return f"{100 * k / n:.1f} [{low:.1f}, {high:.1f}]"


# ---- run blocks ----------------------------------------------------------------------------

#: Run folder name -> the `biasaudit run` arguments that make it (seeded, one thread).
RUNS: dict[str, list[str]] = {}


def rescored(run_dir: Path) -> object:
    """The run re-scored by the current code (on a copy: the folder itself is not touched)."""
    from biasaudit import api

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / run_dir.name
        shutil.copytree(run_dir, copy)
        return api.score(copy)


def make_run(runs: Path, name: str) -> None:
    args = RUNS[name]
    command = [sys.executable, "-m", "biasaudit.cli", "run", *args, "-o", str(runs / name)]
    print("running:", " ".join(command[2:]), file=sys.stderr)
    subprocess.run(command, check=True)


# ---- the registry and the command line -----------------------------------------------------

BLOCKS = [
    Block("statistics-floors", "docs/statistics.md", None, statistics_floors),
    Block("statistics-wilson-4", "docs/statistics.md", None, statistics_wilson),
    Block("crows-full", "docs/benchmarks/crows_pairs.md", None, crows_full),
    Block("crows-subset", "docs/benchmarks/crows_pairs.md", None, crows_subset),
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
