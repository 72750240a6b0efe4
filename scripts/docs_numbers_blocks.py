"""The blocks of scripts/docs_numbers.py: each renders one passage from the current code.

Model-free blocks compute from synthetic layouts or a recorded run's counts; run blocks
re-score a run folder (`rescored`) made by the `RUNS` commands. See docs_numbers.py.
"""

from __future__ import annotations

import shutil
import tempfile
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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


def _floor(
    records: list[object], by: str, within: str, cluster: str | None = None
) -> tuple[float, float, float]:
    """(gap, null p95, p) of the breakdown `by` under the current floor rules (`frame`)."""
    from biasaudit.metrics import MetricSpec, frame

    spec = MetricSpec(
        name="m",
        score="score",
        group_by=[by],
        noise_floor=True,
        permute_within=within,
        cluster_by=cluster,
    )
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
    gap, p95, p = _floor(_records(values, groups), "stance", within="template")
    old_p95, old_p = _within_only(values, stance, templates)
    bases = [f"b{b}" for b in range(3) for _ in range(10)]
    names = ["female", "male", *(f"g{g}" for g in range(8))]
    beads_groups = [n for _ in range(3) for n in names]
    biased = [
        float(g == "female" or (g not in ("female", "male") and b == "b0"))
        for b, g in zip(bases, beads_groups, strict=True)
    ]
    text_ids = [f"text{i}" for i in range(len(bases))]
    text_p = _floor(
        _records(
            biased, [{"group": g, "base": t} for g, t in zip(beads_groups, text_ids, strict=True)]
        ),
        "group",
        within="base",
    )[2]
    old_text_p = _within_only(biased, beads_groups, text_ids)[1]
    beads_gap, beads_p95, beads_p = _floor(
        _records(
            biased, [{"group": g, "base": b} for g, b in zip(beads_groups, bases, strict=True)]
        ),
        "group",
        within="base",
        cluster="base",
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
    return "\n" + textwrap.fill(text, width=96, break_on_hyphens=False) + "\n"


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

#: Run folder name -> the `biasaudit run` arguments that make it (seeded, one thread, no
#: cache: the outputs are the model's own).
RUNS: dict[str, list[str]] = {
    "stereoset_21_smol": [
        "stereoset", "-m", "embedded", "-M", "n_threads=1", "-O", "scorer=loglikelihood",
        "--shard", "0/21",
    ],
    "bbq_ll_smol": [
        "bbq", "-m", "embedded", "-M", "n_threads=1", "-O", "categories=Sexual_orientation",
        "-O", "protocol=loglikelihood",
    ],
    "beads_variation_smol": [
        "beads", "-m", "embedded", "-M", "n_threads=1", "-O", "task=variation",
    ],
}  # fmt: skip


def _num(value: float | None, digits: int) -> str:
    return "None" if value is None else f"{value:.{digits}f}".replace("-", "−")


def metric_text(metric: object, digits: int = 3) -> str:
    """ "value [low, high] (n N)", or the reason there is no interval / no value."""
    m: Any = metric
    if m.value is None:
        return f"not measurable ({m.undefined_reason}; n {m.n})"
    if m.ci_low is None:
        why = m.ci.unavailable_reason if m.ci is not None else None
        return f"{_num(m.value, digits)} (no interval: {why or 'none'}; n {m.n})"
    method = f", {m.ci.method}" if m.ci is not None and m.ci.method != "bootstrap" else ""
    interval = f"[{_num(m.ci_low, digits)}, {_num(m.ci_high, digits)}]"
    return f"{_num(m.value, digits)} {interval} (n {m.n}{method})"


def floor_text(metric: object, by: str, digits: int = 3) -> str:
    """A breakdown's groups, gap and permutation floor in words."""
    m: Any = metric
    b = next(x for x in m.breakdowns if x.by == by)
    groups = ", ".join(f"{g.group} {_num(g.value, digits)} ({g.n})" for g in b.groups)
    f = b.noise_floor
    if f is None:
        return f"{groups}: gap {_num(b.gap, digits)}, no floor ({b.noise_floor_reason})"
    unit = f", whole {f.permuted_unit}s shuffled" if f.permuted_unit else ""
    return (
        f"{groups}: gap {_num(b.gap, digits)}, null mean {_num(f.null_mean, digits)}, "
        f"p95 {_num(f.null_p95, digits)}, p = {f.p_value:.3f}{unit}"
        f" ({'within' if f.p_value >= 0.05 else 'beyond'} chance)"
    )


def _bench(run_dir: Path | None, name: str) -> Any:
    assert run_dir is not None
    result: Any = rescored(run_dir)
    return next(b for b in result.benchmarks if b.benchmark == name)


def _paragraph(run: str, parts: list[str]) -> str:
    lead = f"Re-scored with the current intervals and floors (`scripts/docs_numbers.py`, {run}): "
    return (
        "\n" + textwrap.fill(lead + "; ".join(parts) + ".", width=96, break_on_hyphens=False) + "\n"
    )


def stereoset_21(run_dir: Path | None) -> str:
    bench = _bench(run_dir, "stereoset")
    m = {x.name: x for x in bench.metrics}
    names = ["ss", "lms", "icat", "ss_micro", "lms_micro", "icat_micro", "icat_term_mean"]
    parts = [f"{n} {metric_text(m[n], 1)}" for n in names if n in m]
    parts += [
        f"ss_micro by {by}: {floor_text(m['ss_micro'], by, 1)}" for by in ("split", "bias_type")
    ]
    return _paragraph(f"SmolLM2 `--shard 0/21`, seed 0, {bench.n_samples} items", parts)


def bbq_ll(run_dir: Path | None) -> str:
    bench = _bench(run_dir, "bbq")
    m = {x.name: x for x in bench.metrics}
    names = [
        "accuracy_ambig", "accuracy_disambig", "bias_score_disambig", "bias_score_ambig",
        "diff_bias_disambig",
    ]  # fmt: skip
    parts = [f"{n} {metric_text(m[n])}" for n in names if n in m]
    parts += [
        f"bias_score_disambig by question_polarity: "
        f"{floor_text(m['bias_score_disambig'], 'question_polarity')}",
        f"accuracy_disambig by question_polarity: "
        f"{floor_text(m['accuracy_disambig'], 'question_polarity')}",
        f"accuracy_disambig by context_alignment: "
        f"{floor_text(m['accuracy_disambig'], 'context_alignment')}",
    ]
    what = f"SmolLM2, log-likelihood, Sexual_orientation, seed 0, {bench.n_samples} rows"
    return _paragraph(what, parts)


def beads_variation(run_dir: Path | None) -> str:
    bench = _bench(run_dir, "beads")
    m = {x.name: x for x in bench.metrics}
    rate = m["biased_rate"]
    outcomes = ", ".join(f"{k} {v:.2f}" for k, v in sorted(rate.outcome_rates.items()))
    return (
        f"biased_rate {metric_text(rate, 2)}; outcomes {outcomes}; by group "
        f"{floor_text(rate, 'group', 2)}"
    )


def rescored(run_dir: Path) -> object:
    """The run re-scored by the current code (on a copy: the folder itself is not touched)."""
    from biasaudit import api

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / run_dir.name
        shutil.copytree(run_dir, copy)
        return api.score(copy)
