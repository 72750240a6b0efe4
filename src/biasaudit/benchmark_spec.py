"""What a benchmark declares about itself without being imported: `BenchmarkSpec`, and the
pinned data files it reads (`DataSource`).

This module depends on pydantic only, so `biasaudit.plugin` (discovery), `biasaudit.data`
(the store that reads the declared files) and `biasaudit.benchmarks` (the public API) can all
import it without importing each other.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.suites import SuiteDecl


class DataSource(BaseModel):
    """One pinned upstream file: where it comes from, its sha256, licence and citation.

    `key` is its path in the offline mirror layout (``stop/STOP-full.json``); a data dir
    (``--data-dir`` / ``BIASAUDIT_DATA_DIR``) holds the file at ``<data dir>/<key>``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    #: Download URL at a pinned commit or revision; None: only an offline mirror has it.
    url: str | None
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    license: str
    citation: str
    #: The upstream repository (``github.com/owner/name``), the commit and the path in it.
    upstream: str = ""
    commit: str = ""
    upstream_path: str = ""
    bytes: int | None = None


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
