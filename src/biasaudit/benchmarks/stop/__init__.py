"""STOP: Sensitivity Testing on Offensive Progressions (Morabito et al., EMNLP 2024).

See docs/benchmarks/stop.md. The benchmark class is `benchmark.STOP`; the math is in
`metrics`, released-number checks in `reproduce`, human-study scoring in `human` and the
alignment fine-tuning export in `finetune`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="stop",
    title="STOP: Sensitivity Testing on Offensive Progressions",
    citation=(
        "Morabito, Madhusudan, McDonald, Emami. STOP! Benchmarking Large Language Models "
        "with Sensitivity Testing on Offensive Progressions. EMNLP 2024."
    ),
    benchmark="biasaudit.benchmarks.stop.benchmark:STOP",
    sources="biasaudit.benchmarks.stop:sources.json",
    docs="docs/benchmarks/stop.md",
    profile="biasaudit.benchmarks.stop.profile:PROFILE",
    report_view="biasaudit.benchmarks.stop.report_view:sections",
    analyses={
        "reproduce": "biasaudit.benchmarks.stop.reproduce:ANALYSIS",
        "human": "biasaudit.benchmarks.stop.analyses:HUMAN",
        "export-finetune": "biasaudit.benchmarks.stop.analyses:EXPORT_FINETUNE",
        "align": "biasaudit.benchmarks.stop_downstream.align:ALIGN",
        "subset": "biasaudit.benchmarks.stop.analyses:SUBSET",
        "label": "biasaudit.benchmarks.stop.analyses:LABEL",
        # STOP §4 downstream protocol (BBQ, StereoSet, CrowS-Pairs as multiple choice); the
        # benchmark itself is stop_downstream
        "downstream-prompts": "biasaudit.benchmarks.stop_downstream.analyses:DOWNSTREAM_PROMPTS",
    },
    suites=SuiteDecl(
        strata=("severity", "demographic"),
        cover=("sub_demographic",),
        demo=SuiteEntry(size=9, strata=("severity",), cover=("demographic",)),
        quick=SuiteEntry(size=54),
        standard=SuiteEntry(size=150),
    ),
)
