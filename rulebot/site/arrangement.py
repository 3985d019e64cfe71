"""`Site`: the corpus arranged for the pages, what every page needs; with the layout of each game's A–Z (`AzPage`).

A `Site` knows each game's pages of entries (rulebot.site.pages) and of its
A–Z, which page each entry is on, the links between entries, and the
context every page receives (`Site.base`); game_pages and az_pages render
from it.
"""

from __future__ import annotations

import posixpath
import urllib.parse
from dataclasses import dataclass

from rulebot.corpus.changes import NEW, REVISED, changes
from rulebot.corpus.model import TEXT_LANGUAGE, Corpus, Entry, Game
from rulebot.site import languages, setup_page
from rulebot.site import pages as site_pages
from rulebot.site.links import NameTable
from rulebot.site.pages import az_page, layout_game
from rulebot.site.paths import WHATS_NEW_ANCHOR, game_page, index_page, relative_path, source_anchor
from rulebot.site.views import KIND_LABELS, EntryLink, IndexItem, IndexLetter, PageContext
from rulebot.text import fold
from rulebot.version import __version__


class Site:
    """The corpus arranged for the pages: games by name, links, names to link; in the entries' own language, or
    in `lang`, the entries of `translated` in it (rulebot.site.languages)."""

    def __init__(self, corpus: Corpus, lang: str = TEXT_LANGUAGE, translated: frozenset[str] = frozenset()):
        self.corpus = corpus
        self.lang = lang
        self.say = languages.catalog(lang).gettext
        """A message of the code in the site's language (the templates have theirs through their environment)."""
        self.translated = translated
        self.languages = languages.languages_of(corpus)
        self.games = sorted(corpus.games, key=lambda slug: (fold(corpus.games[slug].name), slug))
        self.referenced_by = corpus.referenced_by()
        self.modified_by = corpus.modified_by()
        self.titles = {entry.id: entry.title for entry in corpus.entries.values()}
        self.layouts = {slug: layout_game(corpus.games[slug], corpus.entries_of(slug), game_page(slug), self._added_links(slug)) for slug in self.games}
        """Each game's pages of entries (one, or pages of sections for a large game)."""
        self.page_of = {entry_id: path for layout in self.layouts.values() for entry_id, path in layout.page_of.items()}
        """Entry id -> the page it is on, from the root."""
        self.indexes = {slug: _az_pages(self, slug) for slug in self.games}
        """Each game's A–Z pages (one, or pages of letters for a large game)."""
        self.all_pages = self.pages()
        self.changes = {slug: [c for c in changes(corpus, slug) if c.because in (REVISED, NEW)] for slug in self.games}
        """Each game's entries that a source marks new or revised (`revised`), newest first.

        Not those `rulebot changes` dates by their document alone: a
        document's date says when it was published, not that an entry of it
        is new, and a "What's new" has no date of the reader's to compare it with."""

    def _added_links(self, slug: str) -> dict[str, int]:
        """The links the pages add to each entry of a game: the entries its text names (each linked once:
        rulebot.site.links), and the entries referring to it (Referenced by). They weigh on a page."""
        entries = self.corpus.entries_of(slug)
        names = NameTable.for_entries(entries)
        return {e.id: len({names.target(m.group(0)) for m in names.finditer(e.text)}) + len(self.referenced_by.get(e.id, ())) for e in entries}

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
        return self.lang if entry.id in self.translated else TEXT_LANGUAGE

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


@dataclass(frozen=True)
class AzPage:
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


def _az_pages(site: Site, slug: str) -> list[AzPage]:
    """A game's A–Z: one page of every name, or above AZ_PAGE_NAMES names, a list and pages of letters."""
    index = index_page(slug)
    items = []
    for entry in site.corpus.entries_of(slug):
        href = f"{relative_path(site.page_of[entry.id], index)}#{entry.id}"
        label = KIND_LABELS.get(entry.kind, entry.kind)
        house = site.corpus.is_house_rule(entry)
        # Each name of the entry once: an alias that is its title ("power points" of "Power points"), or another alias
        # again in another language ("actions" in English and in French), would only point the entry at itself.
        names = [(entry.title, site.entry_lang(entry), "")]
        names += [(alias.text, alias.lang, entry.title) for alias in sorted(entry.aliases, key=lambda alias: alias.lang != site.lang)]
        listed: set[str] = set()
        for name, lang, target in names:
            if fold(name) not in listed:
                listed.add(fold(name))
                items.append(IndexItem(name=name, lang=lang, href=href, target=target, kind_label=label, house=house))
    items.sort(key=lambda item: (fold(item.name), item.name, item.target, item.href))
    by_letter: dict[str, list[IndexItem]] = {}
    for item in items:
        by_letter.setdefault(_letter(item.name), []).append(item)
    letters = sorted(by_letter.items(), key=lambda pair: (pair[0] == "#", pair[0]))
    if len(items) <= site_pages.AZ_PAGE_NAMES:
        return [AzPage(index, tuple(IndexLetter(letter, _letter_anchor(letter), tuple(group)) for letter, group in letters))]
    pages = [AzPage(index, ())]
    for letter, group in letters:
        chunks = [group[start : start + site_pages.AZ_PAGE_NAMES] for start in range(0, len(group), site_pages.AZ_PAGE_NAMES)]
        parts = len(chunks) if len(chunks) > 1 else 0
        for part, chunk in enumerate(chunks, 1):
            anchor = _letter_anchor(letter) + (f"--{part}" if part > 1 else "")
            part_label = f"part {part} of {parts}" if parts else ""
            page = AzPage(az_page(index, letter, part), (IndexLetter(letter, anchor, tuple(chunk), part_label),), letter, part if parts else 0, parts)
            pages.append(page)
    return pages


def _letter_anchor(letter: str) -> str:
    return f"az--{letter.lower() if letter != '#' else 'other'}"


def _letter(name: str) -> str:
    first = fold(name)[:1].upper()
    return first if "A" <= first <= "Z" else "#"
