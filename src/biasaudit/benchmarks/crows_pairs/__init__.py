"""CrowS-Pairs (Nangia et al., EMNLP 2020): preference for the more stereotyping sentence.

See docs/benchmarks/crows_pairs.md. The benchmark class is `benchmark.CrowsPairs`; the
formulas are in `metrics`; the reader is `biasaudit.datasets.crows_pairs`.
"""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="crows_pairs",
    title="CrowS-Pairs: Crowdsourced Stereotype Pairs",
    citation=(
        "Nangia, Vania, Bhalerao, Bowman. CrowS-Pairs: A Challenge Dataset for Measuring "
        "Social Biases in Masked Language Models. EMNLP 2020."
    ),
    benchmark="biasaudit.benchmarks.crows_pairs.benchmark:CrowsPairs",
    sources="biasaudit.benchmarks.crows_pairs:sources.json",
    docs="docs/benchmarks/crows_pairs.md",
    profile="biasaudit.benchmarks.crows_pairs.profile:PROFILE",
    suites=SuiteDecl(
        strata=("bias_type", "direction"),
        # every pair in every suite: a log-likelihood pair costs ~0.09 CPU s on the embedded
        # model, and precision is bought with items (at n = 31 a cell can only see an effect
        # of ~25 points; over all 1,508 pairs the overall row sees ~3.6): issue 29
        # (1,508 = every pair of the release: a draw of all of them, so the plan is recorded)
        demo=SuiteEntry(size=1508),
        quick=SuiteEntry(size=1508),
        standard=SuiteEntry(size=1508),
    ),
)
