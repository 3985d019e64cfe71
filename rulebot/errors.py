"""The exceptions rulebot raises; the CLI turns each into a one-line error."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class RulebotError(Exception):
    """Base class of every error rulebot reports to its user."""


@dataclass(frozen=True)
class Problem:
    """One mistake found in a corpus, located at a file and line."""

    path: str
    """The file, as the user named it (relative where possible)."""
    line: int
    """1-based line number; 0 when the problem is about the file as a whole."""
    message: str
    """What is wrong, in one line."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class CorpusError(RulebotError):
    """Raised by the corpus loader when a corpus has problems; holds all of them."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        from rulebot.text import plural

        super().__init__(f"the corpus has {plural(len(problems), 'problem')}")


class UnknownGameError(RulebotError):
    """Raised when a game slug names no game of the corpus."""

    @classmethod
    def among(cls, value: str, names: Mapping[str, Iterable[str]]) -> UnknownGameError:
        """The error for a value that is no slug of `names` ({slug: the game's name and aliases}),
        with the games it may mean: a slug it begins, a game it names, a close spelling."""
        from rulebot.text import meant, unknown

        return cls(unknown("game", value, names, meant(value, names)))


class UnknownEntryError(RulebotError):
    """Raised when an id names no entry of the corpus."""


class IndexBuildError(RulebotError):
    """Raised by the index builder when an index cannot be built anywhere."""


class QueryError(RulebotError):
    """Raised by the searcher for a question it refuses (empty or too long)."""


class SiteError(RulebotError):
    """Raised by the site builder for an output folder it refuses or cannot write, or a site it cannot serve."""


class CurationError(RulebotError):
    """Raised by the curator's tools (import, new, changes, citations) for a document, file or folder they cannot use."""
