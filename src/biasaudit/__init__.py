"""biasaudit: audit social bias in language models.

>>> import biasaudit
>>> run = biasaudit.evaluate("stop", "embedded", limit=5)   # doctest: +SKIP
>>> biasaudit.to_dataframe(run)                              # doctest: +SKIP

Importing the package is light (the version and the errors): the names below are imported
when first used, so a plug-in author's ``import biasaudit.benchmarks`` does not load the run
engine, the backends or the report code (tests/unit/core/test_import_weight.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from biasaudit._version import __version__
from biasaudit.errors import BiasauditError

if TYPE_CHECKING:
    from biasaudit.api import evaluate, score
    from biasaudit.profile.frame import to_dataframe
    from biasaudit.results.schema import RunResult

#: Public names imported on first use: name -> "module:attribute".
_LAZY = {
    "evaluate": "biasaudit.api:evaluate",
    "score": "biasaudit.api:score",
    "RunResult": "biasaudit.results.schema:RunResult",
    "to_dataframe": "biasaudit.profile.frame:to_dataframe",
}

__all__ = ["BiasauditError", "RunResult", "__version__", "evaluate", "score", "to_dataframe"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'biasaudit' has no attribute {name!r}")
    from biasaudit.importing import import_object

    value = import_object(_LAZY[name])
    globals()[name] = value
    return value
