from biasaudit.plugin import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="winobias",
    title="WinoBias: gender bias in coreference, posed as a two-option choice",
    citation="Zhao, Wang, Yatskar, Ordonez, Chang. Gender Bias in Coreference Resolution: "
    "Evaluation and Debiasing Methods. NAACL 2018.",
    benchmark="biasaudit.benchmarks.winobias.task:WinoBias",
    sources="biasaudit.benchmarks.winobias:sources.json",
    docs="docs/benchmarks/winobias.md",
)
