"""A new entry, ready to fill in (`rulebot new`), and writing curator files safely."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulebot.corpus import format_entry
from rulebot.errors import CurationError
from rulebot.importer import slugify, unique_id
from rulebot.kinds import KINDS
from rulebot.model import Corpus


@dataclass(frozen=True)
class Scaffold:
    """An empty entry block with a fresh id, and the entries file it belongs in."""

    id: str
    """A fresh id: the game's prefix and the title's slug, or the kind and a number."""
    block: str
    """The entry in the entries-file format, its required values left to fill."""
    path: Path
    """The entries file of its source (which may not exist yet)."""


def scaffold(corpus: Corpus, game: str, kind: str, source: str | None = None, title: str | None = None) -> Scaffold:
    """An entry block for a game's source (its first source by default) with a fresh unique id.

    The title is filled when given; the section and the text are left empty,
    so that `rulebot check` points at what is still to write. UnknownGameError
    for an unknown game, CurationError for an unknown kind or source.
    """
    the_game = corpus.game(game)
    if kind not in KINDS:
        raise CurationError(f"unknown kind {kind!r} (one of: {', '.join(KINDS)})")
    if not the_game.sources:
        raise CurationError(f"{game} declares no source in its game.toml")
    the_source = the_game.source(source) if source else the_game.sources[0]
    if the_source is None:
        known = ", ".join(s.id for s in the_game.sources)
        raise CurationError(f"no source {source!r} in {game} (declared: {known})")
    taken = set(corpus.entries)
    if title and title.strip():
        entry_id = unique_id(the_game.id_prefix, title, taken)
    else:
        number = 1
        while f"{the_game.id_prefix}-{slugify(kind)}-{number}" in taken:
            number += 1
        entry_id = f"{the_game.id_prefix}-{slugify(kind)}-{number}"
    headers = [("title", (title or "").strip()), ("kind", kind), ("section", ""), ("aliases", ""), ("see_also", "")]
    return Scaffold(entry_id, format_entry(entry_id, headers, ""), entries_file(corpus, game, the_source.id))


def entries_file(corpus: Corpus, game: str, source: str) -> Path:
    """Where a source's entries are: the file of its first entry, else `<source>.md` beside the game's game.toml."""
    for entry in corpus.entries_of(game):
        if entry.source == source:
            return Path(entry.path)
    return Path(corpus.game(game).path).parent / f"{source}.md"


def append(scaffold: Scaffold) -> Path:
    """Add the entry block at the end of its entries file (created if missing); the file's path."""
    path = scaffold.path
    try:
        existing = path.read_text(encoding="utf-8") if path.exists() else ""
        separator = "" if not existing else ("\n" if existing.endswith("\n\n") else ("\n\n" if not existing.endswith("\n") else "\n"))
        with path.open("a", encoding="utf-8") as handle:
            handle.write(separator + scaffold.block)
    except OSError as exc:
        raise CurationError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def write_new(path: Path, text: str, force: bool = False) -> None:
    """Write a file, refusing to replace an existing one unless `force`."""
    if path.exists() and not force:
        raise CurationError(f"{path} exists: add --force to replace it")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CurationError(f"cannot write {path}: {exc.strerror or exc}") from None
