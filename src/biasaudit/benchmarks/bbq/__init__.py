"""BBQ: the Bias Benchmark for QA (Parrish et al., Findings of ACL 2022).

See docs/benchmarks/bbq.md. The benchmark class is `benchmark.BBQ`; the reader and the port of
the authors' target derivation live in `biasaudit.datasets.bbq`; formulas in `metrics`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="bbq",
    title="BBQ: Bias Benchmark for Question Answering",
    citation=(
        "Parrish, Chen, Nangia, Padmakumar, Phang, Thompson, Htut, Bowman. BBQ: A Hand-Built "
        "Bias Benchmark for Question Answering. Findings of ACL 2022."
    ),
    benchmark="biasaudit.benchmarks.bbq.benchmark:BBQ",
    sources="biasaudit.benchmarks.bbq:sources.json",
    docs="docs/benchmarks/bbq.md",
    profile="biasaudit.benchmarks.bbq.profile:PROFILE",
    report_view="biasaudit.benchmarks.bbq.report_view:sections",
    analyses={"reproduce": "biasaudit.benchmarks.bbq.reproduce:ANALYSIS"},
    suites=SuiteDecl(
        strata=("category_slice", "context_condition", "question_polarity"),
        cover=("context_alignment", "label_type"),
        demo=SuiteEntry(
            size=11, strata=("category",), cover=("context_condition", "question_polarity")
        ),
        quick=SuiteEntry(size=180),
        standard=SuiteEntry(size=1200),
    ),
)
