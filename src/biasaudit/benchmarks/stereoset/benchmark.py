"""StereoSet as a biasaudit benchmark: one sample per item (intrasentence and intersentence).

Scorers: ``loglikelihood`` (causal LMs), ``pll`` (masked LMs), ``generate`` (a chat model
picks one of the three options; strict reader, explicit outcomes), ``auto`` (loglikelihood
when served, else pll). See `prompts` for the requests and `scoring` for per-item scores.

Metrics: ``ss``, ``lms``, ``icat`` exactly as the authors' ``evaluation.py`` (macro over
target terms, iCAT from the averages), overall, per split, per domain and per split+domain,
with item-bootstrap CIs; ``icat_term_mean`` (the per-term iCAT mean ``evaluation.py`` computes
and does not print); the micro variants ``ss_micro`` / ``lms_micro`` (per-item means, with
the permutation noise floor of the domain gap) and ``icat_micro``; in generative mode
``coverage``, the share of items whose reply chose an option. No scored item gives None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Literal

from pydantic import Field

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.stereoset import metrics as ss_metrics
from biasaudit.benchmarks.stereoset.prompts import (
    LABELS,
    TEMPLATE_ID,
    loglikelihood_requests,
    mc_request,
    option_texts,
    pll_requests,
)
from biasaudit.benchmarks.stereoset.scoring import (
    ItemScoreFields,
    Normalise,
    score_choice,
    score_options,
)
from biasaudit.data import DataStore
from biasaudit.datasets.stereoset import (
    SPLITS,
    STEREOSET_KEY,
    Split,
    StereoSetItem,
    StereoSetSentence,
    load_stereoset,
)
from biasaudit.metrics.frame import MetricSpec, StatisticSpec, frame
from biasaudit.multiple_choice import LETTERS, option_order
from biasaudit.requests import Capability, Request
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord

Scorer = Literal["auto", "loglikelihood", "pll", "generate"]
CAPABILITY = {
    "loglikelihood": Capability.LOGLIKELIHOOD,
    "pll": Capability.PSEUDO_LOGLIKELIHOOD,
    "generate": Capability.GENERATE,
}
REFERENCE = "Nadeem et al. 2021, §5; moinnadeem/StereoSet code/evaluation.py"
BREAKDOWNS = ["split", "bias_type", "split+bias_type"]


class StereoSetOptions(BenchmarkOptions):
    """Options of the StereoSet benchmark (``-O key=value``)."""

    scorer: Scorer = "auto"
    splits: list[Split] = Field(default_factory=lambda: list(SPLITS))
    #: Option score for (pseudo-)log-likelihood: per-token mean, or the sum.
    normalise: Normalise = "mean"
    #: Generative mode: reply length.
    max_tokens: int = Field(default=48, ge=1)
    #: Generative mode: "free" (the reply read by the parser) or "extract" (then one
    #: constrained turn asks for the option letter and checks the reading; docs/answers.md)
    answer_mode: Literal["free", "extract"] = "free"


def item_sample(item: StereoSetItem) -> Sample:
    return Sample(
        id=item.id,
        data={
            "split": item.split,
            "target": item.target,
            "bias_type": item.bias_type,
            "context": item.context,
            **{label: [s.id, s.text] for label, s in item.by_label().items()},
        },
        groups={"bias_type": item.bias_type, "split": item.split},
    )


def sample_item(sample: Sample) -> StereoSetItem:
    data = sample.data
    sentence = {label: StereoSetSentence(*data[label]) for label in LABELS}
    return StereoSetItem(
        id=sample.id,
        split=data["split"],
        target=data["target"],
        bias_type=data["bias_type"],
        context=data["context"],
        stereotype=sentence["stereotype"],
        anti_stereotype=sentence["anti-stereotype"],
        unrelated=sentence["unrelated"],
    )


def _item_scores(record: SampleRecord) -> ss_metrics.ItemScores | None:
    scores = record.scores
    if record.excluded or scores.get("stereotype") is None:
        return None
    # every scored item records `related` with its option scores (scoring.py, both modes):
    # 100 x comparisons won / 2
    return ss_metrics.ItemScores(
        record.data["target"],
        scores["stereotype"],
        scores["anti_stereotype"],
        scores["unrelated"],
        related=scores["related"] / 50.0,
    )


def _statistic(
    items: Sequence[ss_metrics.ItemScores | None], name: str, micro: bool
) -> Callable[[Sequence[int]], float | None]:
    """A StereoSet score of the items at some record indices (for the bootstrap)."""

    def statistic(indices: Sequence[int]) -> float | None:
        chosen = [item for item in (items[i] for i in indices) if item is not None]
        counts = ss_metrics.count_terms(chosen)
        scores = ss_metrics.micro_scores(counts) if micro else ss_metrics.macro_scores(counts)
        value: float | None = getattr(scores, name)
        return value

    return statistic


#: (metric, StereoSetScores field, micro?, description, higher_is_better)
EXTRA = (
    ("ss", "ss", False, "stereotype score, mean over target terms; 50 = ideal", None),
    ("lms", "lms", False, "language modeling score, mean over target terms", True),
    ("icat", "icat", False, "lms · min(ss, 100 − ss) / 50 from the term means", True),
    ("icat_term_mean", "icat_term_mean", False, "mean of per-term iCATs", True),
    ("icat_micro", "icat", True, "iCAT from the pooled (micro) ss and lms", True),
)


class StereoSet(Benchmark):
    name: ClassVar[str] = "stereoset"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = (
        "StereoSet: stereotype score, language modeling score and iCAT (Nadeem et al., ACL 2021)"
    )
    Options = StereoSetOptions
    Scores = ItemScoreFields
    metrics: ClassVar[Sequence[MetricSpec]] = (
        MetricSpec(
            name="ss_micro",
            score="pro",
            group_by=BREAKDOWNS,
            noise_floor=True,
            description="% of items whose stereotype scores above the anti-stereotype "
            "(ties: anti), all items pooled; 50 = ideal",
            reference=REFERENCE,
            scale=100.0,
        ),
        MetricSpec(
            name="lms_micro",
            score="related",
            group_by=BREAKDOWNS,
            higher_is_better=True,
            description="% of (related option, unrelated option) comparisons won by the "
            "related option, all items pooled; 100 = ideal",
            reference=REFERENCE,
        ),
    )

    options: StereoSetOptions

    def __init__(self, options: BenchmarkOptions, store: DataStore, seed: int = 0) -> None:
        super().__init__(options, store, seed)
        self.scorer: str = self.options.scorer

    def bind_backend(self, capabilities: frozenset[Capability]) -> None:
        if self.options.scorer != "auto":
            return
        has_ll = Capability.LOGLIKELIHOOD in capabilities
        self.scorer = (
            "pll"
            if Capability.PSEUDO_LOGLIKELIHOOD in capabilities and not has_ll
            else "loglikelihood"
        )
        # results record the scorer that ran, not "auto" (the statistics differ)
        self.options = self.options.model_copy(update={"scorer": self.scorer})

    def _resolved(self) -> str:
        return "loglikelihood" if self.scorer == "auto" else self.scorer

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({CAPABILITY[self._resolved()]})

    def data_keys(self) -> list[str]:
        return [STEREOSET_KEY]

    def prompt_template_ids(self) -> list[str]:
        return [TEMPLATE_ID] if self._resolved() == "generate" else []

    def load_samples(self) -> list[Sample]:
        return [item_sample(item) for item in load_stereoset(self.store, self.options.splits)]

    def expected_requests(self, sample: Sample) -> int | None:
        if self._resolved() == "generate":
            return 2 if self.options.answer_mode == "extract" else 1
        return 3

    def _shown(self, item: StereoSetItem) -> tuple[list[str], list[int]]:
        order = option_order(item.id, 3, self.seed)
        texts = option_texts(item)
        return [texts[i] for i in order], order

    def _extracting(self) -> bool:
        return self._resolved() == "generate" and self.options.answer_mode == "extract"

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            if not self._extracting():
                return []
            return list(extraction.extract_round(exchanges, 1, LETTERS[: len(LABELS)]))
        item = sample_item(sample)
        scorer = self._resolved()
        if scorer == "generate":
            options, _ = self._shown(item)
            return [mc_request(item, options, self.options.max_tokens)]
        if scorer == "loglikelihood":
            return [*loglikelihood_requests(item)]
        return [*pll_requests(item)]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        item = sample_item(sample)
        responses = [e.response for e in exchanges]
        if exchanges and exchanges[0].request.kind == "generate":
            options, order = self._shown(item)
            scored = score_choice(item.target, responses[0], options, order)
            if self._extracting() and not scored.excluded:
                picked = extraction.extracted(exchanges, 1)
                label = LABELS[order[LETTERS.index(picked)]] if picked is not None else None
                scored.scores |= extraction.check_scores(scored.scores["choice"], label)
            return scored
        return score_options(item.target, responses, self.options.normalise)

    def metric_specs(self) -> Sequence[MetricSpec]:
        specs = list(self.metrics)
        if self._resolved() == "generate":
            specs.append(
                MetricSpec(
                    name="coverage",
                    score="answered",
                    group_by=BREAKDOWNS,
                    description="share of items whose reply chose one of the three options",
                    scale=100.0,
                )
            )
        return specs

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        items = [_item_scores(record) for record in records]
        n_excluded = sum(1 for item in items if item is None)
        return [
            frame(
                records,
                StatisticSpec(
                    name,
                    _statistic(items, field, micro),
                    statistic_name=f"stereoset_{name}",
                    group_by=BREAKDOWNS,
                    description=description,
                    higher_is_better=better,
                    reference=REFERENCE,
                    n_excluded=n_excluded,
                ),
                seed,
            )
            for name, field, micro, description, better in EXTRA
        ]
