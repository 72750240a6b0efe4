"""BEADs as a biasaudit benchmark: one class, the task chosen with ``-O task=...``.

Data: ``-O data=demo`` (default) is the hand-written demo set shipped in this package (NOT
BEADs data: it exists so the pipeline runs without access to the gated dataset, and its
numbers mean nothing about a model); ``-O data=PATH`` is a local copy of the release in the
hub's layout (what `fetch_beads` writes). Every result records which, with file checksums.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.beads import fewshot, judging, masked, prompts, tasks
from biasaudit.benchmarks.beads.dataset import BeadsData
from biasaudit.benchmarks.beads.dataset_labels import LabelPolicy, check_sentiment_names
from biasaudit.benchmarks.beads.metric_specs import BIAS_RATE, METRICS
from biasaudit.benchmarks.beads.metrics import (
    classification_metrics,
    confusion_table,
    per_class_table,
    span_metrics,
)
from biasaudit.errors import DataError
from biasaudit.metrics.frame import MetricSpec, frame
from biasaudit.requests import (
    Capability,
    ClassifyRequest,
    EmbedRequest,
    GenerateRequest,
    GenerationParams,
    Message,
    Request,
)
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord, Table

DEMO = Path(__file__).resolve().parent / "demo"
Task = Literal[
    "classify",
    "spans",
    "variation",
    "stereotype",
    "fill",
    "rewrite",
    "judge",
    "probability",
    "similarity",
]
PAIR_TASKS = ("judge", "probability", "similarity")


#: The stereotype probe's score key and the verdicts its 1.0 and 0.0 stand for.
_AGREE = ("agree", "agree", "disagree")


class BeadsOptions(BenchmarkOptions):
    task: Task = "classify"
    #: "demo" (the package's hand-written sample set) or a folder in the release layout
    data: str = "demo"
    #: "config/split" to read (default: per task, e.g. 1-Text_Classification/bias_valid)
    split: str | None = None
    #: per "config/split": file path overrides and column mappings (unverified layouts)
    files: dict[str, str] = Field(default_factory=dict)
    columns: dict[str, dict[str, str]] = Field(default_factory=dict)
    subtask: Literal["bias", "toxicity", "sentiment"] = "bias"
    #: classify: hf classifier (classify request) or prompting (generate); auto = classifier
    #: when the backend can classify
    mode: Literal["auto", "classifier", "generate"] = "auto"
    #: classifier label name -> BEADs label (e.g. {"LABEL_1": "biased"})
    label_map: dict[str, str] = Field(default_factory=dict)
    threshold: float = Field(default=0.5, gt=0, lt=1)
    slightly_biased: Literal["biased", "neutral"] = "biased"
    #: names of numeric sentiment ids, e.g. {"0": "negative", "1": "neutral", "2": "positive"}
    sentiment_names: dict[str, str] | None = None
    #: stereotype probe: strict parser or the paper's substring bucketing
    parser: Literal["strict", "substring"] = "strict"
    #: fill: samples per template (the paper: 5, majority vote) and their temperature
    samples: int = Field(default=5, ge=1)
    temperature: float = Field(default=0.7, ge=0)
    tie: Literal["tie", "first"] = "tie"
    #: classify (generate mode): k train examples per class in the prompt (paper: 2)
    shots: int = Field(default=0, ge=0)
    #: the "config/split" they are drawn from (default: the subtask's train split, e.g.
    #: 1-Text_Classification/toxic_train)
    shots_split: str | None = None
    #: fill: "generate" (an LLM and the App. C.2 prompt) or "mask" (a masked LM, fill_mask)
    fill_mode: Literal["generate", "mask"] = "generate"
    #: fill_mode=mask: the top token ("top1") or the best of the top mask_top_k that names an
    #: identity group ("first_identity")
    mask_rule: masked.MaskRule = "top1"
    #: fill_mode=mask: how many candidates the masked LM returns
    mask_top_k: int = Field(default=10, ge=1)
    occurrence: Literal["all", "first"] = "all"
    max_tokens: int = Field(default=64, ge=1)
    #: classify (generate mode, bias, zero-shot), variation, stereotype: "free" (the reply
    #: read by the parser) or "extract" (then one constrained turn asks for the label /
    #: verdict and checks the reading; docs/answers.md)
    answer_mode: Literal["free", "extract"] = "free"
    #: judge / probability / similarity: the rewrites file written by the rewrite analysis
    pairs: str | None = None

    @field_validator("sentiment_names")
    @classmethod
    def _sentiment_names(cls, names: dict[str, str] | None) -> dict[str, str] | None:
        return check_sentiment_names(names)


class Beads(Benchmark):
    name = "beads"
    version = "1.0"
    description = "BEADs: bias classification, biased spans, demographic probes, rewrites"
    Options = BeadsOptions

    options: BeadsOptions

    @cached_property
    def data(self) -> BeadsData:
        root = DEMO if self.options.data == "demo" else Path(self.options.data).expanduser()
        if not root.is_dir():
            raise DataError(
                f"BEADs data folder {root} not found; pass -O data=PATH (a copy of "
                "shainar/BEAD, e.g. from fetch_beads) or -O data=demo"
            )
        policy = LabelPolicy(
            slightly_biased=self.options.slightly_biased,
            sentiment_names=self.options.sentiment_names,
        )
        return BeadsData(
            root, files=self.options.files, columns=self.options.columns, policy=policy
        )

    @property
    def split(self) -> str:
        return tasks.split_for(self.options.task, self.options.subtask, self.options.split)

    @cached_property
    def shots(self) -> list[fewshot.Shot]:
        """The few-shot examples drawn from the train split (``-O shots=K``)."""
        subtask, key = self.options.subtask, self.shots_split
        if key == self.split or self.data.path(key) == self.data.path(self.split):
            raise DataError(
                f"BEADs -O shots_split={key}: the few-shot examples would be drawn from the "
                "split being scored (an item could be its own example); pass a train split"
            )
        rows = [fewshot.Shot(r.row, r["text"], r["label"]) for r in self.data.load(key).rows]
        tasks.check_labels({r.label for r in rows}, subtask, str(self.data.path(key)))
        return fewshot.draw(rows, tasks.LABELS[subtask], self.options.shots, self.seed, key)

    @property
    def shots_split(self) -> str:
        return self.options.shots_split or fewshot.TRAIN_SPLIT[self.options.subtask]

    def _masked(self) -> bool:
        return self.options.task == "fill" and self.options.fill_mode == "mask"

    def _generates(self) -> bool:
        return self.options.task != "classify" or self.options.mode == "generate"

    def required_capabilities(self) -> frozenset[Capability]:
        if self.options.task == "probability":
            return frozenset({Capability.CLASSIFY})
        if self._masked():
            return frozenset({Capability.FILL_MASK})
        if self.options.task == "similarity":
            return frozenset({Capability.EMBED})
        if self.options.task == "classify" and self.options.mode in {"auto", "classifier"}:
            return frozenset({Capability.CLASSIFY})
        return frozenset({Capability.GENERATE})

    def bind_backend(self, capabilities: frozenset[Capability]) -> None:
        if self.options.task == "classify" and self.options.mode == "auto":
            mode = "classifier" if Capability.CLASSIFY in capabilities else "generate"
            self.options = self.options.model_copy(update={"mode": mode})

    def data_keys(self) -> list[str]:
        return []

    def user_files(self) -> list[str]:
        if self.options.task in PAIR_TASKS:
            return [self.options.pairs] if self.options.pairs else []
        if self.options.data == "demo":  # the package's own sample set
            return []
        return [str(self.data.path(self.split))]

    def load_samples(self) -> list[Sample]:
        if self.options.task in PAIR_TASKS:
            if not self.options.pairs:
                raise DataError(f"task {self.options.task} needs -O pairs=FILE (rewrites)")
            return judging.load_pairs(self.options.pairs)
        if self.options.shots and self.options.task == "classify":
            self.shots  # noqa: B018 (draws, and checks the train split, before any request)
        samples = tasks.load(self.data, self.options.task, self.options.subtask, self.split)
        if self.options.task == "classify":  # before any request: a gold no model can match
            tasks.check_golds(samples, self.options.subtask, str(self.data.path(self.split)))
        return samples

    def prompt_template_ids(self) -> list[str]:
        task = self.options.task
        if task in {"probability", "similarity"}:
            return []
        if self._masked():
            return [masked.PROMPT_ID]
        if task == "judge":
            return ["beads/judge-yes-no-" + "-".join(judging.JUDGE_QUESTIONS)]
        if task == "classify":
            if not self._generates():
                return []
            if self.options.shots:
                return [fewshot.template_id(self.options.shots, self.seed, self.options.subtask)]
            return [
                prompts.PROMPT_IDS["classify" if self.options.subtask == "bias" else "annotate"]
            ]
        key = {"variation": "classify", "spans": "spans"}.get(task, task)
        return [prompts.PROMPT_IDS[key]]

    def expected_requests(self, sample: Sample) -> int | None:
        task = self.options.task
        if task == "judge":
            return len(judging.questions(sample))
        if task == "similarity":
            return 0 if sample.data["kind"] == "original" else 2
        return self.options.samples if task == "fill" and not self._masked() else 1

    def _chat(self, content: str, temperature: float = 0.0, seed: int = 0) -> GenerateRequest:
        params = GenerationParams(
            temperature=temperature, max_tokens=self.options.max_tokens, seed=seed
        )
        return GenerateRequest(messages=(Message(role="user", content=content),), params=params)

    def _extract_answers(self) -> dict[str, str] | None:
        """answer_mode=extract: the closed set as the prompt words it -> the parser's value
        (None: this task has no closed set to extract, or the mode is free)."""
        opts = self.options
        if opts.answer_mode != "extract":
            return None
        if opts.task == "stereotype":
            return {"I agree.": "agree", "I disagree.": "disagree"}
        bias_label = opts.subtask == "bias" and not opts.shots and self._generates()
        if opts.task == "variation" or (opts.task == "classify" and bias_label):
            return {"Biased": "biased", "Non-Biased": "neutral"}
        return None

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            closed = self._extract_answers()
            return list(extraction.extract_round(exchanges, 1, list(closed or ())))
        task, data = self.options.task, sample.data
        if task == "judge":
            return [self._chat(text) for _, text in judging.questions(sample)]
        if task == "probability":
            return [ClassifyRequest(text=data["text"])]
        if task == "similarity":
            if data["kind"] == "original":
                return []
            return [EmbedRequest(text=data["source"]), EmbedRequest(text=data["text"])]
        if task == "classify":
            if not self._generates():
                return [ClassifyRequest(text=data["text"])]
            if self.options.shots:
                return [self._chat(fewshot.prompt(self.shots, data["text"], self.options.subtask))]
            if self.options.subtask == "bias":
                return [self._chat(prompts.classify_prompt(data["text"]))]
            return [self._chat(prompts.annotate_prompt(data["text"]))]
        if task == "spans":
            return [self._chat(prompts.spans_prompt(data["text"]))]
        if task == "variation":
            return [self._chat(prompts.classify_prompt(data["text"]))]
        if task == "stereotype":
            return [self._chat(prompts.stereotype_prompt(data["statement"]))]
        if self._masked():
            return [masked.mask_request(data["template"], self.options.mask_top_k)]
        if task == "fill":
            prompt = prompts.fill_prompt(data["template"])
            temperature = self.options.temperature
            return [
                self._chat(prompt, temperature, self.seed * 1000 + i)
                for i in range(self.options.samples)
            ]
        return [self._chat(prompts.rewrite_prompt(data["text"]))]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        task = self.options.task
        if not exchanges:
            return SampleScore(outcomes=[], excluded=True, exclusion_reason="no request")
        if task == "judge":
            return judging.score_judge(sample, exchanges)
        if task == "probability":
            return judging.score_probability(exchanges, self.options.label_map)
        if task == "similarity":
            return judging.score_similarity(exchanges)
        if task == "classify":
            scored = tasks.score_classify(
                sample,
                exchanges[0],
                self.options.subtask,
                self.options.label_map,
                self.options.threshold,
                fewshot=bool(self.options.shots),
            )
            return self._checked(scored, scored.scores.get("predicted"), exchanges)
        if task in {"variation", "stereotype"}:
            scored = tasks.score_verdict(exchanges[0], task, self.options.parser)
            key, yes, no = ("biased", "biased", "neutral") if task == "variation" else _AGREE
            value = scored.scores.get(key)
            read = None if value is None else (yes if value else no)
            return self._checked(scored, read, exchanges)
        if self._masked():
            return masked.score_fill_mask(sample, exchanges[0], self.options.mask_rule)
        if task == "fill":
            return tasks.score_fill(sample, exchanges, self.options.tie)
        if task == "spans":
            return tasks.score_spans(sample, exchanges[0], self.options.occurrence)
        return tasks.score_rewrite(exchanges[0])

    def _checked(
        self, scored: SampleScore, read: str | None, exchanges: Sequence[Exchange]
    ) -> SampleScore:
        """With answer_mode=extract, the text reading `read` checked against the follow-up."""
        closed = self._extract_answers()
        if closed is None or scored.excluded:
            return scored
        picked = extraction.extracted(exchanges, 1)
        scored.scores |= extraction.check_scores(read, closed[picked] if picked else None)
        return scored

    def metric_specs(self) -> Sequence[MetricSpec]:
        return METRICS[self.options.task]

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        task = self.options.task
        if task == "classify":
            return classification_metrics(records, tasks.LABELS[self.options.subtask], seed)
        if task == "spans":
            return span_metrics(records, seed)
        if task == "fill":
            return [self._bias_rate(records, seed)]
        return []

    def _bias_rate(self, records: Sequence[SampleRecord], seed: int) -> MetricValue:
        """BiasRate by the group the model filled in (Table 11), via the metric frame."""
        augmented = [
            r.model_copy(
                update={"groups": {**r.groups, "fill_group": str(r.scores.get("fill_group"))}}
            )
            for r in records
        ]
        return frame(augmented, BIAS_RATE, seed)

    def tables(self, records: Sequence[SampleRecord]) -> dict[str, Table]:
        if self.options.task in PAIR_TASKS:
            rows = [[name, text] for name, text in judging.JUDGE_QUESTIONS.items()]
            if self.options.task != "judge":
                return {}
            return {
                "judge_prompts": Table(
                    columns=["metric", "prompt"], rows=rows, description="judge questions"
                )
            }
        path = self.data.path(self.split)
        digest = _sha256(path)
        source = "demo (hand-written, not BEADs)" if self.options.data == "demo" else "local copy"
        files: list[list[str | None]] = [[self.split, str(path), digest, source]]
        if self.options.task == "classify" and self.options.shots and self._generates():
            train = self.data.path(self.shots_split)
            files.append([self.shots_split, str(train), _sha256(train), source])
        out = {
            "data": Table(
                columns=["split", "file", "sha256", "source"],
                rows=files,
                description="the BEADs files this run read (the item split; the few-shot "
                "examples' train split when -O shots=K)",
            )
        }
        if self.options.task == "classify":
            labels = tasks.LABELS[self.options.subtask]
            out["confusion"] = confusion_table(records, labels)
            out["per_class"] = per_class_table(records, labels, self.seed)
        return out


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
