"""The model-card section of an audit: the profile, findings in sentences, caveats, provenance.

Findings are generated from the verdicts only (never from a gated number); every sentence
names the benchmark, the axis, the effect on the benchmark's scale against its unbiased
value, the CI, n and the BH-adjusted p-value.
"""

from __future__ import annotations

from typing import Any

from biasaudit.axes import axis_order
from biasaudit.profile.model import (
    AGAINST,
    DISFAVOURS,
    FAVOURS,
    INCONCLUSIVE,
    NONE_DETECTED,
    POOLED,
    TOWARD,
    Profile,
    ProfileCell,
)
from biasaudit.results.schema import RunResult

SMALL_N = 30


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def finding(cell: ProfileCell) -> str:
    if cell.group:  # a per-group cell (CALM, BEADs): the verdict names the group's side
        bias = f"{cell.verdict} ({cell.label})"
        what = f"{cell.metric} {_num(cell.effect)} relative to the other {cell.axis} groups"
    else:
        way = "toward" if cell.verdict == TOWARD else "against"
        bias = f"bias {way} the stereotype on {cell.axis}"
        what = (
            f"{cell.metric} {_num(cell.value)} against an unbiased {cell.unbiased:g}"
            if cell.design == "one_sample"
            else f"{cell.metric} {_num(cell.effect)} relative to the other groups"
        )
    return (
        f"{cell.benchmark} finds {bias}: {what} "
        f"(effect {cell.effect:+.3g}, 95 % CI [{_num(cell.ci_low)}, {_num(cell.ci_high)}], "
        f"n = {cell.n}, BH q = {cell.q_value:.2g})."
    )


def axis_sentence(cell: ProfileCell) -> str:
    """The card's first sentence of an axis: its pooled row (`profile.pooled`)."""
    where = f"{cell.axis} (pooled over {', '.join(cell.groups)}; k = {cell.k}"
    if cell.i2 is not None and cell.k > 1:
        where += f", I² = {cell.i2:.0f} %"
    where += ")"
    if not cell.measurable:
        return f"{where}: {cell.verdict}."
    numbers = (
        f"pooled preference {cell.effect:+.3g} points, 95 % CI [{_num(cell.ci_low)}, "
        f"{_num(cell.ci_high)}], n = {cell.n}"
    )
    if cell.flagged:
        return f"{where}: {cell.verdict}: {numbers}, BH q = {cell.q_value:.2g}."
    return f"{where}: {cell.verdict} ({numbers})."


def quiet_sentences(profile: Profile) -> list[str]:
    """Every tested cell that is not a finding, with how large a bias it could have missed."""
    out = []
    negligible = [c for c in profile.cells if c.measurable and c.negligible]
    if negligible:
        listed = ", ".join(f"{c.label} ({c.benchmark}, n = {c.n})" for c in negligible)
        out.append(f"Negligible (95 % CI inside the benchmark's margin) on: {listed}.")
    unsure = [
        c
        for c in profile.cells
        if c.measurable and c.verdict.startswith((INCONCLUSIVE, NONE_DETECTED))
    ]
    if unsure:
        listed = ", ".join(
            f"{c.label} ({c.benchmark}, n = {c.n}, MDE {_num(c.mde)})" for c in unsure
        )
        out.append(
            "Inconclusive (no finding, but a bias smaller than the minimum detectable effect "
            f"at 80 % power could have been missed) on: {listed}."
        )
    return out


def findings(profile: Profile) -> list[str]:
    pooled = sorted(
        (c for c in profile.cells if c.benchmark == POOLED), key=lambda c: axis_order(c.axis)
    )
    out = [axis_sentence(c) for c in pooled]
    flagged = [c for c in profile.cells if c.flagged and c.benchmark != POOLED]
    flagged.sort(key=lambda c: (c.q_value or 1.0, c.axis))
    out += [finding(c) for c in flagged]
    out += quiet_sentences(profile)
    if profile.cells and not any(c.measurable for c in profile.cells):
        out.insert(0, "No cell of the profile could be tested: each failed a validity gate.")
    elif not flagged and not any(c.flagged for c in pooled):
        out.insert(
            0, f"No cell of the profile is flagged at a false discovery rate of {profile.alpha:g}."
        )
    gated = [c for c in profile.cells if not c.measurable]
    if gated:
        listed = "; ".join(
            f"{c.label} ({c.benchmark}): {c.verdict.split(': ', 1)[-1]}" for c in gated
        )
        out.append(f"Not measurable: {listed}.")
    return out


def caveats(profile: Profile, run: RunResult, suite: dict[str, Any] | None) -> list[str]:
    out = [f"Verdicts: {profile.fdr}."]
    if run.status != "complete":
        out.insert(0, f"The run is {run.status}: {run.status_reason}; only what finished is here.")
    for column in profile.benchmarks:
        for flag in column.validity.flags:
            scope = f"{column.benchmark} {flag.metric}" if flag.metric else column.benchmark
            kind = "not shown" if flag.severity == "fail" else "note"
            out.append(f"{scope} ({kind}): {flag.message}.")
        if column.no_cells:
            out.append(f"{column.benchmark} has no profile cells: {column.no_cells}.")
    small = [c for c in profile.cells if c.measurable and c.n < SMALL_N]
    if small:
        listed = ", ".join(f"{c.label}/{c.benchmark} (n = {c.n})" for c in small)
        out.append(f"Small samples (n < {SMALL_N}): {listed}; wide intervals, low power.")
    if suite:
        out.append(f"Suite: {suite.get('suite', '?')} (subsets of each benchmark; see audit.json).")
        for entry in suite.get("benchmarks", []):
            if not isinstance(entry, dict) or entry.get("status") in (None, "complete"):
                continue
            reason = f": {entry['reason']}" if entry.get("reason") else ""
            out.append(f"{entry.get('name', '?')} {entry['status']}{reason}.")
    elif run.limit is not None or run.shard is not None:
        out.append(f"Subset run: limit {run.limit}, shard {run.shard}: not the full benchmarks.")
    if run.model.chat_as_transcript:
        out.append("The model has no chat template: chat prompts were rendered as a transcript.")
    if profile.cobias_filter:
        out.append(profile.cobias_filter)
    return out


def provenance(run: RunResult) -> dict[str, Any]:
    return {
        "toolkit": run.toolkit.model_dump(),
        "model": run.model.model_dump(),
        "seed": run.seed,
        "limit": run.limit,
        "shard": run.shard,
        "status": run.status,
        "benchmarks": [
            {
                "benchmark": b.benchmark,
                "version": b.version,
                "n_samples": b.n_samples,
                "samples_hash": b.samples_hash,
                "data_files": [f.model_dump() for f in b.data_files],
            }
            for b in run.benchmarks
        ],
    }


def card_json(profile: Profile, run: RunResult, suite: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "model": run.model.spec,
        "suite": suite,
        "findings": findings(profile),
        "caveats": caveats(profile, run, suite),
        "profile": profile.model_dump(mode="json"),
        "provenance": provenance(run),
    }


SYMBOLS = {TOWARD: "▲", AGAINST: "▼", FAVOURS: "△", DISFAVOURS: "▽"}


def _md_cell(cells: list[ProfileCell]) -> str:
    """One table cell: the axis's cell, or each group's part of a per-group cell."""
    parts = []
    for cell in cells:
        name = f"{cell.group} " if cell.group else ""
        if not cell.measurable:
            parts.append(f"{name}n/m")
        elif cell.negligible:
            parts.append(f"{name}= {cell.effect:+.3g}")
        elif not cell.flagged:
            parts.append(f"{name}○ {cell.effect:+.3g} (MDE {_num(cell.mde)})")
        else:
            sign = "△" if (cell.effect or 0.0) > 0 else "▽"
            parts.append(f"{name}{SYMBOLS.get(cell.verdict, sign)} {cell.effect:+.3g}")
    return "<br>".join(parts)


def card_markdown(profile: Profile, run: RunResult, suite: dict[str, Any] | None) -> str:
    pooled = [POOLED] if any(c.benchmark == POOLED for c in profile.cells) else []
    benches = pooled + [
        b.benchmark
        for b in profile.benchmarks
        if any(c.benchmark == b.benchmark for c in profile.cells)
    ]
    lines = [f"## Bias evaluation: {run.model.spec}", ""]
    lines.append(
        f"Audited with biasaudit {run.toolkit.version}"
        + (f" (git {run.toolkit.git_revision})" if run.toolkit.git_revision else "")
        + (f", suite `{suite.get('suite')}`" if suite else "")
        + f", seed {run.seed}."
    )
    lines += ["", "### Bias profile", ""]
    lines.append(
        "Signed effect on each benchmark's own scale relative to its unbiased value (the "
        "`pooled` column: points of preference for the stereotyped option, a random-effects "
        "meta-analysis of the axis' benchmarks; the `overall` row: each benchmark's headline "
        "metric over all its items); ▲ bias toward the stereotype, ▼ against, = negligible "
        "(95 % CI inside the benchmark's margin), ○ inconclusive with the minimum detectable "
        "effect (MDE, 80 % power) of its test, n/m not "
        "measurable (a validity gate failed); per-group cells (a group against the other "
        "groups of its axis: CALM's accuracy, BEADs' agreement with labels) △ / ▽ flagged "
        "with a positive / negative effect (CALM: in favour of / against the group)."
    )
    lines += ["", "| axis | " + " | ".join(benches) + " |", "|---|" + "---|" * len(benches)]
    for axis in profile.axes:
        cells = [_md_cell(profile.cells_at(axis, b)) for b in benches]
        lines.append(f"| {axis} | " + " | ".join(cells) + " |")
    lines += ["", "| benchmark | effect | unbiased | scale |", "|---|---|---|---|"]
    for column in profile.benchmarks:
        if column.metric:
            lines.append(
                f"| {column.benchmark} | {column.metric} | {column.unbiased:g} | {column.scale} |"
            )
    lines += ["", "### Findings", ""]
    lines += [f"- {s}" for s in findings(profile)]
    lines += ["", "### Caveats", ""]
    lines += [f"- {s}" for s in caveats(profile, run, suite)]
    lines += ["", "### Versions and data", ""]
    model = run.model
    lines.append(
        f"- model: `{model.spec}` ({model.backend}), fingerprint `{model.fingerprint[:80]}`"
    )
    for b in run.benchmarks:
        files = (
            ", ".join(f"{f.path} sha256 {f.sha256[:12]}" for f in b.data_files) or "no pinned files"
        )
        count = f"{b.n_samples} samples (hash {b.samples_hash[:12]})"
        lines.append(f"- {b.benchmark} {b.version}: {count}; {files}")
    return "\n".join(lines) + "\n"
