"""COBIAS: how reliable each statement of a bias dataset is as a probe (Govil et al., 2025).

Scoring (`benchmark.COBIAS`), context-addition points and context generation
(`generation`), generation-quality diagnostics (`diagnostics`), multi-model averaging
(`ensemble`), human validation (`validation`) and the reproduction of the released numbers
(`reproduce`). The formulas are pure functions in `metrics`; the workflows are analyses
(`analyses`, `analyses_data`), run as ``biasaudit cobias <analysis>``.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="cobias",
    title="COBIAS: contextual reliability of bias-benchmark statements",
    citation=(
        "Govil, Jain, Bonagiri, et al. COBIAS: Assessing the Contextual Reliability of "
        "Bias Benchmarks for Language Models. WebSci 2025."
    ),
    benchmark="biasaudit.benchmarks.cobias.benchmark:COBIAS",
    sources="biasaudit.benchmarks.cobias:sources.json",
    docs="docs/benchmarks/cobias.md",
    profile="biasaudit.benchmarks.cobias.profile:PROFILE",
    report_view="biasaudit.benchmarks.cobias.report_view:sections",
    analyses={
        "reproduce": "biasaudit.benchmarks.cobias.reproduce:ANALYSIS",
        "generate-points": "biasaudit.benchmarks.cobias.analyses:GENERATE_POINTS",
        "generate-contexts": "biasaudit.benchmarks.cobias.analyses:GENERATE_CONTEXTS",
        "diagnostics": "biasaudit.benchmarks.cobias.analyses:DIAGNOSTICS",
        "import": "biasaudit.benchmarks.cobias.analyses_data:IMPORT",
        "verify-export": "biasaudit.benchmarks.cobias.analyses_data:VERIFY_EXPORT",
        "verify-summarize": "biasaudit.benchmarks.cobias.analyses_data:VERIFY_SUMMARIZE",
        "ensemble": "biasaudit.benchmarks.cobias.analyses_data:ENSEMBLE",
        "human-agreement": "biasaudit.benchmarks.cobias.analyses_data:HUMAN_AGREEMENT",
    },
    suites=SuiteDecl(
        strata=(),
        demo=SuiteEntry(size=10, options={"n_versions": 5}),
        quick=SuiteEntry(size=30, options={"n_versions": 10}),
        standard=SuiteEntry(size=100, options={"n_versions": 35}),
    ),
)
