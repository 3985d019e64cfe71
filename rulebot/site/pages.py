"""Which page of the site each entry is on, so that no page is too heavy for a phone.

A game of ordinary size (every shipped game) has one page, `<game>/index.html`,
with all its entries. A larger game (an imported comprehensive rules document
of thousands of entries) is split by section: `<game>/index.html` keeps its
"What's new" and lists its pages, and each page holds consecutive sections of
one source, up to PAGE_ENTRIES entries and about PAGE_BYTES of HTML
(`weight`); a section larger than that is cut into parts at its sub-headings
("7. Additional Rules > 702. Keyword Abilities"), and inside a sub-heading
too large for a page, by size. A page is named after its source and its first
section: `<game>/<source>--<heading>.html` (`-2`, `-3` for the next parts, and
for a name already taken). Wherever an entry is, its element id is its entry
id; `GameLayout.page_of` says on which page it is.

The A–Z index likewise: one `<game>/a-z.html`, or above AZ_PAGE_NAMES names a
page per letter (`<game>/a-z-<letter>.html`, `a-z-<letter>-2.html` for the
parts of a letter with more names), which `a-z.html` lists.

No page name clashes with another: `index.html` and `a-z.html` are fixed,
section pages hold `--` (which no slug or id has), A–Z pages do not.

Everything here is a function of the corpus alone, so that two builds of it
give the same pages.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulebot.corpus.model import Entry, Game
from rulebot.text import fold

PAGE_ENTRIES = 200
"""At most this many entries on a page."""
PAGE_BYTES = 300_000
"""About this much HTML at most on a page, as `weight` estimates it (a page of one heavier entry excepted)."""
AZ_PAGE_NAMES = 1_000
"""An A–Z index of more names than this is split by letter; a letter of more names, into parts of this many."""
ENTRY_BYTES = 1_500
"""The HTML of an entry besides its text and links: heading, badges, citation (`weight`)."""
LINK_BYTES = 100
"""The HTML of one cross-reference (`weight`)."""
SLUG_LENGTH = 40
"""Page names keep at most this many characters of a heading."""

_TRAILING_NOTE_RE = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")
_SEPARATORS = (", ", " > ", "; ")


# -- section headings ------------------------------------------------------------


def section_heading(section: str) -> str:
    """The top heading of an entry's section: "Phase 2: Actions, bullet 3" -> "Phase 2: Actions".

    Sections locate an entry precisely ("FAQ > Chaumurky", "Preparation, step
    3", "Mise en place (note under the illustration)"); a game page groups
    consecutive entries under the part before the first `, `, ` > ` or `; `
    outside brackets, without a trailing bracketed note.
    """
    head = _split(section)[0]
    head = _TRAILING_NOTE_RE.sub("", head).strip()
    return head or section.strip()


def sub_heading(section: str) -> str:
    """The heading under the top one: "7. Rules > 702. Keywords > 702.19b" -> "702. Keywords"; "" when none.

    Only ` > ` leads down a level: after `, ` or `; ` comes a place in the
    section or another section ("Phase 2: Actions, bullet 3").
    """
    _, separator, rest = section.partition(" > ")
    return section_heading(rest) if separator and rest.strip() else ""


def _split(section: str) -> tuple[str, str]:
    """A section cut at its first separator outside brackets: (before, after); after is "" when none."""
    depth = 0
    for index, char in enumerate(section):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0:
            for separator in _SEPARATORS:
                if section.startswith(separator, index):
                    return section[:index], section[index + len(separator):]
    return section, ""


# -- the layout of a game ----------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """Consecutive entries of one source under one heading: a whole section, or one part of it."""

    source: str
    """The source id."""
    number: int
    """The section's number among its source's sections, from 1 (every part of it shares it)."""
    title: str
    """Its heading (`section_heading`)."""
    entries: tuple[Entry, ...]
    """Its entries (the part's), in source order."""
    part: int = 0
    """Which part of the section this is, from 1; 0 for a whole section."""
    parts: int = 0
    """How many parts the section is cut into; 0 for a whole section."""
    first: str = ""
    """The sub-heading of the part's first entry (parts only; may be "")."""
    last: str = ""
    """The sub-heading of the part's last entry (parts only; may be "")."""

    @property
    def anchor(self) -> str:
        """The element id: `s--<source>--<number>`, `--<part>` after it for the parts after the first."""
        anchor = f"s--{self.source}--{self.number}"
        return anchor if self.part <= 1 else f"{anchor}--{self.part}"

    @property
    def part_label(self) -> str:
        """"part 2 of 5" for a part; "" for a whole section."""
        return f"part {self.part} of {self.parts}" if self.parts else ""

    @property
    def span(self) -> str:
        """The sub-headings a part runs over ("702. Keyword Abilities – 704. State-Based Actions"); "" when none."""
        if not self.first or not self.last or self.first == self.last:
            return self.first or self.last
        return f"{self.first} – {self.last}"


@dataclass(frozen=True)
class Page:
    """One page of a game's entries."""

    path: str
    """From the site root: `<game>/index.html` or `<game>/<source>--<heading>.html`."""
    sections: tuple[Section, ...]
    """Its sections (all of one source on a split game's page), in source order."""

    @property
    def entry_count(self) -> int:
        """How many entries it shows."""
        return sum(len(section.entries) for section in self.sections)

    @property
    def label(self) -> str:
        """What it holds, for titles and lists: a heading, "first – last heading", or "heading (part 2 of 5)"."""
        first, last = self.sections[0], self.sections[-1]
        if first.parts:
            return f"{first.title} ({first.part_label})"
        return first.title if first is last else f"{first.title} – {last.title}"


@dataclass(frozen=True)
class GameLayout:
    """The pages of one game's entries."""

    index: str
    """The game's page, `<game>/index.html`."""
    pages: tuple[Page, ...]
    """The pages holding entries: the game's page alone, or (split) its pages of sections."""
    page_of: dict[str, str]
    """Entry id -> the path of the page it is on."""

    @property
    def split(self) -> bool:
        """Whether the game's entries are on pages of their own, which its page lists."""
        return self.pages[0].path != self.index


def weight(entry: Entry, more_links: int = 0) -> int:
    """About how many bytes of HTML an entry makes on a page (its text, links and the rest); `more_links`:
    the links the site adds to it besides its own (names of entries its text mentions, Referenced by)."""
    links = len(entry.see_also) + len(entry.modifies) + len(entry.aliases) + more_links
    return ENTRY_BYTES + len(entry.text.encode("utf-8")) + LINK_BYTES * links


def _fits(count: int, size: int) -> bool:
    """Whether `count` entries weighing `size` in all fit on a page."""
    return count <= PAGE_ENTRIES and size <= PAGE_BYTES


def _size(entries: Iterable[Entry], links: Mapping[str, int]) -> int:
    return sum(weight(entry, links.get(entry.id, 0)) for entry in entries)


def layout_game(game: Game, entries: Sequence[Entry], index: str, links: Mapping[str, int] | None = None) -> GameLayout:
    """The pages of a game's entries (in corpus order), its page being `index`; `links`: the links the site
    adds to each entry (by id), which weigh on its page too."""
    links = links or {}
    by_source: dict[str, list[Entry]] = {}
    for entry in entries:
        by_source.setdefault(entry.source, []).append(entry)
    order = [source.id for source in game.sources if source.id in by_source]  # every entry's source is declared
    sections = {
        source: [
            Section(source=source, number=number, title=title, entries=tuple(group))
            for number, (title, group) in enumerate(itertools.groupby(by_source[source], key=lambda e: section_heading(e.section)), 1)
        ]
        for source in order
    }
    if _fits(len(entries), _size(entries, links)):
        pages = [Page(path=index, sections=tuple(s for source in order for s in sections[source]))]
    else:
        folder = index.rpartition("/")[0]
        taken = {index}
        pages = []
        for source in order:
            for group in _pack(sections[source], links):
                name = _unique(f"{folder}/{source}--{_slug(group[0].title)}", group[0].part, taken)
                pages.append(Page(path=name, sections=tuple(group)))
    page_of = {entry.id: page.path for page in pages for section in page.sections for entry in section.entries}
    return GameLayout(index=index, pages=tuple(pages), page_of=page_of)


def _pack(sections: Iterable[Section], links: Mapping[str, int]) -> list[list[Section]]:
    """Consecutive sections gathered into pages within the limits; a section beyond them, in parts of a page each."""
    pages: list[list[Section]] = []
    current: list[Section] = []
    count = size = 0  # of `current`
    for section in sections:
        section_size = _size(section.entries, links)
        if _fits(len(section.entries), section_size):
            if not current or not _fits(count + len(section.entries), size + section_size):
                if current:
                    pages.append(current)
                current, count, size = [], 0, 0
            current.append(section)
            count, size = count + len(section.entries), size + section_size
            continue
        if current:
            pages.append(current)
            current, count, size = [], 0, 0
        pages.extend([part] for part in _parts(section, links))
    if current:
        pages.append(current)
    return pages


def _parts(section: Section, links: Mapping[str, int]) -> list[Section]:
    """A section too large for a page, cut into pages as full as the limits allow.

    A page ends where its next entry would not fit, or at the start of the
    last sub-heading begun on it, when that leaves the page at least half full.
    """
    chunks: list[list[Entry]] = []
    current: list[Entry] = []
    sizes: list[int] = []  # the weight of each entry of `current`
    boundary = 0  # where the last sub-heading of `current` begins
    for entry in section.entries:
        entry_size = weight(entry, links.get(entry.id, 0))
        if current and sub_heading(entry.section) != sub_heading(current[-1].section):
            boundary = len(current)
        if current and not _fits(len(current) + 1, sum(sizes) + entry_size):
            cut = boundary if boundary * 2 >= len(current) else len(current)
            chunks.append(current[:cut])
            current, sizes, boundary = current[cut:], sizes[cut:], 0
        current.append(entry)
        sizes.append(entry_size)
    chunks.append(current)
    return [
        Section(
            source=section.source,
            number=section.number,
            title=section.title,
            entries=tuple(chunk),
            part=number,
            parts=len(chunks),
            first=sub_heading(chunk[0].section),
            last=sub_heading(chunk[-1].section),
        )
        for number, chunk in enumerate(chunks, 1)
    ]


def _slug(title: str) -> str:
    """A heading as a page name: folded, letters and digits joined by `-`, at most SLUG_LENGTH characters."""
    slug = re.sub(r"[^a-z0-9]+", "-", fold(title)).strip("-")
    if len(slug) > SLUG_LENGTH:
        cut = slug[:SLUG_LENGTH]
        slug = cut.rsplit("-", 1)[0] if slug[SLUG_LENGTH] != "-" and "-" in cut else cut.rstrip("-")
    return slug or "section"


def _unique(stem: str, part: int, taken: set[str]) -> str:
    """`stem.html` (`stem-<part>.html` after a first part), with `-2`, `-3`… while the name is taken."""
    base = stem if part <= 1 else f"{stem}-{part}"
    name, number = f"{base}.html", 1
    while name in taken:
        number += 1
        name = f"{base}-{number}.html"
    taken.add(name)
    return name


# -- the A–Z pages -----------------------------------------------------------------


def az_page(index: str, letter: str, part: int) -> str:
    """The path of the A–Z page of a letter ("#": names not starting with A–Z) of a split index `<game>/a-z.html`."""
    stem = f"{index.removesuffix('.html')}-{letter.lower() if letter != '#' else 'other'}"
    return f"{stem}.html" if part <= 1 else f"{stem}-{part}.html"
