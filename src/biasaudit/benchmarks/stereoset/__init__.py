"""StereoSet (Nadeem et al., ACL 2021): stereotype score, language modeling score, iCAT.

See docs/benchmarks/stereoset.md. The benchmark class is `benchmark.StereoSet`; the formulas
(a line-by-line reading of the authors' evaluation.py) are in `metrics`; the reader is
`biasaudit.datasets.stereoset`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="stereoset",
    title="StereoSet: measuring stereotypical bias in pretrained language models",
    citation=(
        "Nadeem, Bethke, Reddy. StereoSet: Measuring stereotypical bias in pretrained "
        "language models. ACL 2021."
    ),
    benchmark="biasaudit.benchmarks.stereoset.benchmark:StereoSet",
    sources="biasaudit.benchmarks.stereoset:sources.json",
    docs="docs/benchmarks/stereoset.md",
    profile="biasaudit.benchmarks.stereoset.profile:PROFILE",
    suites=SuiteDecl(
        strata=("bias_type", "split"),
        demo=SuiteEntry(size=16),
        quick=SuiteEntry(size=160),
        standard=SuiteEntry(size=800),
    ),
)
