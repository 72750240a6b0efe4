"""A pinned upstream file (`DataSource`): the data layer's own model, so that the store needs
nothing above it. Benchmarks declare theirs in their spec's ``sources`` file."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class DataSource(BaseModel):
    """One pinned upstream file: where it comes from, its sha256, licence and citation.

    `key` is its path in the offline mirror layout (``stop/STOP-full.json``); a data dir
    (``--data-dir`` / ``BIASAUDIT_DATA_DIR``) holds the file at ``<data dir>/<key>``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    #: Download URL at a pinned commit or revision; None: only an offline mirror has it.
    url: str | None
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    license: str
    citation: str
    #: The upstream repository (``github.com/owner/name``), the commit and the path in it.
    upstream: str = ""
    commit: str = ""
    upstream_path: str = ""
    bytes: int | None = None
