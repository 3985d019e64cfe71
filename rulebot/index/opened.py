"""An opened index, as searching sees it: the read-only side of rulebot.index.

rulebot.search imports this and rulebot.index.reader, never the code that
builds or updates an index, nor Whoosh's file layout (import-linter
contracts in pyproject.toml keep it so).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from rulebot.index.reader import IndexReader

ALL_GAMES = "*"
"""Key of the synonym table that merges every game's, in the index metadata."""

SYNONYMS_PREFIX = "rulebot-synonyms-"
SYNONYMS_FILE = SYNONYMS_PREFIX + "{}.json"
"""Beside a built index: the synonym tables for questions in one language (the French ones, with every game's
French words, are ten times the English ones), read only when a question in that language comes."""


class SynonymFiles(Mapping[str, dict[str, list[list[Any]]]]):
    """The synonym tables of a built index by question language, each file parsed the first time it is asked for."""

    def __init__(self, folder: Path, languages: list[str], contents: Mapping[str, bytes]) -> None:
        self._folder = folder
        self._languages = languages
        self._contents = contents
        """The index's files when it was read whole (and checked): no second read."""
        self._read: dict[str, dict[str, list[list[Any]]]] = {}

    def __getitem__(self, language: str) -> dict[str, list[list[Any]]]:
        if language not in self._read:
            if language not in self._languages:
                raise KeyError(language)
            name = SYNONYMS_FILE.format(language)
            data = self._contents.get(name)
            self._read[language] = json.loads(data if data is not None else (self._folder / name).read_bytes())
        return self._read[language]

    def __iter__(self) -> Iterator[str]:
        return iter(self._languages)

    def __len__(self) -> int:
        return len(self._languages)


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
