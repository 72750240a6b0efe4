"""Generating context-addition points (Fig. 3) and context-added versions (Fig. 6).

Both are run-engine jobs (see `jobs`): any backend that serves `generate` works, requests are
batched and cached, and every setting is recorded in the output.

- `PointsTask`: one statement -> a template with ``___`` blanks. The answer is validated (at
  least one blank; removing the blanks gives back the statement) and, when invalid, asked
  again with sampling (another seed) up to `max_attempts` times.
- `ContextsTask`: one template -> `n_generate` infilled versions (temperature 1.4, top-p 0.9,
  128 tokens by default, as the paper), each sampled with its own seed; optionally shuffled
  with a seed and truncated to `n_keep` (the authors generated 60 and kept 35).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from biasaudit.benchmarks import Aggregate, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.cobias.data import Statement
from biasaudit.benchmarks.cobias.jobs import StatementJob
from biasaudit.benchmarks.cobias.prompts import (
    CONTEXT_PROMPT_IDS,
    POINTS_PROMPT_ID,
    context_prompt,
    points_messages,
)
from biasaudit.benchmarks.cobias.templates import (
    clean_version,
    count_blanks,
    normalize_blanks,
    template_problems,
    unchanged,
)
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.metrics import outcome_rates
from biasaudit.requests import Capability, GenerateRequest, GenerationParams, Request
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord

# -- context-addition points ----------------------------------------------------------------


class PointsOptions(BenchmarkOptions):
    shots: int = Field(
        default=3, ge=0, description="worked examples (statement -> released template) shown"
    )
    temperature: float = Field(
        default=0.0, ge=0.0, le=2.0, description="first attempt's temperature (0: greedy)"
    )
    max_attempts: int = Field(
        default=3, ge=1, description="attempts per statement; invalid answers are retried"
    )
    retry_temperature: float = Field(
        default=0.7, gt=0.0, le=2.0, description="temperature of retries (new seed each)"
    )
    max_tokens: int = Field(default=128, ge=1, description="tokens per answer")


def parse_points(text: str) -> str:
    """The template in a model's answer: first non-empty line, wrapper quotes and an
    "Output:" label removed, blank variants written as ``___``."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    first = re.sub(r"^(example\s+)?output\s*:\s*", "", first, flags=re.IGNORECASE)
    first = first.strip().strip("\"“”'")
    return normalize_blanks(first)


def points_problems(template: str, statement: str) -> list[str]:
    """Why an answer is not a valid template for `statement` (empty when it is)."""
    return template_problems(template, statement)


def pick_shots(
    examples: Sequence[Statement], exclude: str, k: int, seed: int
) -> list[tuple[str, str]]:
    """k released (statement, template) pairs whose template is clean, chosen by seed and
    never the statement itself."""
    clean = [
        e
        for e in examples
        if e.sentence != exclude
        and e.context_points
        and not points_problems(e.context_points, e.sentence)
    ]
    if k == 0 or not clean:
        return []
    rng = np.random.RandomState(seed)
    picks = rng.choice(len(clean), size=min(k, len(clean)), replace=False)
    return [(clean[i].sentence, clean[i].context_points) for i in sorted(picks)]


class PointsTask(StatementJob):
    name: ClassVar[str] = "cobias-points"
    version: ClassVar[str] = "1.0"
    capability = Capability.GENERATE
    Options = PointsOptions
    options: PointsOptions

    def __init__(
        self,
        options: BenchmarkOptions,
        store: DataStore,
        seed: int,
        statements: Sequence[Statement],
        examples: Sequence[Statement],
    ) -> None:
        super().__init__(options, store, seed, statements)
        self.examples = list(examples)

    def prompt_template_ids(self) -> list[str]:
        return [POINTS_PROMPT_ID]

    def load_samples(self) -> list[Sample]:
        return [
            Sample(
                id=s.id,
                data={
                    "sentence": s.sentence,
                    "target_term": s.target_term,
                    "shots": pick_shots(self.examples, s.sentence, self.options.shots, self.seed),
                },
            )
            for s in self.statements
        ]

    def _valid(self, exchange: Exchange, sentence: str) -> bool:
        text = exchange.response.text
        return (
            exchange.response.ok
            and text is not None
            and not points_problems(parse_points(text), sentence)
        )

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        sentence = sample.data["sentence"]
        if not sentence:
            return []
        if exchanges and (
            self._valid(exchanges[-1], sentence) or len(exchanges) >= self.options.max_attempts
        ):
            return []
        attempt = len(exchanges)
        params = GenerationParams(
            temperature=self.options.temperature
            if attempt == 0
            else self.options.retry_temperature,
            top_p=1.0,
            max_tokens=self.options.max_tokens,
            seed=self.seed + attempt,
        )
        shots = [tuple(pair) for pair in sample.data["shots"]]
        return [GenerateRequest(messages=points_messages(sentence, shots), params=params)]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        sentence = sample.data["sentence"]
        if not sentence:
            return SampleScore(excluded=True, exclusion_reason="empty")
        last = exchanges[-1]
        if not last.response.ok or last.response.text is None:
            return SampleScore(
                outcomes=["error"],
                scores={"template": "", "problems": ["error"]},
                excluded=True,
                exclusion_reason=f"error: {last.response.error}",
            )
        template = parse_points(last.response.text)
        problems = points_problems(template, sentence)
        return SampleScore(
            outcomes=["unparsed" if problems else "answered"],
            scores={"template": template, "problems": problems, "attempts": len(exchanges)},
        )

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        valid = [r for r in records if not r.excluded and not r.scores.get("problems")]
        blanks = [count_blanks(r.scores["template"]) for r in valid]
        return Aggregate(
            metrics=[
                MetricValue(
                    name="valid_rate",
                    value=len(valid) / len(records) if records else None,
                    n=len(records),
                    description="templates with blanks whose text is otherwise unchanged",
                    outcome_rates=outcome_rates([o for r in records for o in r.outcomes]),
                ),
                MetricValue(
                    name="blanks_mean",
                    value=float(np.mean(blanks)) if blanks else None,
                    n=len(blanks),
                    description="blanks per valid template",
                ),
            ]
        )


# -- context-added versions -----------------------------------------------------------------


class ContextsOptions(BenchmarkOptions):
    """Generation settings; the defaults are the paper's (App. D, §5.3)."""

    n_generate: int = Field(default=35, ge=1, description="versions generated per statement")
    n_keep: int | None = Field(
        default=None,
        ge=1,
        description="keep this many after a seeded shuffle (the authors: 60 generated, 35 "
        "kept); unset keeps all in generation order",
    )
    shuffle_seed: int = Field(default=42, description="seed of that shuffle")
    temperature: float = Field(default=1.4, ge=0.0, le=2.0, description="sampling temperature")
    top_p: float = Field(default=0.9, gt=0.0, le=1.0, description="nucleus sampling mass")
    max_tokens: int = Field(default=128, ge=1, description="tokens per version")
    prompt_style: Literal["chat", "completion"] = Field(
        default="chat", description="Fig. 6 as one user turn, or as one completion prompt"
    )
    postprocess: Literal["reference", "first_line"] = Field(
        default="reference",
        description="reference: newlines removed (the authors); first_line: keep the first "
        "non-empty line (chat models that append explanations)",
    )

    @model_validator(mode="after")
    def _keep_at_most_generated(self) -> ContextsOptions:
        if self.n_keep is not None and self.n_keep > self.n_generate:
            raise ValueError(f"n_keep ({self.n_keep}) exceeds n_generate ({self.n_generate})")
        return self


def postprocess(text: str, mode: Literal["reference", "first_line"]) -> str:
    if mode == "first_line":
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        text = lines[0] if lines else ""
    return clean_version(text)


def version_flags(version: str, sentence: str) -> list[str]:
    """Per-version flags of spec §9: unchanged, still holds a blank, several sentences."""
    flags = []
    if unchanged(version, sentence):
        flags.append("unchanged_from_original")
    if count_blanks(version):
        flags.append("still_has_blank")
    if len(re.findall(r"[.!?](?:\s|$)", version)) > 1:
        flags.append("multi_sentence")
    return flags


class ContextsTask(StatementJob):
    name: ClassVar[str] = "cobias-contexts"
    version: ClassVar[str] = "1.0"
    capability = Capability.GENERATE
    Options = ContextsOptions
    options: ContextsOptions

    def prompt_template_ids(self) -> list[str]:
        return [CONTEXT_PROMPT_IDS[self.options.prompt_style]]

    def settings(self) -> dict[str, Any]:
        """Everything that shaped the versions, written next to them."""
        return self.options.model_dump(mode="json") | {
            "seed": self.seed,
            "do_sample": self.options.temperature > 0,
            "prompt_id": CONTEXT_PROMPT_IDS[self.options.prompt_style],
        }

    def load_samples(self) -> list[Sample]:
        return [
            Sample(id=s.id, data={"sentence": s.sentence, "template": s.context_points})
            for s in self.statements
        ]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        template = sample.data["template"]
        if exchanges or count_blanks(template) == 0:
            return []
        messages, prompt = context_prompt(template, self.options.prompt_style)
        return [
            GenerateRequest(
                messages=messages,
                prompt=prompt,
                params=GenerationParams(
                    temperature=self.options.temperature,
                    top_p=self.options.top_p,
                    max_tokens=self.options.max_tokens,
                    seed=self.seed + i,
                ),
            )
            for i in range(self.options.n_generate)
        ]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        if count_blanks(sample.data["template"]) == 0:
            return SampleScore(excluded=True, exclusion_reason="no_context_points")
        versions: list[str] = []
        outcomes: list[str] = []
        for exchange in exchanges:
            text = exchange.response.text
            if not exchange.response.ok or text is None:
                outcomes.append("error")
                continue
            cleaned = postprocess(text, self.options.postprocess)
            outcomes.append("answered" if cleaned else "unparsed")
            if cleaned:
                versions.append(cleaned)
        if self.options.n_keep is not None:
            rng = np.random.RandomState(self.options.shuffle_seed)
            rng.shuffle(versions)
            versions = versions[: self.options.n_keep]
        flags = [version_flags(v, sample.data["sentence"]) for v in versions]
        return SampleScore(outcomes=outcomes, scores={"versions": versions, "flags": flags})

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        done = [r for r in records if not r.excluded]
        flags = [f for r in done for fs in r.scores["flags"] for f in fs]
        total = sum(len(r.scores["versions"]) for r in done)

        def share(flag: str) -> MetricValue:
            return MetricValue(
                name=f"share_{flag}",
                value=flags.count(flag) / total if total else None,
                n=total,
                description=f"versions flagged {flag}",
            )

        return Aggregate(
            metrics=[
                MetricValue(
                    name="versions_mean",
                    value=total / len(done) if done else None,
                    n=len(done),
                    description="non-empty versions per statement",
                    outcome_rates=outcome_rates([o for r in records for o in r.outcomes]),
                ),
                share("unchanged_from_original"),
                share("still_has_blank"),
                share("multi_sentence"),
            ]
        )


def write_contexts(
    path: Path, records: Sequence[SampleRecord], settings: dict[str, Any], model: dict[str, Any]
) -> int:
    """Write versions as JSONL (the layout `data.read_contexts` reads); returns lines written."""
    written = 0
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            if record.excluded:
                continue
            line = {
                "id": record.sample_id,
                "versions": record.scores["versions"],
                "sentence": record.data["sentence"],
                "template": record.data["template"],
                "flags": record.scores["flags"],
                "settings": settings,
                "model": model,
            }
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            written += 1
    return written


def require_templates(statements: Sequence[Statement], source: str) -> None:
    """Context generation needs templates: refuse a file without any."""
    if not any(s.context_points for s in statements):
        raise DataError(
            f"{source}: no context_points column values; generate points first "
            f"(biasaudit cobias generate-points)"
        )
