"""Validity gates: checked before a number is shown, recorded in results.json.

A metric failing a gate is shown as ``not measurable: <reason>`` wherever it appears
(terminal, report, compare, export, model card); its computed value stays in results.json,
so nothing is lost. Gates are declared per benchmark (`Gates` in the benchmark's
``profile.py``; a benchmark that declares none gets the defaults):

- answer rate (answered + unknown share of the outcomes) below ``min_answer_rate``;
- unparsed rate (unparsed + refused share) above ``max_unparsed_rate``;
- n below ``min_n`` (a metric, a group of a breakdown, a profile cell);
- share of samples excluded above ``max_excluded_share`` (and no samples at all);
- one answer to (almost) everything (``max_same_answer_share`` of ``answer_key``);
- ``answer_mode=extract``: the text reader and the constrained extraction agree on fewer
  than ``min_reader_agreement`` of the answered samples (metric ``reader_agreement``);
- benchmark-specific checks (``extra``): demo data, templates dropped, not a model measure;
- a chat benchmark run on a model without a chat template (rendered as a transcript): a
  warning shown next to the numbers, not a failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from biasaudit.contract import Benchmark
from biasaudit.discovery import discover
from biasaudit.extraction import READER_AGREEMENT
from biasaudit.plugin import declared_profile
from biasaudit.profile_spec import BenchmarkProfile, Gates
from biasaudit.requests import Capability
from biasaudit.results.schema import (
    BenchmarkResult,
    GroupValue,
    MetricValue,
    SampleRecord,
    Validity,
    ValidityFlag,
)

ANSWERS = ("answered", "unknown")
NON_ANSWERS = ("unparsed", "refused")


def benchmark_profile(name: str) -> BenchmarkProfile:
    """The profile benchmark `name` declares, for results read back from a folder (they
    hold the name, not the object); the default gates for a benchmark no longer installed."""
    if name not in discover():
        return BenchmarkProfile()
    return declared_profile(name)


def gates_of(benchmark: Benchmark) -> Gates:
    """The gates the benchmark object carries (its declaration); the defaults without one."""
    declared = benchmark.declaration
    return declared.profile.gates if declared is not None else Gates()


def pct(share: float) -> str:
    return f"{100 * share:.3g} %"


def answer_rate(rates: dict[str, float]) -> float | None:
    return sum(rates.get(k, 0.0) for k in ANSWERS) if rates else None


def rate_reason(rates: dict[str, float], gates: Gates) -> tuple[str, str] | None:
    """(gate, message) when outcome rates fail the answer-rate or unparsed gate."""
    answered = answer_rate(rates)
    if answered is not None and answered < gates.min_answer_rate:
        return "answer_rate", f"answer rate {pct(answered)} (< {pct(gates.min_answer_rate)})"
    unparsed = sum(rates.get(k, 0.0) for k in NON_ANSWERS)
    if rates and unparsed > gates.max_unparsed_rate:
        return "unparsed", f"unparsed rate {pct(unparsed)} (> {pct(gates.max_unparsed_rate)})"
    return None


def n_reason(n: int, gates: Gates) -> str | None:
    return f"n = {n} (< {gates.min_n})" if n < gates.min_n else None


def group_reason(group: GroupValue, gates: Gates) -> str | None:
    """Why one group's value of a breakdown is not shown (None: it is)."""
    found = rate_reason(group.outcome_rates, gates)
    return found[1] if found else n_reason(group.n, gates)


def _metric_flags(metric: MetricValue, gates: Gates) -> list[ValidityFlag]:
    found = rate_reason(metric.outcome_rates, gates)
    if found:
        return [ValidityFlag(gate=found[0], severity="fail", message=found[1], metric=metric.name)]
    if metric.value is not None and (message := n_reason(metric.n, gates)):
        return [ValidityFlag(gate="min_n", severity="fail", message=message, metric=metric.name)]
    return []


def _same_answer(answers: Counter[str], gates: Gates) -> ValidityFlag | None:
    total = sum(answers.values())
    if gates.max_same_answer_share is None or total < gates.min_n:
        return None
    answer, count = answers.most_common(1)[0]
    share = count / total
    if share < gates.max_same_answer_share:
        return None
    message = (
        f"{count} of {total} answers are '{answer}' ({pct(share)} >= "
        f"{pct(gates.max_same_answer_share)}): a constant answer reveals no bias"
    )
    return ValidityFlag(gate="same_answer", severity="fail", message=message)


def _readers_disagree(bench: BenchmarkResult, gates: Gates) -> ValidityFlag | None:
    """``answer_mode=extract``: the text reader and the extraction agree too rarely."""
    for metric in bench.metrics:
        value = metric.value
        if metric.name != READER_AGREEMENT or value is None:
            continue
        if value >= gates.min_reader_agreement or metric.n < gates.min_n:
            return None  # too few checked samples: the metric's own n gate says so
        message = (
            f"readers agree on {pct(value)} (< {pct(gates.min_reader_agreement)}) of "
            f"{metric.n} answered samples: the text reader and the model's own final "
            "answer differ; read the samples marked readers=disagree"
        )
        return ValidityFlag(gate="readers_agree", severity="fail", message=message)
    return None


def _count(records: Iterable[SampleRecord], gates: Gates) -> tuple[Counter[str], Counter[str]]:
    """(outcomes, parsed answers) in one pass: records may be rebuilt each time they are read."""
    outcomes: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    key = gates.answer_key
    for record in records:
        outcomes.update(record.outcomes)
        if key is not None and not record.excluded and record.scores.get(key) is not None:
            answers[str(record.scores[key])] += 1
    return outcomes, answers


def judge(
    benchmark: Benchmark,
    result: BenchmarkResult,
    records: Iterable[SampleRecord],
    chat_as_transcript: bool,
) -> Validity:
    """The validity of a finished run of `benchmark` (the run engine's `RunConfig.judge`)."""
    generative = Capability.GENERATE in benchmark.required_capabilities()
    gates = gates_of(benchmark)
    return check(
        result, records, gates, chat_as_transcript=chat_as_transcript, generative=generative
    )


def check(
    bench: BenchmarkResult,
    records: Iterable[SampleRecord] | None,
    gates: Gates,
    *,
    chat_as_transcript: bool = False,
    generative: bool = False,
) -> Validity:
    """Every one of `gates` over `bench` (records: for the same-answer gate; None skips it):
    a pure function of its arguments."""
    flags: list[ValidityFlag] = []
    if bench.n_samples == 0:
        flags.append(ValidityFlag(gate="excluded", severity="fail", message="no samples"))
    elif bench.n_excluded / bench.n_samples > gates.max_excluded_share:
        share = bench.n_excluded / bench.n_samples
        message = (
            f"{bench.n_excluded} of {bench.n_samples} samples excluded "
            f"({pct(share)} > {pct(gates.max_excluded_share)})"
        )
        flags.append(ValidityFlag(gate="excluded", severity="fail", message=message))
    if records is not None:
        outcomes, answers = _count(records, gates)
        total = sum(outcomes.values())
        found = rate_reason({k: v / total for k, v in outcomes.items()}, gates) if total else None
        if found:
            flags.append(ValidityFlag(gate=found[0], severity="fail", message=found[1]))
        if flag := _same_answer(answers, gates):
            flags.append(flag)
    if flag := _readers_disagree(bench, gates):
        flags.append(flag)
    if gates.extra is not None:
        flags += gates.extra(bench)
    if chat_as_transcript and generative:
        message = "base model without a chat template: chat prompts rendered as a transcript"
        flags.append(ValidityFlag(gate="transcript", severity="warn", message=message))
    gated = [
        m
        for m in bench.metrics
        if (gates.metrics is None or m.name in gates.metrics) and m.name not in gates.exempt
    ]
    for metric in gated:
        flags += _metric_flags(metric, gates)
    undefined = {m.name for m in gated if m.value is None}
    status = _status(flags, [m.name for m in gated], undefined)
    return Validity(status=status, flags=flags)  # type: ignore[arg-type]


def _status(flags: list[ValidityFlag], metrics: list[str], undefined: set[str]) -> str:
    fails = [f for f in flags if f.severity == "fail"]
    if any(f.metric is None for f in fails):
        return "not measurable"
    failed = {f.metric for f in fails}
    if metrics and failed | undefined >= set(metrics):
        return "not measurable"
    return "partly measurable" if failed else "measurable"


def generative_records(records: Iterable[SampleRecord]) -> bool:
    """Whether any stored exchange is a generation (for runs checked after the fact)."""
    for record in records:
        for exchange in record.exchanges:
            return exchange.request.kind == "generate"
    return False


def validity_of(bench: BenchmarkResult) -> Validity:
    """The recorded validity, or the gates checked now on the results alone (older runs)."""
    if bench.validity is not None:
        return bench.validity
    return check(bench, None, benchmark_profile(bench.benchmark).gates)
