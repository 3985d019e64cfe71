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
                             a large game's pages of entries (rulebot/site/pages.py)
    <game>/a-z.html          the game's cards and terms, A to Z (for a large
                             game, its letters, each on `a-z-<letter>.html`)
    _static/                 CSS and the search script (templates/static/)
    _search/games.js         the games and the search's settings (rulebot/site/search_data.py)
    _search/lexicon-<c>.js   every game's words that begin with c, for reading a question
    _search/terms-<n>.js     the search index's postings, cut by term
    _search/entries-<n>.js   the entries, cut by their number in the index, for the search's candidates
    _search/<game>.pages.js  the game's entries' pages, for an anchor on another of its pages
    _search/<game>.texts.js  the game's entry texts, for the search (a file per page: .texts-<n>.js)
    _search/<lang>.js        the search's words and the entries' titles in another language
    _search/<game>.texts.<lang>.js
                             the game's entry texts in that language (rulebot/site/search_languages.py)
    .rulebot-site            marks the folder as made by rulebot

The pages are rendered by game_pages, az_pages and setup_page from a
`Site` (rulebot.site.arrangement); writing checks the output folder and
swaps the new site in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import jinja2

from rulebot.corpus.model import Corpus
from rulebot.site import languages, search_languages, setup_page
from rulebot.site import search_data as site_search
from rulebot.site.arrangement import Site
from rulebot.site.az_pages import index_pages
from rulebot.site.game_pages import game_pages, game_summary
from rulebot.site.templates import environment, render_page, templates_dir
from rulebot.site.views import HomeContext, SourcesContext
from rulebot.site.writing import MARKER, MARKER_TEXT, check_target, check_writable, write

STATIC_DIR = "_static"
"""Where templates/static/ is copied in the output."""

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


def build(corpus: Corpus, out_dir: Path, *, force: bool = False, progress: Progress | None = None) -> SiteReport:
    """Build the site of `corpus` into `out_dir`, replacing the site already there.

    Refuses (SiteError) a folder that is not empty and was not made by a
    build, unless `force`; always refuses the file system root, the home
    folder, a folder holding the current directory or the corpus.
    """
    say = progress or (lambda message: None)
    target = check_target(Path(out_dir), corpus, force)
    check_writable(target)
    files = dict(_render(corpus, say))
    say(f"writing {len(files)} files to {target}")
    write(target, files)
    return SiteReport(
        out_dir=target,
        pages=sum(1 for name in files if name.endswith(".html")),
        files=len(files),
        games=len(corpus.games),
        entries=len(corpus.entries),
    )


def _render(corpus: Corpus, say: Progress) -> Iterator[tuple[str, bytes]]:
    """Every file of the site: (path from the root, content), in a fixed order."""
    env = environment()
    site = Site(corpus)
    steps: tuple[tuple[str, Callable[[Site, jinja2.Environment], Iterator[tuple[str, str | bytes]]]], ...] = (
        ("home page", _home_page),
        ("game pages", game_pages),
        ("A–Z indexes", index_pages),
        ("sources page", _sources_page),
        ("setup pages", lambda site, env: setup_page.pages(site.corpus, env, site.base, site.href)),
        ("pages in other languages", _translated_pages),
        ("search data", _search_files),
        ("search data in other languages", lambda site, env: search_languages.files(site.corpus, site.games, site.page_of)),
        ("static files", _static_files),
    )
    for name, step in steps:
        say(f"rendering {name}")
        for path, content in step(site, env):
            yield path, content.encode("utf-8") if isinstance(content, str) else content
    yield MARKER, MARKER_TEXT.encode("utf-8")
    yield ".nojekyll", b""


def _home_page(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    page = "index.html"
    context = HomeContext(
        **site.base(page, site.say("Board game rules, FAQ and errata"), None),
        games=[game_summary(site, slug, page) for slug in site.games],
        entry_count=len(site.corpus.entries),
    )
    yield page, render_page(env, ["home.html"], context)


def _sources_page(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    page = "sources.html"
    context = SourcesContext(**site.base(page, site.say("Sources"), None), games=[game_summary(site, slug, page) for slug in site.games])
    yield page, render_page(env, ["sources.html"], context)


def _translated_pages(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    def render(corpus: Corpus, lang: str, translated: frozenset[str]) -> Iterator[tuple[str, str]]:
        other, other_env = Site(corpus, lang, translated), environment(lang)
        yield from _home_page(other, other_env)
        yield from _sources_page(other, other_env)
        yield from game_pages(other, other_env)
        yield from index_pages(other, other_env)
        yield from setup_page.pages(other.corpus, other_env, other.base, other.href, lang)

    return languages.translated_pages(site.corpus, render)


def _search_files(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    indexed = site_search.index_entries(site.corpus)
    shards = site_search.term_shards(indexed)
    games = site_search.games_data(site.corpus, site.games, indexed, site.page_of, len(shards))
    yield site_search.GAMES_FILE, site_search.assignment("games", games)
    for part, words in site_search.lexicon_data(indexed).items():
        yield site_search.lexicon_file(part), site_search.assignment(f"lexicon:{part}", words)
    for shard, terms in enumerate(shards):
        yield site_search.terms_file(shard), site_search.assignment(f"terms:{shard}", terms)
    rows = site_search.entry_rows(site.corpus, indexed, site.page_of)
    for number, start in enumerate(range(0, len(rows), site_search.ENTRIES_PER_FILE)):
        entries = {"entries": rows[start : start + site_search.ENTRIES_PER_FILE]}
        yield site_search.entries_file(number), site_search.assignment(f"entries:{number}", entries)
    for slug in site.games:
        yield site_search.pages_file(slug), site_search.assignment(f"pages:{slug}", site_search.pages_data(site.corpus, slug, site.page_of))
        for page, on_page in enumerate(site_search.entries_by_page(site.corpus, slug, site.page_of)):
            yield site_search.texts_file(slug, page), site_search.assignment(f"texts:{slug}:{page}", site_search.texts_data(on_page))


def _static_files(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, bytes]]:
    static = templates_dir() / "static"
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        yield f"{STATIC_DIR}/{path.relative_to(static).as_posix()}", path.read_bytes()
