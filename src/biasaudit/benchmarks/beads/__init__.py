"""BEADs (Bias Evaluation Across Domains; Raza et al., arXiv 2406.04220)."""

from biasaudit.plugin import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="beads",
    title="BEADs: bias classification, biased spans, demographic probes and benign rewrites",
    citation=(
        "Raza, Rahman and Zhang. BEADs: Bias Evaluation Across Domains. arXiv:2406.04220 (2024)."
    ),
    benchmark="biasaudit.benchmarks.beads.benchmark:Beads",
    docs="docs/benchmarks/beads.md",
    profile="biasaudit.benchmarks.beads.profile:PROFILE",
    analyses={
        "fetch": "biasaudit.benchmarks.beads.analyses:FETCH",
        "train": "biasaudit.benchmarks.beads.analyses:TRAIN",
        "rewrite": "biasaudit.benchmarks.beads.analyses:REWRITE",
        "debias": "biasaudit.benchmarks.beads.debias:DEBIAS",
        "train-spans": "biasaudit.benchmarks.beads.spantagger:TRAIN_SPANS",
    },
)
