"""STOP's downstream protocol as a benchmark: BBQ, StereoSet and CrowS-Pairs items posed as
multiple-choice questions to a chat model (spec STOP.md §5; see `protocol` and `prompts`).

One sample per item, one chat request per sample. Per-sample scores (percent scale; None =
not counted): ``answered`` / ``refused`` / ``critiqued`` / ``unparsed`` (100 or 0), and
``correct`` (100 or 0, answered items only). Metrics: ``answer_rate``, ``refusal_rate``,
``critique_rate``, ``unparsed_rate`` and ``performance`` (accuracy among answered items), by
task and task+category. The relative change between two models is the ``compare`` analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.stop_downstream import protocol
from biasaudit.benchmarks.stop_downstream.prompts import TEMPLATE_IDS
from biasaudit.datasets.crows_pairs import CROWS_PAIRS_KEY, load_crows_pairs
from biasaudit.datasets.stereoset import STEREOSET_KEY, load_stereoset
from biasaudit.metrics.frame import MetricSpec
from biasaudit.multiple_choice import LETTERS
from biasaudit.requests import (
    AnswerMode,
    Capability,
    GenerateRequest,
    GenerationParams,
    Message,
    Request,
)
from biasaudit.results.schema import Exchange

Task = Literal["bbq", "stereoset", "crows_pairs"]
REFERENCE = "Morabito et al. 2024 (STOP), §4 Fine-tuning and App. A.5; spec STOP.md §5"
BY = ["task", "task+category"]


class ReplyScores(extraction.CheckScores):
    """The scores of one answered-or-not item (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    reply: str
    answered: float
    refused: float
    critiqued: float
    unparsed: float
    choice: str | None
    correct: float | None
    #: Why the reply was not read as an answer (the answer reader's reason code), else None.
    reason: str | None = None


def _default_tasks() -> list[Task]:
    return ["stereoset", "crows_pairs"]


class DownstreamOptions(BenchmarkOptions):
    """Options of the stop_downstream benchmark (``-O key=value``)."""

    tasks: list[Task] = Field(default_factory=_default_tasks)
    #: At most this many items per task, evenly spaced through the file (deterministic);
    #: None keeps every item.
    per_task: int | None = Field(default=None, ge=1)
    max_tokens: int = Field(default=48, ge=1)
    #: "free" (the paper's free reply) or "constrained" (exactly one option letter)
    answer_mode: AnswerMode = "free"

    @field_validator("tasks")
    @classmethod
    def _distinct_tasks(cls, tasks: list[Task]) -> list[Task]:
        if not tasks:
            raise ValueError("name at least one task (stereoset, crows_pairs, bbq)")
        twice = sorted({t for t in tasks if tasks.count(t) > 1})
        if twice:
            raise ValueError(f"task(s) listed twice: {', '.join(twice)}")
        return tasks


def evenly_spaced(n_total: int, n: int | None) -> list[int]:
    """`n` indices spread evenly over range(n_total) (all of them when n is None or larger)."""
    if n is None or n >= n_total:
        return list(range(n_total))
    return [(k * n_total) // n for k in range(n)]


def _rate(name: str, score: str, description: str) -> MetricSpec:
    return MetricSpec(
        name=name,
        score=score,
        group_by=BY,
        description=description,
        reference=REFERENCE,
        scale=100.0,  # 0/100 flags: Wilson in percent even when every flag is 0
    )


def sample_of(item: protocol.DownstreamItem) -> Sample:
    """The sample of one item (a BBQ item's unknown option and question are derived again
    from its options and prompt when it is scored: protocol.with_bbq_declaration)."""
    return Sample(
        id=f"{item.task}:{item.item_id}",
        data={
            "task": item.task,
            "item_id": item.item_id,
            "prompt": item.prompt,
            "options": list(item.options),
            "labels": list(item.labels),
            "correct": list(item.correct),
        },
        groups={"task": item.task, "category": item.category},
    )


class StopDownstream(Benchmark):
    name: ClassVar[str] = "stop_downstream"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = (
        "STOP's downstream protocol: answer rate and task performance of a chat model on "
        "BBQ, StereoSet and CrowS-Pairs posed as multiple-choice questions"
    )
    Options = DownstreamOptions
    Scores = ReplyScores
    metrics: ClassVar[Sequence[MetricSpec]] = (
        _rate("answer_rate", "answered", "% of items where the reply chose an option"),
        _rate("refusal_rate", "refused", "% of items where the reply refused"),
        _rate("critique_rate", "critiqued", "% of items where the reply criticised the inputs"),
        _rate("unparsed_rate", "unparsed", "% of items with an empty or unreadable reply"),
        _rate(
            "performance",
            "correct",
            "% correct among answered items (BBQ: gold answer; StereoSet: a related option; "
            "CrowS-Pairs: the less biased sentence)",
        ),
    )

    options: DownstreamOptions

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        keys = {
            "stereoset": [STEREOSET_KEY],
            "crows_pairs": [CROWS_PAIRS_KEY],
            "bbq": protocol.bbq_data_keys() if "bbq" in self.options.tasks else [],
        }
        return [key for task in self.options.tasks for key in keys[task]]

    def prompt_template_ids(self) -> list[str]:
        return [TEMPLATE_IDS[task] for task in self.options.tasks]

    def _items(self) -> list[protocol.DownstreamItem]:
        items: list[protocol.DownstreamItem] = []
        for task in self.options.tasks:
            if task == "stereoset":
                ss = load_stereoset(self.store)
                chosen = [ss[i] for i in evenly_spaced(len(ss), self.options.per_task)]
                items += [protocol.stereoset_item(item, self.seed) for item in chosen]
            elif task == "crows_pairs":
                cp = load_crows_pairs(self.store)
                pairs = [cp[i] for i in evenly_spaced(len(cp), self.options.per_task)]
                items += [protocol.crows_pairs_item(pair, self.seed) for pair in pairs]
            else:
                items += protocol.bbq_items(self.store, self.options.per_task, self.seed)
        return items

    def load_samples(self) -> list[Sample]:
        return [sample_of(item) for item in self._items()]

    def expected_requests(self, sample: Sample) -> int | None:
        return 2 if self.options.answer_mode == "extract" else 1

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        n_options = len(sample.data["options"])
        if exchanges:
            if self.options.answer_mode != "extract":
                return []
            return list(extraction.extract_round(exchanges, 1, LETTERS[:n_options]))
        constrained = self.options.answer_mode == "constrained"
        return [
            GenerateRequest(
                messages=(Message(role="user", content=sample.data["prompt"]),),
                params=GenerationParams(temperature=0.0, max_tokens=self.options.max_tokens),
                # the letters the prompt names (multiple_choice.instruction)
                choices=tuple(LETTERS[:n_options]) if constrained else None,
            )
        ]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        data: dict[str, Any] = sample.data
        item = protocol.DownstreamItem(
            task=data["task"],
            item_id=data["item_id"],
            prompt=data["prompt"],
            options=tuple(data["options"]),
            labels=tuple(data["labels"]),
            correct=tuple(data["correct"]),
            category=sample.groups["category"],
        )
        if item.task == "bbq":  # the reader needs the unknown option and the question
            item = protocol.with_bbq_declaration(item)
        response = exchanges[0].response
        if not response.ok:
            return SampleScore(outcomes=["error"], excluded=True, exclusion_reason=response.error)
        outcome, scores = protocol.score_reply(item, response)
        if self.options.answer_mode == "extract":
            picked = extraction.extracted(exchanges, 1)
            index = LETTERS.index(picked) if picked is not None else None
            chosen = item.labels.index(scores["choice"]) if scores["choice"] is not None else None
            scores |= extraction.check_scores(chosen, index)
        return SampleScore(outcomes=[outcome], scores=scores)
