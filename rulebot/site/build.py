"""The static reference site: a page (or pages of sections) per game, an A–Z index, sources, search.

`build` renders every page in memory from a loaded corpus, then writes them
into a fresh folder beside the output folder and swaps it in, so a failed
build never leaves half a site. The output is a function of the corpus alone
(no timestamps, sorted iteration): the same corpus gives byte-identical files.

Layout of a built site (`_` folders cannot clash with a game slug)::

    index.html               the games
    sources.html             every source document, its edition and trust
    <game>/index.html        the game's entries by source and section, after
                             its "What's new" (`#whats--new`, when it has any);
                             for a large game, its "What's new" and its pages
    <game>/<source>--<heading>.html
                             a large game's pages of entries (rulebot/site_pages.py)
    <game>/a-z.html          the game's cards and terms, A to Z (for a large
                             game, its letters, each on `a-z-<letter>.html`)
    _static/                 CSS and the search script (templates/static/)
    _search/games.js         the games, for the search (rulebot/site_search.py)
    _search/lexicon.js       every game's words, for the search on a game's page
    _search/<game>.names.js  the game's entry names and pages, for the search
    _search/<game>.index.js  the game's entries as the search index has them
    _search/<game>.texts.js  the game's entry texts, for the search (a file per page: .texts-<n>.js)
    .rulebot-site            marks the folder as made by rulebot

`serve` serves a built site over HTTP on the loopback, for `rulebot site
serve` and the browser tests.
"""

from __future__ import annotations

import functools
import http.server
import os
import posixpath
import shutil
import tempfile
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypedDict

import jinja2
from markupsafe import Markup

from rulebot.corpus.changes import REVISED, changes
from rulebot.corpus.model import Alias, Corpus, Entry, Game, Source
from rulebot.errors import SiteError
from rulebot.places import outside_package, shipped
from rulebot.site import languages, setup_page
from rulebot.site import pages as site_pages
from rulebot.site import search_data as site_search
from rulebot.site.links import LinkContext, NameTable, to_html
from rulebot.site.pages import Page, az_page, layout_game
from rulebot.text import fold
from rulebot.version import __version__

MARKER = ".rulebot-site"
"""The file that marks a folder as a site built by rulebot (which it may replace)."""
MARKER_TEXT = "This folder is a site built by rulebot; `rulebot site build` replaces all of it.\n"
STATIC_DIR = "_static"
"""Where templates/static/ is copied in the output."""

N_ = languages.N_
KIND_LABELS = {
    "rule": N_("Rule"),
    "setup": N_("Setup"),
    "faq": N_("FAQ"),
    "errata": N_("Errata"),
    "fine-point": N_("Fine point"),
    "variant": N_("Variant"),
    "house-rule": N_("House rule"),
}
TRUST_LABELS = {
    "official": N_("Official"),
    "designer": N_("Designer ruling"),
    "community": N_("Community"),
    "house": N_("House"),
}
LISTED_SECTIONS = 12
"""The page of a split game lists the sections of each of its pages that holds several, up to this many."""
WHATS_NEW_ANCHOR = "whats--new"
"""The element id of a game page's "What's new" (with `--`, which no entry id has; the templates spell it too)."""

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SiteReport:
    """What a build wrote."""

    out_dir: Path
    """The site's folder (absolute)."""
    pages: int
    """HTML pages written."""
    files: int
    """Every file written: pages, CSS, scripts, search data, the marker."""
    games: int
    """Games in the site."""
    entries: int
    """Entries in the site."""


# -- what the templates receive ---------------------------------------------


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
    """ISO date since which the source marks the entry new or revised."""
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


@dataclass(frozen=True)
class ChangeGroup:
    """The entries of "What's new" that one source marks new or revised since one date."""

    date: str
    """The entries' `revised` date, ISO `YYYY-MM-DD`."""
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
    """<game>/index.html of a split game (`site_pages`): its "What's new" and its pages, by source."""

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
    """What the page holds (`site_pages.Page.label`)."""
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


# -- building ----------------------------------------------------------------


def templates_dir() -> Path:
    """The site's templates: inside the installed package, or the source tree's."""
    return shipped("templates")


def build(corpus: Corpus, out_dir: Path, *, force: bool = False, progress: Progress | None = None) -> SiteReport:
    """Build the site of `corpus` into `out_dir`, replacing the site already there.

    Refuses (SiteError) a folder that is not empty and was not made by a
    build, unless `force`; always refuses the file system root, the home
    folder, a folder holding the current directory or the corpus.
    """
    say = progress or (lambda message: None)
    target = _check_target(Path(out_dir), corpus, force)
    files = dict(_render(corpus, say))
    say(f"writing {len(files)} files to {target}")
    _write(target, files)
    return SiteReport(
        out_dir=target,
        pages=sum(1 for name in files if name.endswith(".html")),
        files=len(files),
        games=len(corpus.games),
        entries=len(corpus.entries),
    )


def _render(corpus: Corpus, say: Progress) -> Iterator[tuple[str, bytes]]:
    """Every file of the site: (path from the root, content), in a fixed order."""
    env = _environment()
    site = _Site(corpus)
    steps: tuple[tuple[str, Callable[[_Site, jinja2.Environment], Iterator[tuple[str, str | bytes]]]], ...] = (
        ("home page", _home_page),
        ("game pages", _game_pages),
        ("A–Z indexes", _index_pages),
        ("sources page", _sources_page),
        ("setup pages", lambda site, env: setup_page.pages(site.corpus, env, site.base, site.href)),
        ("pages in other languages", _translated_pages),
        ("search data", _search_files),
        ("static files", _static_files),
    )
    for name, step in steps:
        say(f"rendering {name}")
        for path, content in step(site, env):
            yield path, content.encode("utf-8") if isinstance(content, str) else content
    yield MARKER, MARKER_TEXT.encode("utf-8")
    yield ".nojekyll", b""


def _environment(lang: str = languages.TEXT_LANGUAGE) -> jinja2.Environment:
    """The templates' environment, in a language (`{{ _("Source:") }}`: rulebot.site.languages.install_catalog)."""
    env = jinja2.Environment(
        extensions=["jinja2.ext.i18n"],
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # One environment per build: a template loaded once stays as it was,
        # rather than its file being checked again at every include (an
        # include per entry).
        auto_reload=False,
    )
    env.filters["count"] = count
    languages.install_catalog(env, lang)
    return env


def count(number: int, one: str, many: str) -> str:
    """A number and its noun, singular for 1: "1 entry", "2 entries" (the templates' `count` filter)."""
    return f"{number} {one if number == 1 else many}"


def _page(env: jinja2.Environment, names: list[str], context: PageContext) -> str:
    """Render the first of `names` that exists (most specific first)."""
    return env.select_template(names).render(**context)


class _Site:
    """The corpus arranged for the pages: games by name, links, names to link; in the entries' own language, or
    in `lang`, the entries of `translated` in it (rulebot.site.languages)."""

    def __init__(self, corpus: Corpus, lang: str = languages.TEXT_LANGUAGE, translated: frozenset[str] = frozenset()):
        self.corpus = corpus
        self.lang = lang
        self.translated = translated
        self.languages = languages.languages_of(corpus)
        self.games = sorted(corpus.games, key=lambda slug: (fold(corpus.games[slug].name), slug))
        self.referenced_by = corpus.referenced_by()
        self.modified_by = corpus.modified_by()
        self.titles = {entry.id: entry.title for entry in corpus.entries.values()}
        self.layouts = {slug: layout_game(corpus.games[slug], corpus.entries_of(slug), game_page(slug)) for slug in self.games}
        """Each game's pages of entries (one, or pages of sections for a large game)."""
        self.page_of = {entry_id: path for layout in self.layouts.values() for entry_id, path in layout.page_of.items()}
        """Entry id -> the page it is on, from the root."""
        self.indexes = {slug: _az_pages(self, slug) for slug in self.games}
        """Each game's A–Z pages (one, or pages of letters for a large game)."""
        self.all_pages = self.pages()
        self.changes = {slug: [c for c in changes(corpus, slug) if c.because == REVISED] for slug in self.games}
        """Each game's entries that a source marks new or revised (`revised`), newest first.

        Not those `rulebot changes` dates by their document alone: a
        document's date says when it was published, not that an entry of it
        is new, and a "What's new" has no date of the reader's to compare it with."""

    def base(self, page: str, title: str, game: Game | None) -> PageContext:
        root = "../" * page.count("/")
        whats_new = f"{root}{game_page(game.slug)}#{WHATS_NEW_ANCHOR}" if game and self.changes.get(game.slug) else ""
        return PageContext(
            root=root,
            page=page,
            page_title=title,
            game=game,
            whats_new_href=whats_new,
            setup_href=f"{root}{setup_page.setup_page(game.slug)}" if game and game.slug in self.corpus.setups else "",
            version=__version__,
            page_lang=self.lang,
            languages=languages.switch(self.languages, page, self.lang),
        )

    def entry_lang(self, entry: Entry) -> str:
        """The language of an entry's title and text on the pages."""
        return self.lang if entry.id in self.translated else languages.TEXT_LANGUAGE

    def href(self, entry_id: str, page: str) -> str | None:
        """The link to an entry from a page, on whichever page it is (None when there is no such entry)."""
        target = self.page_of.get(entry_id)
        if target is None:
            return None
        return f"#{entry_id}" if target == page else f"{relative_path(target, page)}#{entry_id}"

    def links(self, ids: list[str] | tuple[str, ...], page: str, game: str) -> tuple[EntryLink, ...]:
        out = []
        for entry_id in ids:
            href = self.href(entry_id, page)
            if href is None:
                continue  # the loader refuses dangling references; never link nowhere
            entry = self.corpus.entries[entry_id]
            out.append(EntryLink(href=href, title=entry.title, note=self.note(entry, game), house=self.corpus.is_house_rule(entry)))
        return tuple(out)

    def note(self, entry: Entry, game: str) -> str:
        if entry.game != game:
            return self.corpus.games[entry.game].name
        if entry.expansion:
            expansion = self.corpus.games[game].expansion(entry.expansion)
            return expansion.name if expansion else entry.expansion
        return ""

    def pages(self) -> set[str]:
        """Every page of the site, from the root."""
        pages = {"index.html", "sources.html"}
        for slug in self.games:
            pages.add(game_page(slug))
            pages.update(page.path for page in self.layouts[slug].pages)
            pages.update(az.path for az in self.indexes[slug])
            if slug in self.corpus.setups:
                pages.add(setup_page.setup_page(slug))
        return pages

    def relative(self, href: str, page: str) -> str | None:
        """A relative link of an entry text, kept only when it leads to a page (and anchor) of the site."""
        path, _, fragment = href.partition("#")
        path = path.partition("?")[0]
        if not path:
            return None
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), urllib.parse.unquote(path)))
        if resolved not in self.all_pages:
            return None
        entry = self.corpus.entries.get(fragment)
        if fragment and entry is not None:
            if self.page_of[entry.id] == resolved:
                return href
            if resolved.partition("/")[0] == entry.game:
                return self.href(entry.id, page)  # a page of its game: the page it is on
        return href.partition("#")[0]  # the page exists; an anchor it may not have is dropped

    def source_href(self, page: str, game: str, source: str) -> str:
        return "../" * page.count("/") + f"sources.html#{source_anchor(game, source)}"


def game_page(slug: str) -> str:
    """The path of a game's entries page from the site root."""
    return f"{slug}/index.html"


def index_page(slug: str) -> str:
    """The path of a game's A–Z index from the site root."""
    return f"{slug}/a-z.html"


def relative_path(target: str, page: str) -> str:
    """The relative link from one page of the site to another (both from the root, pages at most one folder deep)."""
    folder = page.rpartition("/")[0]
    if folder and target.startswith(folder + "/"):
        return target[len(folder) + 1 :]
    return "../" * page.count("/") + target


def source_anchor(game: str, source: str) -> str:
    """The id of a source on the sources page."""
    return f"src--{game}--{source}"


def _home_page(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    page = "index.html"
    context = HomeContext(
        **site.base(page, "Board game rules, FAQ and errata", None),
        games=[_summary(site, slug, page) for slug in site.games],
        entry_count=len(site.corpus.entries),
    )
    yield page, _page(env, ["home.html"], context)


def _summary(site: _Site, slug: str, page: str) -> GameSummary:
    game = site.corpus.games[slug]
    root = "../" * page.count("/")
    counts: dict[str, int] = {}
    for entry in site.corpus.entries_of(slug):
        counts[entry.source] = counts.get(entry.source, 0) + 1
    sources = tuple(
        SourceView(
            source=source,
            anchor=source_anchor(slug, source.id),
            href=f"{root}{game_page(slug)}#s--{source.id}",
            trust_label=TRUST_LABELS.get(source.trust, source.trust),
            expansion=_expansion_name(game, source.expansion),
            entry_count=counts.get(source.id, 0),
        )
        for source in game.sources
    )
    return GameSummary(
        game=game,
        href=root + game_page(slug),
        az_href=root + index_page(slug),
        sources_href=f"{root}sources.html#g--{slug}",
        anchor=f"g--{slug}",
        entry_count=sum(counts.values()),
        sources=sources,
        house_count=sum(1 for entry in site.corpus.entries_of(slug) if site.corpus.is_house_rule(entry)),
    )


def _expansion_name(game: Game, slug: str | None) -> str:
    if not slug:
        return ""
    expansion = game.expansion(slug)
    return expansion.name if expansion else slug


def _game_pages(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    for slug in site.games:
        game = site.corpus.games[slug]
        layout = site.layouts[slug]
        entries = site.corpus.entries_of(slug)
        names = NameTable.for_entries(entries)
        views = {entry.id: _entry_view(site, entry, layout.page_of[entry.id], names) for entry in entries}
        summary = _summary(site, slug, layout.index)
        whats_new = _whats_new(site, slug)
        whats_new_count = sum(len(group.items) for group in whats_new)
        if not layout.split:
            page = layout.pages[0]
            context = GameContext(
                **site.base(page.path, game.name, game),
                sources=[_source_view(source, _section_views(page, source, views)) for source in summary.sources],
                entry_count=len(entries),
                whats_new=whats_new,
                whats_new_count=whats_new_count,
            )
            yield page.path, _page(env, [f"game-{slug}.html", "game.html"], context)
            continue
        contents = GameContentsContext(
            **site.base(layout.index, game.name, game),
            sources=[
                _source_view(source, (), tuple(_page_link(p, layout.index, source) for p in layout.pages if p.sections[0].source == source.source.id))
                for source in summary.sources
            ],
            entry_count=len(entries),
            whats_new=whats_new,
            whats_new_count=whats_new_count,
            page_count=len(layout.pages),
        )
        yield layout.index, _page(env, ["game-contents.html"], contents)
        for number, page in enumerate(layout.pages):
            source = _source_of(summary, page)
            before = layout.pages[number - 1] if number else None
            after = layout.pages[number + 1] if number + 1 < len(layout.pages) else None
            context = GameSectionContext(
                **site.base(page.path, f"{game.name}: {page.label}", game),
                sources=[_source_view(source, _section_views(page, source, views))],
                label=page.label,
                lang=source.source.language,
                entry_count=page.entry_count,
                game_entry_count=len(entries),
                page_number=number + 1,
                page_count=len(layout.pages),
                previous=_page_link(before, page.path, _source_of(summary, before)) if before else None,
                next=_page_link(after, page.path, _source_of(summary, after)) if after else None,
            )
            yield page.path, _page(env, ["game-section.html"], context)


def _source_of(summary: GameSummary, page: Page) -> SourceView:
    return next(source for source in summary.sources if source.source.id == page.sections[0].source)


def _source_view(summary: SourceView, sections: tuple[SectionView, ...], pages: tuple[PageLink, ...] = ()) -> SourceView:
    """A source of the game (as `_summary` lists it) on a page of the game, with its sections or its pages there."""
    source_id = summary.source.id
    return replace(summary, anchor=f"s--{source_id}", href=f"#s--{source_id}", sections=sections, pages=pages)


def _section_views(page: Page, source: SourceView, views: dict[str, EntryView]) -> tuple[SectionView, ...]:
    """The sections of one source on a page, with their entries' views."""
    return tuple(
        SectionView(
            title=section.title,
            lang=source.source.language,
            anchor=section.anchor,
            entries=tuple(views[entry.id] for entry in section.entries),
            part_label=section.part_label,
            span=section.span,
        )
        for section in page.sections
        if section.source == source.source.id
    )


def _page_link(page: Page, here: str, source: SourceView) -> PageLink:
    """A page of a split game, linked from the page `here`."""
    href = relative_path(page.path, here)
    sections = page.sections if 1 < len(page.sections) <= LISTED_SECTIONS else ()
    return PageLink(
        href=href,
        label=page.label,
        lang=source.source.language,
        count=page.entry_count,
        span=page.sections[0].span,
        sections=tuple(SectionLink(title=s.title, href=f"{href}#{s.anchor}", count=len(s.entries)) for s in sections),
    )


def _whats_new(site: _Site, slug: str) -> list[ChangeGroup]:
    """A game's revised entries, newest first, grouped by date and source (groups in order of first appearance)."""
    game = site.corpus.games[slug]
    grouped: dict[tuple[str, str], list[Entry]] = {}
    for change in site.changes[slug]:
        grouped.setdefault((change.date, change.entry.source), []).append(change.entry)
    groups = []
    for number, ((date, source_id), entries) in enumerate(grouped.items(), 1):
        source = game.source(source_id) or Source(id=source_id, title=source_id)
        items = tuple(
            ChangeItem(
                href=site.href(entry.id, game_page(slug)) or f"#{entry.id}",
                title=entry.title,
                kind_label=KIND_LABELS.get(entry.kind, entry.kind),
                note=_expansion_name(game, entry.expansion),
                house=site.corpus.is_house_rule(entry),
                draft=entry.draft,
            )
            for entry in entries
        )
        groups.append(
            ChangeGroup(
                date=date,
                anchor=f"{WHATS_NEW_ANCHOR}--{number}",
                source_title=source.title,
                source_href=f"#s--{source.id}",
                items=items,
            )
        )
    return groups


def _entry_view(site: _Site, entry: Entry, page: str, names: NameTable) -> EntryView:
    game = site.corpus.games[entry.game]
    source = game.source(entry.source) or Source(id=entry.source, title=entry.source)
    context = LinkContext(
        entry_id=entry.id,
        names=names,
        href_for=lambda target: site.href(target, page),
        titles=site.titles,
        relative=lambda href: site.relative(href, page),
    )
    return EntryView(
        id=entry.id,
        title=entry.title,
        kind=entry.kind,
        kind_label=KIND_LABELS.get(entry.kind, entry.kind),
        expansion=_expansion_name(game, entry.expansion) or "Base game",
        expansion_slug=entry.expansion,
        revised=entry.revised,
        html=Markup(to_html(entry.text, context)),  # safe: raw HTML disabled, links checked
        aliases=entry.aliases,
        see_also=site.links(entry.see_also, page, entry.game),
        referenced_by=site.links(site.referenced_by.get(entry.id, []), page, entry.game),
        modifies=site.links(entry.modifies, page, entry.game),
        modified_by=site.links(site.modified_by.get(entry.id, []), page, entry.game),
        citation=Citation(
            source_title=source.title,
            source_href=site.source_href(page, entry.game, source.id),
            edition=source.edition,
            date=source.date,
            section=entry.section,
            trust=source.trust,
            trust_label=TRUST_LABELS.get(source.trust, source.trust),
        ),
        draft=entry.draft,
        house=site.corpus.is_house_rule(entry),
        lang=site.entry_lang(entry),
    )


@dataclass(frozen=True)
class _AzPage:
    """One page of a game's A–Z."""

    path: str
    """From the site root."""
    letters: tuple[IndexLetter, ...]
    """The letters it lists (none on the first page of a split A–Z, which lists the others)."""
    letter: str = ""
    """The letter of a page of a split A–Z."""
    part: int = 0
    """Which part of its letter's names the page lists, from 1; 0 when it lists them all."""
    parts: int = 0
    """How many pages its letter's names are on, when more than one."""

    @property
    def label(self) -> str:
        """"S", or "S (part 2 of 3)"; "" for `a-z.html`."""
        return f"{self.letter} (part {self.part} of {self.parts})" if self.parts else self.letter


def _az_pages(site: _Site, slug: str) -> list[_AzPage]:
    """A game's A–Z: one page of every name, or above AZ_PAGE_NAMES names, a list and pages of letters."""
    index = index_page(slug)
    items = []
    for entry in site.corpus.entries_of(slug):
        href = f"{relative_path(site.page_of[entry.id], index)}#{entry.id}"
        label = KIND_LABELS.get(entry.kind, entry.kind)
        house = site.corpus.is_house_rule(entry)
        items.append(IndexItem(name=entry.title, lang=site.entry_lang(entry), href=href, target="", kind_label=label, house=house))
        for alias in entry.aliases:
            items.append(IndexItem(name=alias.text, lang=alias.lang, href=href, target=entry.title, kind_label=label, house=house))
    items.sort(key=lambda item: (fold(item.name), item.name, item.target, item.href))
    by_letter: dict[str, list[IndexItem]] = {}
    for item in items:
        by_letter.setdefault(_letter(item.name), []).append(item)
    letters = sorted(by_letter.items(), key=lambda pair: (pair[0] == "#", pair[0]))
    if len(items) <= site_pages.AZ_PAGE_NAMES:
        return [_AzPage(index, tuple(IndexLetter(letter, _letter_anchor(letter), tuple(group)) for letter, group in letters))]
    pages = [_AzPage(index, ())]
    for letter, group in letters:
        chunks = [group[start : start + site_pages.AZ_PAGE_NAMES] for start in range(0, len(group), site_pages.AZ_PAGE_NAMES)]
        parts = len(chunks) if len(chunks) > 1 else 0
        for part, chunk in enumerate(chunks, 1):
            anchor = _letter_anchor(letter) + (f"--{part}" if part > 1 else "")
            part_label = f"part {part} of {parts}" if parts else ""
            page = _AzPage(az_page(index, letter, part), (IndexLetter(letter, anchor, tuple(chunk), part_label),), letter, part if parts else 0, parts)
            pages.append(page)
    return pages


def _letter_anchor(letter: str) -> str:
    return f"az--{letter.lower() if letter != '#' else 'other'}"


def _index_pages(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    for slug in site.games:
        game = site.corpus.games[slug]
        pages = site.indexes[slug]
        name_count = sum(len(letter.items) for az in pages for letter in az.letters)
        for az in pages:
            if len(pages) == 1:
                links = [PageLink(href=f"#{letter.anchor}", label=letter.letter, lang="en", count=len(letter.items)) for letter in az.letters]
            else:
                links = [replace(_az_link(other, az.path), label=other.letter) for other in pages[1:] if other.part <= 1]
            context = IndexContext(
                **site.base(az.path, f"{game.name}: A–Z" + (f", {az.label}" if az.label else ""), game),
                letters=list(az.letters),
                name_count=name_count,
                letter_links=links,
                pages=[_az_link(other, az.path) for other in pages[1:]] if az is pages[0] and len(pages) > 1 else [],
                label=az.label,
            )
            yield az.path, _page(env, [f"a-z-{slug}.html", "a-z.html"], context)


def _az_link(az: _AzPage, here: str) -> PageLink:
    """A page of a split A–Z linked from another (or itself): its letter (and part), its names, the first and last of them."""
    items = az.letters[0].items
    href = f"#{az.letters[0].anchor}" if az.path == here else relative_path(az.path, here)
    return PageLink(href=href, label=az.label, lang="en", count=len(items), span=f"{items[0].name} – {items[-1].name}")


def _letter(name: str) -> str:
    first = fold(name)[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def _sources_page(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    page = "sources.html"
    context = SourcesContext(**site.base(page, "Sources", None), games=[_summary(site, slug, page) for slug in site.games])
    yield page, _page(env, ["sources.html"], context)


def _translated_pages(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    def render(corpus: Corpus, lang: str, translated: frozenset[str]) -> Iterator[tuple[str, str]]:
        other, other_env = _Site(corpus, lang, translated), _environment(lang)
        yield from _game_pages(other, other_env)
        yield from _index_pages(other, other_env)

    return languages.translated_pages(site.corpus, render)


def _search_files(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    indexed = site_search.index_entries(site.corpus)
    yield site_search.GAMES_FILE, site_search.assignment("games", site_search.games_data(site.corpus, site.games, indexed))
    yield site_search.LEXICON_FILE, site_search.assignment("lexicon", site_search.lexicon_data(indexed))
    for slug in site.games:
        names = site_search.names_data(site.corpus, slug, site.layouts[slug].page_of)
        yield site_search.names_file(slug), site_search.assignment(f"names:{slug}", names)
        yield site_search.index_file(slug), site_search.assignment(f"index:{slug}", site_search.index_data(site.corpus, slug, indexed))
        for page, entries in enumerate(site_search.entries_by_page(site.corpus, slug, site.layouts[slug].page_of)):
            yield site_search.texts_file(slug, page), site_search.assignment(f"texts:{slug}:{page}", site_search.texts_data(entries))


def _static_files(site: _Site, env: jinja2.Environment) -> Iterator[tuple[str, bytes]]:
    static = templates_dir() / "static"
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        yield f"{STATIC_DIR}/{path.relative_to(static).as_posix()}", path.read_bytes()


# -- writing -------------------------------------------------------------------


def _check_target(out_dir: Path, corpus: Corpus, force: bool) -> Path:
    """The absolute output folder, once it is known to be safe to replace."""
    target = outside_package(out_dir.expanduser().resolve(), "the site folder")
    home = Path.home().resolve()
    if target == Path(target.anchor) or target == home or target in home.parents:
        raise SiteError(f"refusing to build the site into {target}: pick a folder of its own")
    cwd = Path.cwd().resolve()
    if (target == cwd or target in cwd.parents) and not (target / MARKER).is_file():
        raise SiteError(f"refusing to build the site into {target}: it holds the current directory")
    for game in corpus.games.values():
        if game.path:
            corpus_dir = Path(game.path).resolve().parent
            if target == corpus_dir or target in corpus_dir.parents:
                raise SiteError(f"refusing to build the site into {target}: it holds the corpus")
    if target.exists() and not target.is_dir():
        raise SiteError(f"cannot build the site into {target}: not a folder")
    if target.is_dir() and not (target / MARKER).is_file() and not force:
        try:
            empty = next(target.iterdir(), None) is None
        except OSError as exc:
            raise SiteError(f"cannot read {target}: {exc.strerror or exc}") from None
        if not empty:
            raise SiteError(
                f"{target} is not empty and was not made by rulebot (no {MARKER}); "
                "empty it, pick another folder, or force the build to replace its content"
            )
    return target


def _write(target: Path, files: dict[str, bytes]) -> None:
    """Write `files` into a fresh folder beside `target`, then swap it in."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".rulebot-new", dir=target.parent))
    except OSError as exc:
        raise SiteError(f"cannot write the site beside {target}: {exc.strerror or exc}") from None
    try:
        os.chmod(fresh, 0o777 & ~_umask())
        for name, content in files.items():
            path = fresh / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        _swap(fresh, target)
    except OSError as exc:
        raise SiteError(f"cannot write the site to {target}: {exc.strerror or exc}") from None
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)


def _swap(fresh: Path, target: Path) -> None:
    if not target.exists():
        fresh.rename(target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".rulebot-old", dir=target.parent))
    old.rmdir()
    try:
        target.rename(old)
    except OSError:
        # A folder that cannot be moved (a mount point, say): replace its
        # content instead, which is all inside it.
        _empty(target)
        for child in sorted(fresh.iterdir()):
            child.rename(target / child.name)
        return
    try:
        fresh.rename(target)
    except OSError:
        old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _empty(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# -- serving -------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging every request to stderr."""

    def log_message(self, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser closing a connection early is not worth a traceback


class SiteServer:
    """A built site served over HTTP in a background thread; close() stops it."""

    def __init__(self, out_dir: Path, host: str, port: int):
        handler = functools.partial(_QuietHandler, directory=str(out_dir))
        try:
            self._server = _Server((host, port), handler)
        except OSError as exc:
            raise SiteError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        self.out_dir = out_dir
        """The folder served."""
        address, bound_port = self._server.server_address[:2]
        bound_host = address.decode() if isinstance(address, bytes) else str(address)
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.url = f"http://{shown}:{bound_port}/"
        """The site's address, ending in a slash."""
        self._thread = threading.Thread(target=self._server.serve_forever, name="rulebot-site", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Block until the server stops (Ctrl-C interrupts it)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(out_dir: Path, host: str = "127.0.0.1", port: int = 0) -> SiteServer:
    """Serve a built site (port 0: any free port); the caller closes the server."""
    folder = Path(out_dir).expanduser().resolve()
    if not (folder / "index.html").is_file():
        raise SiteError(f"no site in {folder}: build it first (rulebot site build)")
    return SiteServer(folder, host, port)
