"""BEADs' validity gates; BEADs has no profile cells (it scores bias detection, not bias).

Gate: ``-O data=demo`` (the default) runs the package's hand-written demo set, not BEADs:
every number of the run describes those 20 hand-written items and is not shown as a result.
"""

from biasaudit.profile import BenchmarkProfile, Gates
from biasaudit.results.schema import BenchmarkResult, ValidityFlag


def demo_data(bench: BenchmarkResult) -> list[ValidityFlag]:
    if bench.options.get("data", "demo") != "demo":
        return []
    message = "demo data (hand-written, not BEADs; pass -O data=PATH to a BEADs copy)"
    return [ValidityFlag(gate="demo_data", severity="fail", message=message)]


PROFILE = BenchmarkProfile(
    gates=Gates(extra=demo_data),
    no_effect="it scores a model as a bias classifier of texts, not the model's own bias",
)
