"""What a benchmark declares about itself without being imported: `BenchmarkSpec`.

The pinned data files it names are `DataSource`s of the data layer (`biasaudit.data.source`),
re-exported here for plug-in authors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.data.source import DataSource
from biasaudit.profile_spec import BenchmarkProfile
from biasaudit.suites import SuiteDecl

__all__ = ["BenchmarkSpec", "DataSource", "Declaration"]


class BenchmarkSpec(BaseModel):
    """What the core needs to know about a benchmark without importing it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    citation: str = ""
    #: "module:Class" of the `Benchmark` subclass.
    benchmark: str
    #: "module:function" returning report sections (see `biasaudit.report.sections`).
    report_view: str | None = None
    #: analysis name -> "module:attribute" of an `Analysis`.
    analyses: dict[str, str] = Field(default_factory=dict)
    #: The pinned data files: "package:file.json", a JSON resource of the package mapping
    #: each key to a `DataSource` without its key (`biasaudit data pin` writes one).
    sources: str | None = None
    #: The docs page: "package:file.md" (a resource shipped in the package), an https URL,
    #: or a path relative to the project root (the folder holding pyproject.toml above the
    #: package, for benchmarks that live in a source checkout).
    docs: str | None = None
    #: "module:attribute" of a `biasaudit.profile.BenchmarkProfile`: validity gates and how
    #: the benchmark's groups map onto the bias profile's axes (None: default gates only).
    profile: str | None = None
    #: Stratification keys and the demo/quick/standard subsets an audit runs (suites.py);
    #: None: only the `full` suite runs it.
    suites: SuiteDecl | None = None


@dataclass(frozen=True)
class Declaration:
    """Everything a benchmark declares, resolved once: its spec, its profile (validity gates
    and effect; the default gates when it declares none) and its pinned sources. Discovery
    attaches it to the benchmark class (`Benchmark.declaration`, `biasaudit.plugin`), so the
    engine, the gates, the planner and the audit read it from the object they hold."""

    spec: BenchmarkSpec
    profile: BenchmarkProfile = field(default_factory=BenchmarkProfile)
    sources: Mapping[str, DataSource] = field(default_factory=dict)

    @property
    def suites(self) -> SuiteDecl | None:
        return self.spec.suites
