"""COBIAS's place in the profile: not a model score, a reliability filter.

COBIAS rates how much context a dataset's statements carry (Govil et al. 2024); a model's
cobias_mean says which statements are context-reliable, not how biased the model is. It is
flagged as such wherever it appears, and it has no profile cells. Where its statements are
CrowS-Pairs / StereoSet ones (COBIAS's DATASET.csv), their cells are recomputed on the
statements it rates reliable (biasaudit.profile.reliability).
"""

from biasaudit.benchmarks import BenchmarkProfile, Gates
from biasaudit.results.schema import BenchmarkResult, ValidityFlag


def not_a_model_score(bench: BenchmarkResult) -> list[ValidityFlag]:
    message = "not a model bias score: it rates the context of the dataset's statements"
    return [ValidityFlag(gate="not_a_model_measure", severity="warn", message=message)]


PROFILE = BenchmarkProfile(
    gates=Gates(extra=not_a_model_score),
    no_effect="not a model score: it rates the statements' context (a reliability filter)",
    # the paper's §4.3 reading: higher = better contextual reliability (its Fig. 2 reads the
    # scale the other way; docs/benchmarks/cobias.md)
    rates_statements=("sentence", "cobias"),
)
