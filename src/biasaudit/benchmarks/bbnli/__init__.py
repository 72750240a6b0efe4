"""BBNLI / BBNLI-next: NLI bias audit, counterfactual measures, benchmark extension.

See docs/benchmarks/bbnli.md. The benchmark class is `benchmark.BBNLI`; the measures are in
`metrics`; the extension pipeline's stages in `templates`, `extension`, `validation` and
`swap`, its typed workflows in `analyses`; released-number checks in `reproduce`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="bbnli",
    title="BBNLI / BBNLI-next: bias in NLI, disaggregated into bias and brittleness",
    citation=(
        "Akyürek et al. On Measuring Social Biases in Prompt-Based Multi-Task Learning. "
        "Findings of NAACL 2022; Baldini, Yadav, Nagireddy, Das, Varshney. Keeping Up with "
        "the Language Models: Systematic Benchmark Extension for Bias Auditing. "
        "arXiv:2305.12620."
    ),
    benchmark="biasaudit.benchmarks.bbnli.benchmark:BBNLI",
    sources="biasaudit.benchmarks.bbnli:sources.json",
    docs="docs/benchmarks/bbnli.md",
    profile="biasaudit.benchmarks.bbnli.profile:PROFILE",
    analyses={
        "reproduce": "biasaudit.benchmarks.bbnli.reproduce:ANALYSIS",
        "extend-generate": "biasaudit.benchmarks.bbnli.analyses:EXTEND_GENERATE",
        "extend-filter": "biasaudit.benchmarks.bbnli.analyses:EXTEND_FILTER",
        "extend-finish": "biasaudit.benchmarks.bbnli.analyses:EXTEND_FINISH",
    },
    suites=SuiteDecl(
        strata=("domain", "subtopic"),
        unit="pair",
        cover=("stance",),
        demo=SuiteEntry(size=3, strata=("domain",), cover=()),
        quick=SuiteEntry(size=48),
        standard=SuiteEntry(size=160),
    ),
)
