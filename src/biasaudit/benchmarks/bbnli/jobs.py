"""Model jobs of the extension pipeline, run through the engine by `Context.run`.

They are jobs, not benchmarks (no SPEC names them): the masked LM's top-k fills (Step 3) and
one NLI classifier's labels for the generated samples (Step 4). Their inputs are JSONL files
written by the previous stage, so a stage re-run after a crash hits the response cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from pydantic import Field

from biasaudit.benchmarks import BenchmarkOptions, Job, Sample, SampleScore
from biasaudit.benchmarks.bbnli.labels import (
    LabelMapError,
    build_label_map,
    parse_label_map,
    predict,
)
from biasaudit.datasets.files import iter_json_lines
from biasaudit.requests import Capability, ClassifyRequest, FillMaskRequest, Request
from biasaudit.results.schema import Exchange


class FillOptions(BenchmarkOptions):
    texts_file: str
    top_k: int = Field(20, ge=1)


class FillJob(Job):
    """One fill_mask request per unique masked hypothesis (the MLM sees the hypothesis only)."""

    name: ClassVar[str] = "bbnli-fill-mask"
    version: ClassVar[str] = "1.0"
    Options: ClassVar[type[BenchmarkOptions]] = FillOptions
    options: FillOptions
    capability: ClassVar[Capability | None] = Capability.FILL_MASK

    def load_samples(self) -> list[Sample]:
        return [
            Sample(id=record["id"], data={"text": record["text"]})
            for _, record in iter_json_lines(Path(self.options.texts_file))
        ]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            return []
        return [FillMaskRequest(text=sample.data["text"], top_k=self.options.top_k)]

    def expected_requests(self, sample: Sample) -> int | None:
        return 1

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        response = exchanges[0].response
        if response.candidates is None:
            return SampleScore(["error"], {}, True, str(response.error))
        return SampleScore(["answered"], {"candidates": response.candidates})


class ClassifyOptions(BenchmarkOptions):
    samples_file: str
    label_map: str | None = None


class ClassifyJob(Job):
    """One NLI label per (premise, hypothesis) of a generated-samples file."""

    name: ClassVar[str] = "bbnli-nli-labels"
    version: ClassVar[str] = "1.0"
    Options: ClassVar[type[BenchmarkOptions]] = ClassifyOptions
    options: ClassifyOptions
    capability: ClassVar[Capability | None] = Capability.CLASSIFY
    _map: dict[str, str] | None = None

    def load_samples(self) -> list[Sample]:
        return [
            Sample(
                id=record["id"],
                data={"premise": record["premise"], "hypothesis": record["hypothesis"]},
                groups={"domain": record["domain"]},
            )
            for _, record in iter_json_lines(Path(self.options.samples_file))
        ]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            return []
        return [ClassifyRequest(text=sample.data["premise"], text_pair=sample.data["hypothesis"])]

    def expected_requests(self, sample: Sample) -> int | None:
        return 1

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        response = exchanges[0].response
        if response.label_probs is None:
            return SampleScore(["error"], {}, True, str(response.error))
        if self._map is None:
            explicit = parse_label_map(self.options.label_map) if self.options.label_map else None
            self._map = build_label_map(response.label_probs, explicit)
        try:
            label = predict(response.label_probs, self._map)
        except LabelMapError as exc:
            return SampleScore(["error"], {}, True, str(exc))
        return SampleScore(["answered"], {"label": label})
