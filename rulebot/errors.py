"""The exceptions rulebot raises; the CLI turns each into a one-line error."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple


class RulebotError(Exception):
    """Base class of every error rulebot reports to its user."""


class Problem(NamedTuple):
    """One mistake found in a corpus, located at a file and line."""

    path: str
    """The file, as the user named it (relative where possible)."""
    line: int
    """1-based line number; 0 when the problem is about the file as a whole."""
    message: str
    """What is wrong, in one line."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


SHOWN_PROBLEMS = 3
"""A corpus warning names this many problems at most, the first in the files (`rulebot check` lists them all): it
comes before every answer while they last, where a player who cannot fix them reads it too."""


def corpus_warning(problems: list[Problem], left_out: list[str]) -> str | None:
    """The one warning that a corpus was loaded without what has problems: what was left out,
    then each problem as FILE:LINE: message, on lines of their own; None when there is none."""
    if not problems and not left_out:
        return None
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}" if problems else "problems"
    lines = [f"the corpus has {count}; " + (f"left out: {'; '.join(left_out)}" if left_out else "every entry is kept")]
    first = sorted(problems, key=lambda problem: (problem.path, problem.line))[:SHOWN_PROBLEMS]
    lines.extend(f"  {problem}" for problem in first)
    if len(problems) > SHOWN_PROBLEMS:
        lines.append(f"  and {len(problems) - SHOWN_PROBLEMS} more (`rulebot check` lists them all)")
    return "\n".join(lines)


class CorpusError(RulebotError):
    """Raised by the corpus loader when a corpus has problems; holds all of them."""

    def __init__(self, problems: list[Problem], total: int | None = None):
        self.problems = problems
        """What to list (at most some per file: rulebot.corpus.load.at_most_per_file)."""
        from rulebot.text import plural

        self.summary = f"the corpus has {plural(len(problems) if total is None else total, 'problem')}"
        """How many, for a reader who is shown every problem listed (`rulebot check`, the command line)."""
        # (the message itself names the first, for a script that only prints the error)
        first = f": {problems[0]}" + (" and more (see .problems)" if len(problems) > 1 else "") if problems else ""
        super().__init__(self.summary + first)


class UnknownGameError(RulebotError):
    """Raised when a game slug names no game of the corpus."""

    @classmethod
    def among(cls, value: str, names: Mapping[str, Iterable[str]]) -> UnknownGameError:
        """The error for a value that is no slug of `names` ({slug: the game's name and aliases}),
        with the games it may mean: a slug it begins, a game it names, a close spelling."""
        from rulebot.text import meant, unknown

        return cls(unknown("game", value, names, meant(value, names)))


class UnknownExpansionError(RulebotError):
    """Raised when a name is no expansion (of the game given), names expansions of several games
    without a game to choose, or is `base` without a game."""


class UnknownKindError(RulebotError):
    """Raised when a kind is none of the kinds of entries (rulebot.corpus.kinds.KINDS)."""


class UsageError(RulebotError, ValueError):
    """Raised for an argument rulebot cannot take: of the wrong type, out of its range, a corpus folder that is not there.

    A ValueError too, so that a script's `except ValueError` catches a bad argument as it would Python's own;
    the errors about what the corpus has (an unknown game, kind, expansion) are RulebotErrors only.
    """


class UnknownEntryError(RulebotError):
    """Raised when an id names no entry of the corpus."""


class SetupError(RulebotError):
    """Raised for a setup checklist that cannot be made: a game without setup data, a player count it is not played by."""


class IndexBuildError(RulebotError):
    """Raised by the index builder when an index cannot be built anywhere."""


class QueryError(RulebotError):
    """Raised by the searcher for a question it refuses (empty or too long)."""


class SiteError(RulebotError):
    """Raised by the site builder for an output folder it refuses or cannot write, or a site it cannot serve."""


class PackageWriteError(RulebotError):
    """Raised before any write inside the installed rulebot package (rulebot.places.outside_package)."""


class WriteError(RulebotError):
    """Raised by rulebot.atomic for a file or folder it cannot write (it is then as it was) or that another command is writing."""


class CurationError(RulebotError):
    """Raised by the curator's tools (import, new, changes, citations) for a document, file or folder they cannot use."""
