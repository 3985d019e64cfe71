"""An opened index, as searching sees it: the read-only side of rulebot.index.

rulebot.search imports this, rulebot.index.reader and
rulebot.index.whoosh_format, never the code that builds or updates an index
(an import-linter contract in pyproject.toml keeps it so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebot.index.reader import IndexReader

ALL_GAMES = "*"
"""Key of the synonym table that merges every game's, in the index metadata."""


class OpenIndex:
    """An opened index with what rulebot stored beside it (a plain class: see rulebot.search.answer.Hit)."""

    __slots__ = ("built", "index", "meta", "path", "warnings")

    def __init__(self, index: IndexReader, meta: dict[str, Any], path: Path | None, built: bool = False, warnings: list[str] | None = None) -> None:
        self.index = index
        """The index, open for reading."""
        self.meta = meta
        """The games' metadata and vocabulary, the fingerprint and the entry count."""
        self.path = path
        """Its folder; None for an in-memory index."""
        self.built = built
        """True when this call built it."""
        self.warnings = warnings if warnings is not None else []
        """What went wrong on the way and was worked around."""
