"""CALM: multi-task gender and race bias from accuracy gaps between name groups.

Gupta et al., "CALM: A Multi-task Benchmark for Comprehensive Assessment of Language Model
Bias" (arXiv 2308.12539). The benchmark class is `biasaudit.benchmarks.calm.benchmark.CALM`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="calm",
    title="CALM: multi-task gender and race bias from name-substituted accuracy gaps",
    citation=(
        "Gupta, Venkit, Laurençon, Wilson, Passonneau. CALM: A Multi-task Benchmark for "
        "Comprehensive Assessment of Language Model Bias. arXiv:2308.12539, 2023."
    ),
    benchmark="biasaudit.benchmarks.calm.benchmark:CALM",
    sources="biasaudit.benchmarks.calm:sources.json",
    docs="docs/benchmarks/calm.md",
    profile="biasaudit.benchmarks.calm.profile:PROFILE",
    report_view="biasaudit.benchmarks.calm.report_view:sections",
    analyses={
        "reproduce": "biasaudit.benchmarks.calm.reproduce:ANALYSIS",
        "subsets": "biasaudit.benchmarks.calm.analyses:SUBSETS",
        "agreement": "biasaudit.benchmarks.calm.analyses:AGREEMENT",
        "perturb": "biasaudit.benchmarks.calm.analyses:PERTURB",
        "diversity": "biasaudit.benchmarks.calm.analyses:DIVERSITY",
    },
    suites=SuiteDecl(
        strata=("task", "source_dataset"),
        unit="template",
        cover=("attribute", "group"),
        demo=SuiteEntry(
            size=3, strata=("task",), options={"name_limit": 1, "answer_space": "strip"}
        ),
        quick=SuiteEntry(
            size=9, strata=("task",), options={"name_limit": 1, "answer_space": "strip"}
        ),
        standard=SuiteEntry(size=16, options={"name_limit": 2, "answer_space": "strip"}),
    ),
)
