"""An opened index, as searching sees it: the read-only side of rulebot.index.

rulebot.search imports this, rulebot.index.reader and
rulebot.index.whoosh_format, never the code that builds or updates an index
(an import-linter contract in pyproject.toml keeps it so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulebot.index.reader import IndexReader

ALL_GAMES = "*"
"""Key of the synonym table that merges every game's, in the index metadata."""


@dataclass
class OpenIndex:
    """An opened index with what rulebot stored beside it."""

    index: IndexReader
    """The index, open for reading."""
    meta: dict
    """The games' metadata and vocabulary, the fingerprint and the entry count."""
    path: Path | None
    """Its folder; None for an in-memory index."""
    built: bool = False
    """True when this call built it."""
    warnings: list[str] = field(default_factory=list)
    """What went wrong on the way and was worked around."""
