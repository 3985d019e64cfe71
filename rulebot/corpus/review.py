"""What `rulebot check` runs: the corpus's problems, then what a curator should look at.

Warnings are synonyms that could lead a question to the wrong game
(rulebot.corpus.vocabulary), `revised` dates that name no edition marking a
change (rulebot.corpus.changes) and, given the source documents, ambiguous
citations (rulebot.corpus.citations, whose dangling citations are problems);
draft entries are counted apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.changes import old_style_marks
from rulebot.corpus.load import check
from rulebot.corpus.model import Corpus
from rulebot.corpus.vocabulary import synonym_collisions
from rulebot.errors import Problem


@dataclass
class Review:
    """What `rulebot check` found: problems fail, warnings only inform (unless strict)."""

    corpus: Corpus
    """The corpus as loaded (entries with problems left out)."""
    problems: list[Problem] = field(default_factory=list)
    """Mistakes: the check fails when there is any."""
    warnings: list[Problem] = field(default_factory=list)
    """Things a curator should look at (synonyms that could mislead, ambiguous citations); problems under --strict."""
    drafts: list[Problem] = field(default_factory=list)
    """Draft entries; problems under --strict."""
    notes: list[str] = field(default_factory=list)
    """One-line facts for the summary (citations verified, documents missing)."""


def review(dirs: Iterable[Path], *, strict: bool = False, sources: Path | None = None) -> Review:
    """Check a corpus as `rulebot check` does: problems, drafts, and cited sections when `sources` is given.

    With `strict`, warnings and drafts are moved to the problems.
    """
    loaded, problems = check(dirs)
    result = Review(loaded, problems, warnings=synonym_collisions(loaded) + old_style_marks(loaded), drafts=drafts(loaded))
    if sources is not None:
        from rulebot.corpus import citations  # only with the documents: reading them takes the import's parsers

        verified = citations.verify(loaded, sources)
        result.problems.extend(verified.dangling)
        result.warnings.extend(verified.ambiguous)
        result.notes.append(verified.summary())
    if strict:
        result.problems.extend(result.warnings + result.drafts)
        result.warnings, result.drafts = [], []
    return result


def drafts(corpus: Corpus) -> list[Problem]:
    """One 'entry X is a draft' notice per draft entry, at its heading."""
    return [Problem(e.path, e.line, f"entry {e.id!r} is a draft") for e in corpus.entries.values() if e.draft]
