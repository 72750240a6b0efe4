"""The plug-in API: everything a benchmark author imports to write a benchmark package (see
docs/adding-a-benchmark.md). Importing it loads the contract and the statistics, never the
run engine, a backend or the report code (tests/unit/core/test_import_weight.py).

- the contract: `Benchmark`, `BenchmarkOptions`, `Sample`, `SampleScore`, `Aggregate`, `Job`;
- the declaration: `BenchmarkSpec`, `DataSource`, `SuiteDecl` / `SuiteEntry` (the suites),
  `BenchmarkProfile`, `Gates`, `Effect`, `AXES` (the bias profile), `Declaration` (what
  discovery attaches to a benchmark class: `Benchmark.declaration`);
- the metrics: `MetricSpec` (a per-sample mean) and `StatisticSpec` (a statistic of a set of
  records), both built by `frame`, the one MetricValue builder;
- choosing an option by log-likelihood: `option_score`, `likeliest` (`biasaudit.likeliest`).

`PLUGIN_API` lists every module a benchmark package may import (this one, and the shared
layers a benchmark builds on); the conformance kit's ``imports`` check enforces it as an
allow-list, and docs/adding-a-benchmark.md prints it.
"""

from biasaudit.axes import AXES
from biasaudit.benchmark_spec import BenchmarkSpec, DataSource, Declaration
from biasaudit.contract import (
    Aggregate,
    Benchmark,
    BenchmarkOptions,
    Job,
    Sample,
    SampleScore,
)
from biasaudit.likeliest import likeliest, option_score
from biasaudit.metrics.frame import MetricSpec, StatisticSpec, frame
from biasaudit.profile_spec import (
    AGAINST,
    DISFAVOURS,
    FAVOURS,
    TOWARD,
    BenchmarkProfile,
    Effect,
    Gates,
)
from biasaudit.suites import SuiteDecl, SuiteEntry

__all__ = [
    "AGAINST",
    "AXES",
    "DISFAVOURS",
    "FAVOURS",
    "PLUGIN_API",
    "TOWARD",
    "Aggregate",
    "Benchmark",
    "BenchmarkOptions",
    "BenchmarkProfile",
    "BenchmarkSpec",
    "DataSource",
    "Declaration",
    "Effect",
    "Gates",
    "Job",
    "MetricSpec",
    "Sample",
    "SampleScore",
    "StatisticSpec",
    "SuiteDecl",
    "SuiteEntry",
    "frame",
    "likeliest",
    "option_score",
]

#: The modules (and packages, with everything in them) a benchmark package may import, with
#: why; anything else of biasaudit (the engine, the backends, the command line, the
#: conformance kit, the profile and report builders, another benchmark) is refused.
PLUGIN_API: dict[str, str] = {
    "biasaudit.benchmarks": "this module: the contract, the declarations, MetricSpec",
    "biasaudit.errors": "the one-line errors",
    "biasaudit.requests": "the typed requests and responses",
    "biasaudit.results.schema": "exchanges, records, metric values, tables",
    "biasaudit.results.io": "reading a run folder (analyses over earlier runs)",
    "biasaudit.data": "the DataStore of pinned files",
    "biasaudit.datasets": "readers of datasets several benchmarks share",
    "biasaudit.metrics": "the statistics",
    "biasaudit.answers": "the one answer reader",
    "biasaudit.multiple_choice": "multiple-choice questions to a chat model",
    "biasaudit.extraction": "answer_mode=extract",
    "biasaudit.likeliest": "choosing by log-likelihood",
    "biasaudit.declarative": "declarative multiple-choice tasks",
    "biasaudit.analysis": "analyses (Analysis, Context)",
    "biasaudit.finetune": "analyses that fine-tune a model",
    "biasaudit.report.sections": "report views",
    "biasaudit.report.html": "report views",
    "biasaudit.report.svg": "report views",
    "biasaudit.hashing": "content hashes",
    "biasaudit.importing": "objects named by reference",
}
