from biasaudit.benchmarks import BenchmarkSpec, SuiteDecl, SuiteEntry

SPEC = BenchmarkSpec(
    name="winobias",
    title="WinoBias: gender bias in coreference, posed as a two-option choice",
    citation="Zhao, Wang, Yatskar, Ordonez, Chang. Gender Bias in Coreference Resolution: "
    "Evaluation and Debiasing Methods. NAACL 2018.",
    benchmark="biasaudit.benchmarks.winobias.task:WinoBias",
    sources="biasaudit.benchmarks.winobias:sources.json",
    docs="docs/benchmarks/winobias.md",
    profile="biasaudit.benchmarks.winobias.profile:PROFILE",
    suites=SuiteDecl(
        strata=("type", "split"),
        cover=("stereotype", "pronoun_gender"),
        unit="pair",
        demo=SuiteEntry(size=4),
        quick=SuiteEntry(size=40),
        standard=SuiteEntry(size=200),
    ),
)
