"""Audit suites as a benchmark declares them (``BenchmarkSpec.suites``).

A suite names how much of every benchmark an audit runs: ``demo`` (minutes, for `make demo`),
``quick``, ``standard`` and ``full`` (every item, default options). A benchmark declares, in
its own folder's ``SPEC``, the group keys its items are stratified by (their joint values are
the strata: every group, category, severity and template family it reports on), optionally a
unit whose samples are kept together (e.g. a counterfactual pair), and for each suite a size
(in units) and the options that suite runs it with (e.g. CALM's name_limit). The stratified
draw itself is `biasaudit.sampling.stratified_sample`. This module imports nothing heavy:
`biasaudit list` and discovery read it without loading a benchmark.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

SuiteName = Literal["demo", "quick", "standard", "full"]
#: The suites, smallest first.
SUITES: tuple[SuiteName, ...] = ("demo", "quick", "standard", "full")


class SuiteEntry(BaseModel):
    """One suite of one benchmark: how many units, with which options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Units to draw (samples, or `SuiteDecl.unit` clusters); None runs every one.
    size: int | None = Field(default=None, ge=1)
    #: Benchmark options of this suite (the user's -O options override them).
    options: dict[str, Any] = Field(default_factory=dict)
    #: This suite's strata and cover keys, in place of the declaration's (a demo may
    #: stratify by fewer keys to stay small).
    strata: tuple[str, ...] | None = None
    cover: tuple[str, ...] | None = None


class SuiteDecl(BaseModel):
    """A benchmark's stratification keys and its suites."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Sample group keys; their joint values are the strata.
    strata: tuple[str, ...]
    #: Sample group keys too fine to stratify jointly whose every level is represented
    #: anyway: after the draw, one unit is added for each level no drawn unit holds.
    cover: tuple[str, ...] = ()
    #: A sample group key whose samples are drawn together (None: each sample alone).
    unit: str | None = None
    #: Every stratum keeps at least this many units (or all it has).
    min_per_stratum: int = Field(default=1, ge=0)
    demo: SuiteEntry | None = None
    quick: SuiteEntry | None = None
    standard: SuiteEntry | None = None
    full: SuiteEntry = SuiteEntry()
    #: Options an audit needs the user to set (option -> why), e.g. BEADs' gated data: without
    #: them the benchmark is skipped with that reason, never run on a stand-in.
    requires: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _sizes_grow(self) -> SuiteDecl:
        sizes = [e.size for e in (self.demo, self.quick, self.standard) if e and e.size]
        if sizes != sorted(sizes):
            raise ValueError(f"suite sizes must grow from demo to standard, got {sizes}")
        return self

    def keys(self, suite: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(strata, cover) of `suite` (None: the declaration's, as ``run --sample`` uses)."""
        entry = self.entry(suite) if suite is not None else None
        strata = self.strata if entry is None or entry.strata is None else entry.strata
        cover = self.cover if entry is None or entry.cover is None else entry.cover
        return strata, cover

    def entry(self, suite: str) -> SuiteEntry | None:
        """The declaration of `suite`, or None when the benchmark has no such subset."""
        if suite not in SUITES:
            raise ValueError(f"unknown suite '{suite}' (known: {', '.join(SUITES)})")
        entry: SuiteEntry | None = getattr(self, suite)
        return entry
