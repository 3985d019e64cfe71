"""What the templates receive: the views of entries, sources, sections and pages, the labels they show, and each page's context.

The views are frozen dataclasses and the contexts TypedDicts (`PageContext`,
what every page receives, and one per kind of page); arrangement and the
page modules (game_pages, az_pages, build) fill them, templates/ reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from markupsafe import Markup

from rulebot.corpus.model import Alias, Game, Source
from rulebot.site import languages

N_ = languages.N_
KIND_LABELS = {
    "rule": N_("Rule"),
    "setup": N_("Setup"),
    "faq": N_("FAQ"),
    "errata": N_("Errata"),
    "fine-point": N_("Fine point"),
    "term": N_("Term"),
    "variant": N_("Variant"),
    "house-rule": N_("House rule"),
}
TRUST_LABELS = {
    "official": N_("Official"),
    "designer": N_("Designer ruling"),
    "community": N_("Community"),
    "house": N_("House"),
}


@dataclass(frozen=True)
class EntryLink:
    """A link to an entry, as listed under See also, Modifies and the like."""

    href: str
    """Relative to the page it appears on."""
    title: str
    """The entry's title."""
    note: str = ""
    """Where it is from when that is not obvious: an expansion or another game."""
    house: bool = False
    """The entry is a house rule (flagged wherever it is linked)."""


@dataclass(frozen=True)
class Citation:
    """Where an entry comes from."""

    source_title: str
    """Title of the source document."""
    source_href: str
    """The document on the sources page."""
    edition: str
    """Edition, version or revision (may be empty)."""
    date: str | None
    """The document's date, when known."""
    section: str
    """Where in the document."""
    trust: str
    """The source's trust level (kinds.TRUST_LEVELS)."""
    trust_label: str
    """The trust level for humans."""
    lang: str = "en"
    """The language of the source document: that of its title and of the section cited."""


@dataclass(frozen=True)
class EntryView:
    """One entry as a page shows it."""

    id: str
    """The entry id: the element's id and the URL anchor."""
    title: str
    """Title of the entry."""
    kind: str
    """One of kinds.KINDS."""
    kind_label: str
    """The kind for humans ("Fine point")."""
    expansion: str
    """The expansion's name, or "Base game"."""
    expansion_slug: str | None
    """The expansion's slug, None for the base game."""
    revised: str | None
    """ISO date of the edition of its source that marks the entry new or revised."""
    new: bool
    """That edition adds the entry (Entry.new)."""
    html: Markup
    """The entry text rendered (safe: raw HTML disabled, links checked)."""
    aliases: tuple[Alias, ...]
    """Other names of the entry (with their language)."""
    see_also: tuple[EntryLink, ...]
    """The entries it points to."""
    referenced_by: tuple[EntryLink, ...]
    """The entries whose See also names it."""
    modifies: tuple[EntryLink, ...]
    """The entries whose ruling it changes."""
    modified_by: tuple[EntryLink, ...]
    """The entries that change its ruling."""
    citation: Citation
    """Its source, edition and section."""
    draft: bool = False
    """Its text is still the source document's own (`draft: true`): badged."""
    house: bool = False
    """A house rule (kind house-rule, or a source of trust house): never an official ruling."""
    lang: str = "en"
    """The language of its title and text."""


@dataclass(frozen=True)
class SectionView:
    """The entries of a game page under one section heading, in source order."""

    title: str
    """The section's top heading (`section_heading`), shared by its entries."""
    lang: str
    """The language of the heading (the source's)."""
    anchor: str
    """Its element id (`s--<source>--<n>`, `--<part>` after it for a later part: never an entry id, which has no `--`)."""
    entries: tuple[EntryView, ...]
    """Its entries."""
    part_label: str = ""
    """"part 2 of 5" for a section cut over several pages; "" for a whole section."""
    span: str = ""
    """For a part, the sub-headings it runs over ("702. Keyword Abilities – 704. State-Based Actions")."""


@dataclass(frozen=True)
class SectionLink:
    """A section as the page of a split game lists it."""

    title: str
    """Its heading."""
    href: str
    """Its anchor on its page, from the listing page."""
    count: int
    """How many entries it has there."""


@dataclass(frozen=True)
class PageLink:
    """A page of a split game, or of a split A–Z, as lists and the pager link it."""

    href: str
    """The page, from the page linking it."""
    label: str
    """What it holds: a heading, "first – last heading", "heading (part 2 of 5)", a letter."""
    lang: str
    """The language of the label."""
    count: int
    """How many entries (or names) it shows."""
    span: str = ""
    """For a part: the sub-headings (or names) it runs over."""
    sections: tuple[SectionLink, ...] = ()
    """Its sections, when it holds several (and not more than LISTED_SECTIONS)."""


@dataclass(frozen=True)
class SourceView:
    """One source document with its entries, on a game page or the sources page."""

    source: Source
    """The document."""
    anchor: str
    """Its element id on the game page (`s--<source>`)."""
    href: str
    """Link to it on the page where it is shown (game page or sources page)."""
    trust_label: str
    """Its trust level for humans."""
    expansion: str
    """Name of the expansion it belongs to, or ""."""
    entry_count: int
    """How many entries restate it."""
    sections: tuple[SectionView, ...] = ()
    """Its entries by section (a page of entries only)."""
    pages: tuple[PageLink, ...] = ()
    """The pages of its entries (the page of a split game only)."""


@dataclass(frozen=True)
class IndexItem:
    """One name of the A–Z index."""

    name: str
    """A title or an alias."""
    lang: str
    """The name's language."""
    href: str
    """The entry it names."""
    target: str
    """The entry's title, when the name is an alias; "" for a title."""
    kind_label: str
    """The kind of the entry."""
    house: bool = False
    """The entry is a house rule."""


@dataclass(frozen=True)
class IndexLetter:
    """The names of the A–Z index under one letter."""

    letter: str
    """A–Z, or # for names starting otherwise."""
    anchor: str
    """Its element id (`az--<letter>`, `--<part>` after it for a later part)."""
    items: tuple[IndexItem, ...]
    """Its names, sorted."""
    part_label: str = ""
    """"part 2 of 3" for a letter cut over several pages of a split A–Z."""


@dataclass(frozen=True)
class GameSummary:
    """A game as the home and sources pages list it."""

    game: Game
    """The game."""
    href: str
    """Its entries page."""
    az_href: str
    """Its A–Z index."""
    sources_href: str
    """Its documents on the sources page."""
    anchor: str
    """Its element id on the sources page (`g--<slug>`)."""
    entry_count: int
    """How many entries it has."""
    sources: tuple[SourceView, ...]
    """Its documents."""
    house_count: int = 0
    """How many of its entries are house rules."""
    untranslated: bool = False
    """Whether its pages are not in the page's language (they are in the entries' own)."""


@dataclass(frozen=True)
class ChangeItem:
    """One entry of a game's "What's new"."""

    href: str
    """The entry, from the game page (on the page it is on)."""
    title: str
    """The entry's title."""
    kind_label: str
    """The entry's kind for humans."""
    note: str
    """Its expansion's name, or ""."""
    house: bool
    """The entry is a house rule."""
    draft: bool
    """The entry is a draft."""
    new: bool
    """The edition adds the entry (Entry.new), rather than revises it."""


@dataclass(frozen=True)
class ChangeGroup:
    """The entries of "What's new" that one edition of one source marks new or revised."""

    date: str
    """The entries' `revised` date (the edition that marks them), ISO `YYYY-MM-DD`."""
    after: str | None
    """The date of the edition before it (they changed after then), when the source lists its editions."""
    anchor: str
    """Its element id (`whats--new--<n>`)."""
    source_title: str
    """The source document of its entries."""
    source_href: str
    """That document on the game page."""
    items: tuple[ChangeItem, ...]
    """Its entries, in corpus order."""


class PageContext(TypedDict):
    """What every page receives (base.html)."""

    root: str
    """The relative path from the page to the site root: "" or "../"."""
    page: str
    """The page's path from the site root ("dune-imperium/a-z.html")."""
    page_title: str
    """The `<title>` of the page, before " · rulebot"."""
    game: Game | None
    """The game the page is about, for the game navigation; None elsewhere."""
    whats_new_href: str
    """The game's "What's new" from this page, for the game navigation; "" when it has none or no game."""
    setup_href: str
    """The game's setup page from this page, for the game navigation; "" when it has none or no game."""
    version: str
    """rulebot's version, for the footer."""
    page_lang: str
    """The page's language (its `<html lang>`)."""
    languages: list[languages.LanguageLink]
    """The page in each of its languages (rulebot.site.languages), for the language switch; empty for most pages."""


class HomeContext(PageContext):
    """index.html: the games."""

    games: list[GameSummary]
    """Every game, by name."""
    entry_count: int
    """Entries in the whole site."""


class GameContext(PageContext):
    """<game>/index.html: a game's entries by source and section."""

    sources: list[SourceView]
    """Its documents, each with its sections and entries, in source order."""
    entry_count: int
    """How many entries the game has."""
    whats_new: list[ChangeGroup]
    """The entries its sources mark new or revised (`revised`), newest first, by date and source; empty: no section."""
    whats_new_count: int
    """How many entries "What's new" lists."""


class GameContentsContext(PageContext):
    """<game>/index.html of a split game (rulebot.site.pages): its "What's new" and its pages, by source."""

    sources: list[SourceView]
    """Its documents, each with the pages of its entries, in source order."""
    entry_count: int
    """How many entries the game has."""
    whats_new: list[ChangeGroup]
    """As GameContext's."""
    whats_new_count: int
    """How many entries "What's new" lists."""
    page_count: int
    """How many pages its entries are on."""


class GameSectionContext(PageContext):
    """<game>/<source>--<heading>.html: one page of a split game's entries."""

    sources: list[SourceView]
    """Its source, with the sections and entries of this page."""
    label: str
    """What the page holds (`rulebot.site.pages.Page.label`)."""
    lang: str
    """The language of the label (its source's)."""
    entry_count: int
    """How many entries the page shows."""
    game_entry_count: int
    """How many entries the game has."""
    page_number: int
    """Which of the game's pages this is, from 1."""
    page_count: int
    """How many pages the game's entries are on."""
    previous: PageLink | None
    """The page before, if any."""
    next: PageLink | None
    """The page after, if any."""


class IndexContext(PageContext):
    """<game>/a-z.html, and a split A–Z's pages of a letter: a game's names from A to Z."""

    letters: list[IndexLetter]
    """The letters whose names this page lists (none on the first page of a split A–Z)."""
    name_count: int
    """How many names the whole index lists."""
    letter_links: list[PageLink]
    """Every letter of the index, linked to its names (on this page, or its first page)."""
    pages: list[PageLink]
    """Every page of a split A–Z, on its first page; empty otherwise."""
    label: str
    """The letter (and part) of a page of a split A–Z; "" on `a-z.html`."""


class SourcesContext(PageContext):
    """sources.html: every document, by game."""

    games: list[GameSummary]
    """Every game with its sources, by name."""
