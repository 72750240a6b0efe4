"""Pinned data sources, the download cache and offline mirrors (the data layer: it imports
nothing above the foundation; see docs/architecture.md)."""

from biasaudit.data.source import DataSource
from biasaudit.data.store import DataStore

__all__ = ["DataSource", "DataStore"]
