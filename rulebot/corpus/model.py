"""The corpus data model: games, their sources and expansions, and entries."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING

from rulebot.corpus.kinds import HOUSE_KIND, HOUSE_TRUST

TEXT_LANGUAGE = "en"
"""The language of an entry's own title and text, and of its `aliases` and `asked` (other languages: `aliases-fr`...)."""

if TYPE_CHECKING:
    from rulebot.corpus.setup import GameSetup
    from rulebot.errors import Problem


@dataclass(frozen=True)
class Expansion:
    """An expansion of a game, which entries may belong to."""

    slug: str
    """Identifier used by `--with` and the `expansion` key of entries."""
    name: str
    """Display name."""
    year: int | None = None
    """Year of publication, when known."""


@dataclass(frozen=True)
class Edition:
    """An earlier edition of a source document, which the marks of a later one refer to."""

    date: str
    """Its date, ISO `YYYY-MM-DD`."""
    edition: str = ""
    """Its name, free text ("14 Feb 2021")."""


@dataclass(frozen=True)
class Source:
    """A document that entries restate and cite."""

    id: str
    """Identifier; the entries file of the source is named after it."""
    title: str
    """The document's title as a reader would look for it."""
    edition: str = ""
    """Edition, version or revision, free text."""
    date: str | None = None
    """The document's date, ISO `YYYY-MM-DD`, when known."""
    language: str = "en"
    """Language of the document (two-letter code)."""
    trust: str = "official"
    """One of rulebot.corpus.kinds.TRUST_LEVELS."""
    expansion: str | None = None
    """Default expansion of the entries restating this source."""
    editions: tuple[Edition, ...] = ()
    """Its earlier editions, oldest first (the document itself, `date`, is the latest): an entry's `revised`
    names the edition that changed it, so that the change is dated between that edition and the one before."""

    def edition_dates(self) -> list[str]:
        """The dates of its editions, oldest first: the earlier ones, then its own (when it has one)."""
        return [e.date for e in self.editions] + ([self.date] if self.date else [])
    headings: tuple[tuple[str, str], ...] = ()
    """For a document in another language than the entries' texts: its section headings in that language, as
    (the heading as the document has it, the heading in the entries' language), for the pages in that language."""

    def heading(self, title: str) -> str | None:
        """A section heading of the document in the entries' language, None when the corpus does not give it."""
        return dict(self.headings).get(title)

    document: str = ""
    """The file name of the curator's copy of the document (`check --sources`), when not `<id>.md`, `.txt` or `.pdf`."""


@dataclass(frozen=True)
class Alias:
    """A phrase players type for an entry, in a language: another name, or a question it answers."""

    text: str
    """The phrase itself."""
    lang: str = TEXT_LANGUAGE
    """Its language (two-letter code)."""


@dataclass(frozen=True)
class Translation:
    """An entry's title and text in another language than its own, from a translation file (`<source>.<lang>.md`)."""

    lang: str
    """Its language (two-letter code)."""
    title: str
    """The title in that language."""
    text: str
    """The text in that language, in Markdown."""
    path: str = ""
    """The translation file it was read from."""
    line: int = 0
    """The line of its heading in that file."""


@dataclass(frozen=True)
class Game:
    """A game of the corpus with its metadata and vocabulary."""

    slug: str
    """Identifier used by `--game` and in URLs."""
    name: str
    """Display name."""
    id_prefix: str
    """Every entry id of the game starts with this and a hyphen."""
    publisher: str = ""
    """Publisher of the game."""
    year: int | None = None
    """Year of publication."""
    language: str = "en"
    """Language of the game's sources."""
    aliases: tuple[str, ...] = ()
    """Names players use for the game itself ("dune", "res arcana")."""
    expansions: tuple[Expansion, ...] = ()
    """The game's expansions."""
    sources: tuple[Source, ...] = ()
    """The documents the game's entries restate."""
    synonyms: tuple[tuple[str, ...], ...] = ()
    """Groups of words meaning the same thing in this game, expanded at query time."""
    french: tuple[tuple[str, ...], ...] = ()
    """Groups of French words players use and the words of the rules they mean: synonyms for French questions only."""
    terms: tuple[str, ...] = ()
    """Words that on their own point at this game."""
    path: str = ""
    """The `game.toml` it was read from."""

    def source(self, source_id: str) -> Source | None:
        """The source with this id, or None."""
        return next((s for s in self.sources if s.id == source_id), None)

    def expansion(self, slug: str) -> Expansion | None:
        """The expansion with this slug, or None."""
        return next((e for e in self.expansions if e.slug == slug), None)


@dataclass(frozen=True)
class Entry:
    """One ruling: a rule clause, setup step, fine point, FAQ answer or erratum."""

    id: str
    """Stable unique id, the entry's anchor and what `rulebot show` takes."""
    game: str
    """Slug of the game."""
    kind: str
    """One of rulebot.corpus.kinds.KINDS."""
    title: str
    """The card or topic name, or the question of an FAQ."""
    text: str
    """The ruling, in Markdown."""
    source: str
    """Id of the source document it restates."""
    section: str
    """Where in the source: section, heading, entry or page."""
    expansion: str | None = None
    """Slug of the expansion it belongs to; None for the base game."""
    aliases: tuple[Alias, ...] = ()
    """Other names players type for it."""
    asked: tuple[Alias, ...] = ()
    """Questions players ask that it answers, in their own words (not the entry's)."""
    see_also: tuple[str, ...] = ()
    """Ids of related entries."""
    modifies: tuple[str, ...] = ()
    """Ids of entries whose ruling this one changes."""
    revised: str | None = None
    """ISO date of the edition of its source that marks the entry new or revised (it changed after the
    edition before that one: Source.editions)."""
    new: bool = False
    """The edition of `revised` adds the entry, rather than revises it (`new: true`, as an import of that edition
    writes it of a rule it did not have before)."""
    draft: bool = False
    """Imported and not yet rewritten: its text is still the document's own (`rulebot import`)."""
    translations: tuple[Translation, ...] = ()
    """Its title and text in other languages than its own (TEXT_LANGUAGE), one per language."""
    path: str = ""
    """The file it was read from."""
    line: int = 0
    """The line of its heading in that file."""

    def names(self) -> Iterator[str]:
        """The title and every alias."""
        yield self.title
        for alias in self.aliases:
            yield alias.text

    def translation(self, lang: str) -> Translation | None:
        """Its title and text in a language other than its own, if it has them."""
        return next((t for t in self.translations if t.lang == lang), None)


@dataclass
class Corpus:
    """Every game and entry of one or more corpus folders."""

    games: dict[str, Game] = field(default_factory=dict)
    """Games by slug, in the order they were loaded."""
    entries: dict[str, Entry] = field(default_factory=dict)
    """Entries by id, in the order of their files."""
    setups: dict[str, GameSetup] = field(default_factory=dict)
    """The setup of each game that has a setup.toml, by slug."""
    shared_synonyms: set[tuple[str, ...]] = field(default_factory=set)
    """The synonym groups every game of a folder has: the everyday ones (rulebot.language.everyday) and those of the
    corpus folders' vocabulary.toml."""
    problems: list[Problem] = field(default_factory=list)
    """The problems found as it was loaded (rulebot.corpus.load: all of them by check, at most a few per file by
    load_usable, which leaves out what has them); empty when made otherwise."""
    left_out: list[str] = field(default_factory=list)
    """What was left out for them, in words ("2 entries of catalyst/rulebook.md")."""

    def game(self, slug: str) -> Game:
        """The game with this slug, or that a name means (its name, an alias, the start of one slug alone: as a
        question's `--game` is read, rulebot.text.named); UnknownGameError if there is none, saying why when its
        folder is left out of the corpus for a problem (a game.toml that does not read) rather than not there."""
        from rulebot.errors import UnknownGameError
        from rulebot.text import named

        try:
            return self.games[slug]
        except KeyError:
            pass
        # A game of that very slug left out (a problem of its folder or of its game.toml: those of its entries files
        # leave the game in) is said so, before a name of another game is looked for ("res" is not res-arcana then).
        own = [p for p in self.problems if PurePath(p.path).parts[-2:] == (slug, "game.toml") or PurePath(p.path).name == slug]
        if own:
            more = f" (and {len(own) - 1} more: `rulebot check` lists them)" if len(own) > 1 else ""
            raise UnknownGameError(f"the game {slug!r} is left out of the corpus for a problem: {own[0]}{more}")
        names = {s: [g.name, *g.aliases] for s, g in self.games.items()}
        meant = named(slug, names)
        if meant is not None:
            return self.games[meant]
        raise UnknownGameError.among(slug, names)

    def entry(self, entry_id: str) -> Entry:
        """The entry with this id; UnknownEntryError if there is none."""
        from rulebot.errors import UnknownEntryError

        try:
            return self.entries[entry_id]
        except KeyError:
            raise UnknownEntryError(f"no entry {entry_id!r}") from None

    def is_house_rule(self, entry: Entry) -> bool:
        """Whether an entry is a house rule: of kind house-rule, or restating a source of trust house."""
        source = self.games[entry.game].source(entry.source)
        return entry.kind == HOUSE_KIND or (source is not None and source.trust == HOUSE_TRUST)

    def entries_of(self, game: str) -> list[Entry]:
        """The entries of one game, in corpus order."""
        return [e for e in self.entries.values() if e.game == game]

    def referenced_by(self) -> dict[str, list[str]]:
        """For each entry id, the ids of the entries whose `see_also` names it."""
        back: dict[str, list[str]] = {}
        for entry in self.entries.values():
            for target in entry.see_also:
                back.setdefault(target, []).append(entry.id)
        return back

    def modified_by(self) -> dict[str, list[str]]:
        """For each entry id, the ids of the entries that modify it."""
        back: dict[str, list[str]] = {}
        for entry in self.entries.values():
            for target in entry.modifies:
                back.setdefault(target, []).append(entry.id)
        return back
