"""What changed: the entries of a game that are new or revised since a date (`rulebot changes`).

An entry's date is the date by which it changed: its `revised` date when it
has one (the edition of its source that marks it new or revised; it changed
after the edition before that one, when the source lists its editions), else
the date of its source document: of its oldest edition when the source lists
earlier ones (an entry the later editions do not mark dates from then or
before), else of the document (a new document makes all its entries new).
Entries with neither have no date and are never listed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from rulebot.corpus.format import DATE_RE
from rulebot.corpus.model import Corpus, Entry
from rulebot.errors import CurationError, Problem

REVISED = "revised"
"""The entry's own `revised` date counted."""
NEW = "new"
"""The entry's own `revised` date counted, of the edition that adds it (`new: true`)."""
OLDEST_EDITION = "oldest-edition"
"""The entry has no `revised` date and its source lists earlier editions: the oldest one's date counted (the
entry dates from then or before, no later edition marking it)."""
SOURCE = "source"
"""The entry has no `revised` date and its source lists no earlier editions: the source's date counted."""
LABELS = {NEW: "new", REVISED: "new or revised", OLDEST_EDITION: "oldest edition", SOURCE: "source date"}
"""How `rulebot changes` names each reason. A `revised` date alone marks an entry new or revised in that edition, as
the sources' own marks do (a FAQ's "new or revised" mark); `new: true` says the edition adds it."""


@dataclass(frozen=True)
class Change:
    """An entry new or revised since the date asked for."""

    entry: Entry
    """The entry."""
    date: str
    """The date that counted, ISO `YYYY-MM-DD`."""
    because: str
    """NEW or REVISED (the entry's `revised` date, of an edition that adds it or not), OLDEST_EDITION (its source's oldest edition's) or SOURCE (its
    source's date)."""
    after: str | None = None
    """For NEW and REVISED: the date of the edition before the one that marks it (it changed after then), if known."""


def changes(corpus: Corpus, game: str, since: str | None = None) -> list[Change]:
    """The entries of a game dated `since` or later (every dated entry when None), newest first.

    Ties keep corpus order. UnknownGameError for an unknown game;
    CurationError when `since` is not a date YYYY-MM-DD.
    """
    the_game = corpus.game(game)
    if since is not None:
        since = parse_date(since)
    found = []
    for entry in corpus.entries_of(game):
        source = the_game.source(entry.source)
        listed = bool(source and source.editions)  # only a source that lists its editions says which came before
        editions = source.edition_dates() if source else []
        if entry.revised:
            earlier = [d for d in editions if d < entry.revised] if listed else []
            change = Change(entry, entry.revised, NEW if entry.new else REVISED, earlier[-1] if earlier else None)
        elif editions:
            change = Change(entry, editions[0], OLDEST_EDITION if listed else SOURCE)
        else:
            continue
        if since is None or change.date >= since:
            found.append(change)
    # Stable sort: newest first, corpus order within a date.
    return sorted(found, key=lambda c: c.date, reverse=True)


def undated(corpus: Corpus, game: str) -> dict[str, int]:
    """How many entries of each source of a game `changes` cannot date: no `revised`, and a source with no date."""
    the_game = corpus.game(game)
    counts: dict[str, int] = {}
    for entry in corpus.entries_of(game):
        source = the_game.source(entry.source)
        if not entry.revised and not (source and source.edition_dates()):
            counts[entry.source] = counts.get(entry.source, 0) + 1
    return counts


def old_style_marks(corpus: Corpus) -> list[Problem]:
    """A warning for each `revised` date that can name no edition marking a change: before its source's oldest
    edition, or that edition itself when the source lists earlier ones (none came before it). Such a date is
    most likely an old mark, when `revised` meant the date the entry had changed since."""
    from rulebot.corpus.format import header_line

    warnings = []
    for entry in corpus.entries.values():
        source = corpus.games[entry.game].source(entry.source)
        dates = source.edition_dates() if source else []
        if not entry.revised or not dates:
            continue
        oldest = dates[0]
        if entry.revised < oldest or (source and source.editions and entry.revised == oldest):
            warnings.append(Problem(
                entry.path, header_line(entry, "revised"),
                f"revised {entry.revised} is no later than the oldest edition of source {entry.source!r} ({oldest}):"
                " `revised` is the date of the edition that marks the entry changed, no longer a date it changed since",
            ))
    return warnings


def parse_date(value: str) -> str:
    """A date YYYY-MM-DD as ISO text; CurationError for anything else."""
    value = value.strip()
    try:
        if DATE_RE.match(value):
            return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise CurationError(f"not a date YYYY-MM-DD: {value!r}")
