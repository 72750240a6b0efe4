"""Model backends behind one interface (see `base.Backend`) and the model-spec parser."""

from biasaudit.models.base import Backend
from biasaudit.models.spec import BACKENDS, load_backend, parse_spec

__all__ = ["BACKENDS", "Backend", "load_backend", "parse_spec"]
