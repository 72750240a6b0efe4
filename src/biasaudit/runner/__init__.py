"""Plans, batches, caches and resumes the requests of a run."""

from biasaudit.runner.cache import ResponseCache
from biasaudit.runner.runner import RunConfig, run_benchmark

__all__ = ["ResponseCache", "RunConfig", "run_benchmark"]
