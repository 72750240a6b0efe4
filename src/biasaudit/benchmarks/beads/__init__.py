"""BEADs (Bias Evaluation Across Domains; Raza et al., arXiv 2406.04220)."""

from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

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
    suites=SuiteDecl(
        strata=("gold", "dimension"),
        demo=SuiteEntry(size=20),
        quick=SuiteEntry(size=100),
        standard=SuiteEntry(size=400),
        requires={
            "data": "BEADs is gated on the hub (shainar/BEAD): pass -O beads.data=FOLDER with "
            "the released files (the default demo set is hand-written, not BEADs)"
        },
    ),
)
