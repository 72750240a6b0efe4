"""WinoBias as an external biasaudit plug-in (see README.md in this package)."""

from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="winobias_example",
    title="WinoBias (example external package): gender bias in coreference as a choice",
    citation="Zhao, Wang, Yatskar, Ordonez, Chang. Gender Bias in Coreference Resolution: "
    "Evaluation and Debiasing Methods. NAACL 2018.",
    benchmark="winobias_example.task:WinoBiasExample",
    sources="winobias_example:sources.json",
    docs="winobias_example:README.md",
)
