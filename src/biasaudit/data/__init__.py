"""Pinned data sources, the download cache and offline mirrors."""

from biasaudit.data.store import DataStore, PinnedSource, all_sources, get_source

__all__ = ["DataStore", "PinnedSource", "all_sources", "get_source"]
