"""biasaudit: audit social bias in language models.

>>> import biasaudit
>>> run = biasaudit.evaluate("stop", "embedded", limit=5)   # doctest: +SKIP
>>> run.to_dataframe()                                       # doctest: +SKIP
"""

from biasaudit._version import __version__
from biasaudit.api import evaluate, score
from biasaudit.errors import BiasauditError
from biasaudit.profile import frame as _frame  # noqa: F401  (installs RunResult.to_dataframe())
from biasaudit.results.schema import RunResult

__all__ = ["BiasauditError", "RunResult", "__version__", "evaluate", "score"]
