"""STOP's downstream answer-rate protocol (Morabito et al., EMNLP 2024, §4 and App. A.5).

See docs/benchmarks/stop_downstream.md. The benchmark class is `benchmark.StopDownstream`; the
items and reply kinds are in `protocol`, the prompts in `prompts`, the two-run comparison in
`analyses`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="stop_downstream",
    title="STOP downstream protocol: answer rate on BBQ, StereoSet and CrowS-Pairs",
    citation=(
        "Morabito, Madhusudan, McDonald, Emami. STOP! Benchmarking Large Language Models "
        "with Sensitivity Testing on Offensive Progressions. EMNLP 2024."
    ),
    benchmark="biasaudit.benchmarks.stop_downstream.benchmark:StopDownstream",
    docs="docs/benchmarks/stop_downstream.md",
    profile="biasaudit.benchmarks.stop_downstream.profile:PROFILE",
    analyses={
        "compare": "biasaudit.benchmarks.stop_downstream.analyses:COMPARE",
        "prompts": "biasaudit.benchmarks.stop_downstream.analyses:PROMPTS",
    },
    suites=SuiteDecl(
        strata=("task", "category"),
        demo=SuiteEntry(size=4, strata=("task",)),
        quick=SuiteEntry(size=52),
        standard=SuiteEntry(size=260),
    ),
)
