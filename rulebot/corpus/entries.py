"""Parsing one entries file: its entries, each checked on its own, with every problem at its line.

What needs other files (a reference to another entry, an id used twice, a
name claimed twice) is checked by the loader and rulebot.corpus.checks. What
a parse depends on is all in its arguments, so that a parse can be kept and
reused while the file is unchanged (rulebot.corpus.load.ParsedFiles).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulebot.corpus.format import (
    BOOLEANS,
    ENTRY_KEYS,
    ID_RE,
    LANGUAGE_KEY_RE,
    REQUIRED_ENTRY_KEYS,
    RawEntry,
    is_date,
    not_an_id,
    split_entries,
    split_list,
    without_draft_notes,
)
from rulebot.corpus.kinds import HOUSE_KIND, KINDS
from rulebot.corpus.model import Alias, Entry, Game, Source
from rulebot.errors import Problem


@dataclass
class ParsedFile:
    """An entries file's entries, and the problems found in it alone (not those that need other files)."""

    entries: list[Entry]
    """Its valid entries, in file order."""
    problems: list[Problem]
    """Its problems, in file order."""
    rejected: list[str]
    """Ids of the entries with problems of their own."""
    rejected_lines: list[int]
    """The line of the heading of each of them (an id written twice is a problem whichever of the two has others)."""


def parse_file(path: Path, text: str, game: Game, source: Source, shown: str, house_only: bool) -> ParsedFile:
    """The entries of one file of a game's source, shown as `shown`, with the problems found in it alone.

    `house_only`: the file is in a house-rules folder, which holds only house rules.
    """
    problems: list[Problem] = []
    entries, rejected, rejected_lines = [], [], []
    preamble: list[tuple[int, str]] = []
    for raw in split_entries(path, text, preamble):
        if raw.problems:
            problems.extend(Problem(shown, line, message) for line, message in raw.problems)
        # An entry with a problem in how it is written (an unclosed fence, an escape sequence) is left out too.
        entry = None if raw.oversized else make_entry(raw, game, source, shown, problems)
        if raw.problems:
            entry = None
        if entry is not None and house_only and entry.kind != HOUSE_KIND:
            # Added to a game someone else curates, it must never pass for an official ruling.
            line = raw.headers.get("kind", ("", raw.line))[1]
            problems.append(
                Problem(shown, line, f"entry {entry.id!r} is kind {entry.kind!r}: a house-rules folder holds only kind: {HOUSE_KIND} entries")
            )
            entry = None
        if entry is None:
            rejected.append(raw.id)
            rejected_lines.append(raw.line)
        else:
            entries.append(entry)
    problems[:0] = (Problem(shown, line, message) for line, message in preamble)
    return ParsedFile(entries, problems, rejected, rejected_lines)


def make_entry(raw: RawEntry, game: Game, source: Source, shown: str, problems: list[Problem]) -> Entry | None:
    """The entry of a raw entry of the file shown as `shown`, or None after adding its problems to `problems`."""
    ok = True

    def bad(line: int, message: str) -> None:
        nonlocal ok
        ok = False
        problems.append(Problem(shown, line, message))

    if not ID_RE.match(raw.id):
        bad(raw.line, not_an_id("id", raw.id))
    elif not raw.id.startswith(game.id_prefix + "-"):
        bad(raw.line, f"id {raw.id!r} must start with the game's id_prefix {game.id_prefix + '-'!r}")
    headers = raw.headers
    phrases: dict[str, list[Alias]] = {"aliases": [], "asked": []}
    for key, (value, line) in headers.items():
        if key in phrases:
            phrases[key].extend(Alias(text, "en") for text in split_list(value))
        elif (m := LANGUAGE_KEY_RE.match(key)) is not None:
            phrases[m.group(1)].extend(Alias(text, m.group(2)) for text in split_list(value))
        elif key not in ENTRY_KEYS:
            bad(line, f"unknown key {key!r} (known: {', '.join(sorted(ENTRY_KEYS))}, aliases-XX, asked-XX)")
    for key in REQUIRED_ENTRY_KEYS:
        if not headers.get(key, ("", 0))[0]:
            where = headers[key][1] if key in headers else raw.line
            bad(where, f"entry {raw.id!r} has no {key}")
    kind, kind_line = headers.get("kind", ("", raw.line))
    if kind and kind not in KINDS:
        bad(kind_line, f"unknown kind {kind!r} (one of: {', '.join(KINDS)})")
    expansion: str | None = source.expansion
    if "expansion" in headers:
        value, line = headers["expansion"]
        if value in ("", "base"):
            expansion = None
        elif game.expansion(value) is None:
            known = ", ".join(e.slug for e in game.expansions) or "none"
            bad(line, f"unknown expansion {value!r} (known: {known})")
        else:
            expansion = value
    revised, revised_line = headers.get("revised", ("", 0))
    if revised and not is_date(revised):
        bad(revised_line, f"revised must be a date YYYY-MM-DD, not {revised!r}")
    elif revised and source.editions and revised not in source.edition_dates():
        # A source that lists its editions dates a change by the edition that marks it.
        dates = ", ".join(source.edition_dates())
        bad(revised_line, f"revised {revised} is no edition of source {source.id!r} (its editions: {dates})")
    draft, draft_line = headers.get("draft", ("", 0))
    if draft not in BOOLEANS:
        bad(draft_line, f"draft must be true or false, not {draft!r}")
    new, new_line = headers.get("new", ("", 0))
    if new not in BOOLEANS:
        bad(new_line, f"new must be true or false, not {new!r}")
    elif BOOLEANS.get(new) and not revised:
        bad(new_line, "new goes with revised: the date of the edition that adds the entry")
    # (a draft's notes to its curator are no part of the ruling: players never read them)
    text = "\n".join(raw.body).strip()
    if BOOLEANS.get(draft):
        text = "\n".join(without_draft_notes(raw.body)).strip() or text
    if not text:
        bad(raw.line, f"entry {raw.id!r} has no text")
    if not ok:
        return None
    return Entry(
        id=raw.id,
        game=game.slug,
        kind=kind,
        title=headers["title"][0],
        text=text,
        source=source.id,
        section=headers["section"][0],
        expansion=expansion,
        aliases=tuple(phrases["aliases"]),
        asked=tuple(phrases["asked"]),
        see_also=tuple(split_list(headers.get("see_also", ("", 0))[0])),
        modifies=tuple(split_list(headers.get("modifies", ("", 0))[0])),
        revised=revised or None,
        new=BOOLEANS.get(new, False),
        draft=BOOLEANS.get(draft, False),
        path=shown,
        line=raw.line,
    )
