"""COBIAS as a biasaudit benchmark: one sample per statement with its context-added versions.

Round one asks for τ of the statement and of every version (one request each; identical
texts are sent once thanks to the request cache). Scoring turns the τ values into cv (Eq. 2)
and COBIAS (Eq. 3); `aggregate` gives the dataset score (the mean) next to cv, the human
validation when the statements carry human ratings, and the per-statement table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import Field

from biasaudit.benchmarks import Aggregate, Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.aggregate import aggregate_records
from biasaudit.benchmarks.cobias.data import (
    CONTEXTS_KEY,
    DATASET_KEY,
    RATINGS_KEY,
    Selection,
    Statement,
    read_contexts,
    read_statements,
    resolve,
    select_versions,
)
from biasaudit.benchmarks.cobias.estimators import (
    CAPABILITY,
    Estimator,
    Granularity,
    TauSettings,
    choose_estimator,
)
from biasaudit.benchmarks.cobias.templates import (
    clean_version,
    count_blanks,
    has_alternation,
    template_problems,
    unchanged,
    words,
)
from biasaudit.benchmarks.cobias.validation import read_ratings
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.requests import Capability, Request
from biasaudit.results.schema import Exchange, SampleRecord

#: Scorer presets; explicit `lowercase` / `add_special_tokens` options override them.
PRESETS: dict[str, dict[str, bool]] = {
    # Standard PLL (Salazar et al.): special tokens added (never scored), text as given.
    "default": {"lowercase": False, "add_special_tokens": True},
    # The authors' scorer: no special tokens, every input lower-cased (spec §3.1).
    "reference_compat": {"lowercase": True, "add_special_tokens": False},
}


class COBIASOptions(BenchmarkOptions):
    """Options of the COBIAS benchmark (``-O key=value``)."""

    #: Statements: a pinned key or a CSV path (columns id, sentence, target_term,
    #: context_points).
    dataset: str = DATASET_KEY
    #: Context-added versions: a pinned key, a JSONL path, or a folder of {id}.pkl files.
    contexts: str = CONTEXTS_KEY
    #: "human-rated": the 500 statements the authors rated (only for the released dataset);
    #: "auto" picks it for the released dataset and "all" for any other.
    subset: Literal["auto", "all", "human-rated"] = "auto"
    #: Human Likert ratings (CSV: id, Annotator N columns; pinned key or path) to correlate
    #: with the scores; default: the authors' ratings for subset=human-rated, else none.
    ratings: str | None = None
    #: Keep statements whose id starts with this (e.g. "wg_" in processed_combined.csv).
    id_prefix: str | None = None
    #: Versions per statement (the paper's n = 35); None keeps all.
    n_versions: int | None = Field(default=35, ge=1)
    #: Statements left with fewer versions (after cleaning and filters) are excluded as
    #: "too_few_versions"; 1 scores whatever is available, as the authors' [:35] does.
    min_versions: int = Field(default=1, ge=1)
    #: "reference": the authors' seeded shuffle in dataset order; "first": as stored.
    selection: Selection = "reference"
    selection_seed: int = 42
    #: τ estimator: "pll" (masked LM, the paper), "causal" (log-likelihood given BOS), or
    #: "auto" (pll when the backend serves it, else causal).
    estimator: Literal["auto", "pll", "causal"] = "auto"
    granularity: Granularity = "token"
    preset: Literal["default", "reference_compat"] = "default"
    lowercase: bool | None = None
    add_special_tokens: bool | None = None
    #: Filters, applied after selection: versions still holding a blank, versions whose ED to
    #: the template exceeds max_ed, duplicate versions.
    drop_blank_versions: bool = False
    max_ed: float | None = Field(default=None, ge=0)
    ed_mode: metrics.EdMode = "reference"
    dedupe: bool = False
    #: Also report the share of statements with COBIAS >= this value (see the docs on the
    #: score's direction before reading it as "insufficient context").
    flag_threshold: float | None = Field(default=None, ge=0, lt=1)


class COBIAS(Benchmark):
    name: ClassVar[str] = "cobias"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = (
        "COBIAS: contextual reliability of bias-benchmark statements (Govil et al., WebSci 2025)"
    )
    Options = COBIASOptions

    options: COBIASOptions

    def __init__(self, options: BenchmarkOptions, store: DataStore, seed: int = 0) -> None:
        super().__init__(options, store, seed)
        if self.options.subset == "human-rated" and self.options.dataset != DATASET_KEY:
            raise DataError(
                f"subset=human-rated needs the released dataset {DATASET_KEY}; "
                f"use subset=all for {self.options.dataset}"
            )
        if self.options.dataset != DATASET_KEY and "contexts" not in self.options.model_fields_set:
            raise DataError(
                f"dataset {self.options.dataset} needs its own contexts=...: the default "
                f"versions belong to the ids of {DATASET_KEY}"
            )
        self._samples: list[Sample] | None = None

    # -- configuration ------------------------------------------------------------------

    def bind_backend(self, capabilities: frozenset[Capability]) -> None:
        if self.options.estimator == "auto":
            chosen = choose_estimator(capabilities)
            self.options = self.options.model_copy(update={"estimator": chosen})

    @property
    def estimator(self) -> Estimator:
        """The estimator in use; "auto" counts as pll until a backend is bound."""
        return "causal" if self.options.estimator == "causal" else "pll"

    def tau_settings(self) -> TauSettings:
        preset = PRESETS[self.options.preset]
        lower = self.options.lowercase
        special = self.options.add_special_tokens
        return TauSettings(
            estimator=self.estimator,
            granularity=self.options.granularity,
            lowercase=preset["lowercase"] if lower is None else lower,
            add_special_tokens=preset["add_special_tokens"] if special is None else special,
        )

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({CAPABILITY[self.estimator]})

    def _subset(self) -> str:
        if self.options.subset != "auto":
            return self.options.subset
        return "human-rated" if self.options.dataset == DATASET_KEY else "all"

    def data_keys(self) -> list[str]:
        names = (self.options.dataset, self.options.contexts, self._ratings_source())
        return [k for k in names if k is not None and self.store.is_pinned(k)]

    def user_files(self) -> list[str]:
        names = (self.options.dataset, self.options.contexts, self._ratings_source())
        return [k for k in names if k is not None and not self.store.is_pinned(k)]

    def _ratings_source(self) -> str | None:
        if self.options.ratings is not None:
            return self.options.ratings
        return RATINGS_KEY if self._subset() == "human-rated" else None

    def prompt_template_ids(self) -> list[str]:
        return [f"tau-{self.estimator}-{self.options.granularity}"]

    # -- samples ------------------------------------------------------------------------

    def load_samples(self) -> list[Sample]:
        if self._samples is None:
            self._samples = self._build_samples()
        return self._samples

    def _build_samples(self) -> list[Sample]:
        opts = self.options
        statements = read_statements(resolve(opts.dataset, self.store))
        all_versions = read_contexts(resolve(opts.contexts, self.store))
        if not any(s.id in all_versions for s in statements):
            example = next(iter(all_versions))
            raise DataError(
                f"{opts.contexts}: no versions for any statement of {opts.dataset} (its ids "
                f"look like {statements[0].id!r}, the contexts' like {example!r})"
            )
        chosen = select_versions(
            [s.id for s in statements],
            all_versions,
            opts.n_versions,
            opts.selection,
            opts.selection_seed,
        )
        source = self._ratings_source()
        ratings = read_ratings(resolve(source, self.store)).means() if source else None
        if self._subset() == "human-rated" and ratings is not None:
            statements = [s for s in statements if s.id in ratings]
        if opts.id_prefix is not None:
            statements = [s for s in statements if s.id.startswith(opts.id_prefix)]
        if not statements:
            raise DataError(f"{opts.dataset}: no statements selected")
        return [
            self._sample(s, chosen.get(s.id), ratings.get(s.id) if ratings else None)
            for s in statements
        ]

    def _filter(self, statement: Statement, raw: list[str]) -> tuple[list[str], Counter[str]]:
        """Clean the selected versions and apply the optional filters, counting drops."""
        opts = self.options
        dropped: Counter[str] = Counter()
        kept: list[str] = []
        for text in (clean_version(v) for v in raw):
            if not text:
                dropped["empty"] += 1
            elif opts.drop_blank_versions and count_blanks(text):
                dropped["still_has_blank"] += 1
            elif (
                opts.max_ed is not None
                and statement.context_points
                and metrics.edit_distance(statement.context_points, text, opts.ed_mode)
                > opts.max_ed
            ):
                dropped["ed_above_threshold"] += 1
            elif opts.dedupe and text in kept:
                dropped["duplicate"] += 1
            else:
                kept.append(text)
        return kept, dropped

    def _sample(self, statement: Statement, raw: list[str] | None, rating: float | None) -> Sample:
        versions, dropped = self._filter(statement, raw or [])
        skip: str | None = None
        if not statement.sentence:
            skip = "empty"
        elif has_alternation(statement.sentence):
            skip = "unresolved_alternation"
        elif statement.context_points and count_blanks(statement.context_points) == 0:
            skip = "no_context_points"
        elif not versions:
            skip = "no_versions"
        elif len(versions) < self.options.min_versions:
            skip = "too_few_versions"
        flags: list[str] = []
        if len(words(statement.sentence)) == 1:
            flags.append("degenerate_length")
        if statement.context_points and "text_changed" in template_problems(
            statement.context_points, statement.sentence
        ):
            flags.append("template_text_changed")
        if versions and all(unchanged(v, statement.sentence) for v in versions):
            flags.append("no_context_added")
        data: dict[str, Any] = {
            "sentence": statement.sentence,
            "target_term": statement.target_term,
            "context_points": statement.context_points,
            "versions": versions,
            "n_available": len(raw or []),
            "dropped": dict(dropped),
            "n_unchanged": sum(unchanged(v, statement.sentence) for v in versions),
            "n_with_blank": sum(bool(count_blanks(v)) for v in versions),
            "n_duplicates": len(versions) - len(set(versions)),
            "flags": flags,
            "skip": skip,
        }
        if rating is not None:
            data["human_rating"] = rating
        source = statement.id.split("_", 1)[0] if "_" in statement.id else ""
        return Sample(id=statement.id, data=data, groups={"source": source} if source else {})

    # -- requests and scoring -----------------------------------------------------------

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges or sample.data["skip"]:
            return []
        settings = self.tau_settings()
        texts = [sample.data["sentence"], *sample.data["versions"]]
        return [settings.request(text) for text in texts]

    def expected_requests(self, sample: Sample) -> int | None:
        return 0 if sample.data["skip"] else 1 + len(sample.data["versions"])

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        if sample.data["skip"]:
            return SampleScore(excluded=True, exclusion_reason=sample.data["skip"])
        settings = self.tau_settings()
        taus: list[float] = []
        for index, exchange in enumerate(exchanges):
            try:
                taus.append(settings.tau(exchange.request, exchange.response))
            except ValueError as exc:
                which = "statement" if index == 0 else f"version {index}"
                return SampleScore(
                    outcomes=["error"], excluded=True, exclusion_reason=f"error: {which}: {exc}"
                )
        if len(taus) != 1 + len(sample.data["versions"]):
            return SampleScore(excluded=True, exclusion_reason="incomplete: missing responses")
        tau_x, tau_versions = taus[0], taus[1:]
        if tau_x == 0:
            return SampleScore(excluded=True, exclusion_reason="tau_zero")
        cv = metrics.context_variance(tau_x, tau_versions)
        return SampleScore(
            outcomes=["answered"],
            scores={
                "cobias": metrics.cobias(cv),
                "cv": cv,
                "tau_original": tau_x,
                "tau_versions": tau_versions,
                "n_contexts": len(tau_versions),
                "estimator": settings.estimator,
            },
        )

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        return aggregate_records(
            records,
            seed=seed,
            settings=self.tau_settings(),
            flag_threshold=self.options.flag_threshold,
        )
