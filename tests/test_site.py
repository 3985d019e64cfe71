"""The static reference site: pages, links, cross-references, safety, output folder."""

from __future__ import annotations

import html
import json
import re
import shutil
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import LARGE_GAME, MINIMAL, fill_disk, game_toml, write_corpus, write_large_game

from rulebot.corpus import changes
from rulebot.corpus.format import ID_RE
from rulebot.corpus.load import load
from rulebot.corpus.model import Alias, Corpus, Entry
from rulebot.errors import RulebotError, SiteError, WriteError
from rulebot.markdown import parser, to_terminal
from rulebot.places import shipped_corpus_dir
from rulebot.site import az_pages as site_az_pages
from rulebot.site import build as site
from rulebot.site import game_pages as site_game_pages
from rulebot.site import links as site_links
from rulebot.site import pages as site_pages
from rulebot.site import paths as site_paths
from rulebot.site import search_data as site_search
from rulebot.site import server as site_server
from rulebot.site import templates as site_templates
from rulebot.site import views as site_views
from rulebot.site import writing as site_writing
from rulebot.text import fold

CORPORA = Path(__file__).parent / "corpora"
CURATION = (CORPORA / "site-curation" / "base", CORPORA / "site-curation" / "house")
"""An invented game of every trust level, with a draft, revised entries and a house-rules overlay."""
HOUSE_FLAG = "House rule — not an official ruling"


# -- fixtures and helpers -------------------------------------------------------


def _build(tmp_path_factory: pytest.TempPathFactory, corpus: Corpus, name: str) -> Path:
    out = tmp_path_factory.mktemp(name) / "site"
    site.build(corpus, out)
    return out


@pytest.fixture(scope="module")
def shipped() -> Corpus:
    return load([shipped_corpus_dir()])


@pytest.fixture(scope="module")
def minimal() -> Corpus:
    return load([CORPORA / "site-minimal"])


@pytest.fixture(scope="module")
def hostile() -> Corpus:
    return load([CORPORA / "site-hostile"])


@pytest.fixture(scope="module")
def curation() -> Corpus:
    return load(list(CURATION))


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return load([write_large_game(tmp_path_factory.mktemp("large-corpus"))])


@pytest.fixture(scope="module")
def large_site(tmp_path_factory: pytest.TempPathFactory, large: Corpus) -> Path:
    return _build(tmp_path_factory, large, "large")


@pytest.fixture(scope="module")
def curation_site(tmp_path_factory: pytest.TempPathFactory, curation: Corpus) -> Path:
    return _build(tmp_path_factory, curation, "curation")


@pytest.fixture(scope="module")
def shipped_site(tmp_path_factory: pytest.TempPathFactory, shipped: Corpus) -> Path:
    return _build(tmp_path_factory, shipped, "shipped")


@pytest.fixture(scope="module")
def minimal_site(tmp_path_factory: pytest.TempPathFactory, minimal: Corpus) -> Path:
    return _build(tmp_path_factory, minimal, "minimal")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory, hostile: Corpus) -> Path:
    return _build(tmp_path_factory, hostile, "hostile")


class _Page(HTMLParser):
    """The ids, links, resources, tags and attributes of one HTML page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.resources: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.tags.append((tag, values))
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "a" and values.get("href") is not None:
            self.links.append(str(values["href"]))
        if tag in ("link", "script", "img", "iframe", "source", "video", "audio"):
            for key in ("href", "src"):
                if values.get(key):
                    self.resources.append(str(values[key]))


def _pages(root: Path) -> dict[str, _Page]:
    return {p.relative_to(root).as_posix(): _Page(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.html"))}


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _article(site_dir: Path, entry: Entry) -> str:
    """The HTML of one entry's article, on whichever page of its game it is."""
    for path in sorted((site_dir / entry.game).glob("*.html")):
        match = re.search(rf'<article [^>]*id="{re.escape(entry.id)}".*?</article>', path.read_text(encoding="utf-8"), re.DOTALL)
        if match:
            return match.group(0)
    raise AssertionError(f"no article for {entry.id}")


def _entry_text(site_dir: Path, entry: Entry) -> str:
    """The rendered text of one entry (without its header, cross-references and citation)."""
    match = re.search(r'<div class="entry-text">(.*?)</div>\s*(?:<p class="aliases"|<dl|<footer)', _article(site_dir, entry), re.DOTALL)
    assert match
    return match.group(1)


def _element(text: str, element_id: str, tag: str = "section") -> str:
    """The HTML of the (non-nested) element with this id."""
    match = re.search(rf'<{tag} [^>]*id="{re.escape(element_id)}".*?</{tag}>', text, re.DOTALL)
    assert match, f"no {tag} #{element_id}"
    return match.group(0)


def _whats_new(text: str) -> str:
    """The "What's new" section of a game page (its groups are nested sections)."""
    start = text.index('<section class="whats-new" id="whats--new"')
    return text[start : text.index('<section class="source"', start)]


def _hrefs(fragment: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'<a [^>]*href="([^"]*)"', fragment)]


def _data(path: Path) -> dict:
    """The value a search data file assigns."""
    line = path.read_text(encoding="ascii").rstrip().splitlines()[-1]
    return json.loads(line.split("] = ", 1)[1].removesuffix(";"))


def _names(site_dir: Path) -> dict[str, dict]:
    """Each game's name, pages and entries' rows (`site_search.entry_rows`: [id, kind, title, aliases, flags, page,
    ...]) in corpus order, by slug, in the order of the games file."""
    data = _data(site_dir / site_search.GAMES_FILE)
    rows: list[list] = []
    while (site_dir / site_search.entries_file(len(rows) // site_search.ENTRIES_PER_FILE)).exists() and len(rows) < data["search"]["documents"]:
        rows += _data(site_dir / site_search.entries_file(len(rows) // site_search.ENTRIES_PER_FILE))["entries"]
    games = {}
    for game in data["games"]:
        docnums = [first + at for first, count in data["search"]["games"][game["slug"]]["docs"] for at in range(count)]
        games[game["slug"]] = {"name": game["name"], "pages": game["pages"], "entries": [rows[docnum] for docnum in docnums]}
    return games


def _rows(site_dir: Path) -> dict[str, list]:
    """Every entry's row of the search names, by entry id."""
    return {row[0]: row for names in _names(site_dir).values() for row in names["entries"]}


def _broken_links(root: Path) -> list[str]:
    pages = _pages(root)
    ids = {name: set(page.ids) for name, page in pages.items()}
    broken = []
    for name, page in pages.items():
        for href in page.links + page.resources:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme in ("http", "https") or href == "data:,":  # (the empty icon every page says it has)
                continue
            assert not parts.scheme and not parts.netloc, f"{name}: unexpected link {href}"
            target = (root / name).parent / urllib.parse.unquote(parts.path) if parts.path else root / name
            target = target.resolve()
            relative = target.relative_to(root.resolve()).as_posix() if target.is_relative_to(root.resolve()) else None
            if relative is None or not target.is_file():
                broken.append(f"{name}: {href} (no such file)")
            elif parts.fragment and parts.fragment not in ids.get(relative, set()):
                broken.append(f"{name}: {href} (no such anchor)")
    return broken


# -- the pages ------------------------------------------------------------------


class TestPages:
    def test_report_counts_pages_and_entries(self, shipped: Corpus, tmp_path: Path):
        """The report counts the HTML pages written and the corpus's entries and games."""
        report = site.build(shipped, tmp_path / "site")
        assert report.entries == len(shipped.entries)
        assert report.games == len(shipped.games)
        assert report.pages == len(list((tmp_path / "site").rglob("*.html"))) == 2 * 2 + 2 * len(shipped.games) + len(shipped.setups) + 3  # home and sources in French too, and Molthar's (entries, A–Z, setup)
        assert report.out_dir == (tmp_path / "site").resolve()

    def test_every_game_has_a_page_and_an_index(self, shipped: Corpus, shipped_site: Path):
        """Each game gets <slug>/index.html and <slug>/a-z.html, next to index.html and sources.html."""
        assert (shipped_site / "index.html").is_file()
        assert (shipped_site / "sources.html").is_file()
        for slug in shipped.games:
            assert (shipped_site / slug / "index.html").is_file()
            assert (shipped_site / slug / "a-z.html").is_file()

    def test_home_page_links_every_game(self, shipped: Corpus, shipped_site: Path):
        """The home page links each game's entries page under its name."""
        text = (shipped_site / "index.html").read_text(encoding="utf-8")
        for slug, game in shipped.games.items():
            assert f'<a href="{slug}/index.html">{html.escape(game.name)}</a>' in text

    def test_every_entry_has_one_stable_anchor(self, shipped: Corpus, shipped_site: Path):
        """Every entry is an element whose id is the entry id, once, on its game's page."""
        pages = _pages(shipped_site)
        for entry in shipped.entries.values():
            assert pages[site_paths.game_page(entry.game)].ids.count(entry.id) == 1

    def test_entries_keep_source_order(self, shipped: Corpus, shipped_site: Path):
        """A game page lists each source's entries in the order of the source."""
        for slug, game in shipped.games.items():
            ids = [i for i in _pages(shipped_site)[site_paths.game_page(slug)].ids if i in shipped.entries]
            expected = [e.id for s in game.sources for e in shipped.entries_of(slug) if e.source == s.id]
            assert ids == expected

    def test_entries_are_grouped_by_section_heading(self, minimal: Corpus, minimal_site: Path):
        """Consecutive entries sharing a section heading sit under one h3."""
        text = (minimal_site / "lantern-harbor/index.html").read_text(encoding="utf-8")
        headings = re.findall(r'<h3 id="s--[^"]*" class="section-title">([^<]*)</h3>', text)
        assert headings == ["Preparation", "Cards", "End of the game", "Changes to the base game", "Questions"]

    @pytest.mark.parametrize(
        ("section", "heading"),
        [
            ("Phase 2: Actions, bullet 3", "Phase 2: Actions"),
            ("FAQ > Chaumurky", "FAQ"),
            ("Setup (opening list, unheaded), bullet 1", "Setup"),
            ("Mise en place (note under the illustration)", "Mise en place"),
            ("Déroulement de la partie > Prendre une carte; Fin d'un tour", "Déroulement de la partie"),
            ("(only a note)", "(only a note)"),
        ],
    )
    def test_section_heading(self, section: str, heading: str):
        """A section's heading is its part before the first separator outside brackets."""
        assert site_pages.section_heading(section) == heading

    def test_entry_shows_kind_expansion_and_revised(self, minimal: Corpus, minimal_site: Path):
        """An entry shows its kind badge, its expansion and when it was revised."""
        article = _article(minimal_site, minimal.entries["harbor-dt-longer-game"])
        assert '<span class="badge kind">Rule</span>' in article
        assert '<span class="badge expansion">Deep Tides</span>' in article
        assert 'Revised <time datetime="2024-03-01">2024-03-01</time>' in article

    def test_an_entry_an_edition_adds_is_badged_new(self, tmp_path_factory: pytest.TempPathFactory):
        """An entry marked `new` (the edition of its `revised` date adds it) says "New", on its page and in What's new."""
        folder = tmp_path_factory.mktemp("new-corpus") / "corpus"
        shutil.copytree(CORPORA / "site-minimal", folder)
        faq = folder / "lantern-harbor" / "tides-faq.md"
        faq.write_text(faq.read_text(encoding="utf-8").replace("revised: 2024-03-01\n", "revised: 2024-03-01\nnew: true\n", 1), encoding="utf-8")
        corpus = load([folder])
        assert corpus.entries["harbor-dt-longer-game"].new
        built = _build(tmp_path_factory, corpus, "new")
        article = _article(built, corpus.entries["harbor-dt-longer-game"])
        assert 'New <time datetime="2024-03-01">2024-03-01</time>' in article and "Revised" not in article
        whats_new = _whats_new((built / "lantern-harbor" / "index.html").read_text(encoding="utf-8"))
        assert re.search(r"Deep Tides: a longer game</a>.*?<span class=\"badge revised\">New</span>", whats_new, re.DOTALL)

    def test_base_game_entry_says_so(self, minimal: Corpus, minimal_site: Path):
        """An entry of the base game is badged as such, even from an expansion's source."""
        article = _article(minimal_site, minimal.entries["harbor-dt-keeper-twice"])
        assert '<span class="badge expansion base">Base game</span>' in article
        assert '<span class="badge kind">FAQ</span>' in article

    def test_entry_cites_source_edition_date_and_section(self, minimal: Corpus, minimal_site: Path):
        """The citation names the source (linked to the sources page), its edition and date, and the section."""
        article = _article(minimal_site, minimal.entries["harbor-tide-clock"])
        citation = article[article.index('<footer class="citation">'):]
        assert '<a href="../sources.html#src--lantern-harbor--rulebook">Lantern Harbor rulebook</a>' in citation
        assert "second printing" in citation and "2021-05-01" in citation
        assert "Cards &gt; Tide Clock (the round tracker)" in citation
        assert "Official" in citation

    def test_aliases_listed_with_language(self, minimal: Corpus, minimal_site: Path):
        """An entry lists its aliases, French ones marked lang="fr"."""
        article = _article(minimal_site, minimal.entries["harbor-beacon-keeper"])
        assert '<span class="alias" lang="fr">Gardien du Phare</span>' in article
        assert '<span class="alias">Keeper</span>' in article

    def test_every_page_has_landmarks_and_skip_link(self, shipped_site: Path):
        """Every page is lang="en" (lang="fr" in French: `.fr.html`) with a skip link to main, a header, a nav, a main and a footer."""
        for name, page in _pages(shipped_site).items():
            tags = [tag for tag, _ in page.tags]
            html_attrs = page.tags[0][1]
            assert page.tags[0][0] == "html" and html_attrs.get("lang") == ("fr" if name.endswith(".fr.html") else "en"), name
            assert {"header", "nav", "main", "footer"} <= set(tags), name
            assert page.links[0] == "#main" and "main" in page.ids, name
            # (an icon said, none to fetch: no request for /favicon.ico, which no site folder has)
            assert ("link", {"rel": "icon", "href": "data:,"}) in page.tags, name

    def test_same_corpus_gives_identical_files(self, minimal: Corpus, tmp_path: Path):
        """Two builds of one corpus write byte-identical files."""
        site.build(minimal, tmp_path / "one")
        site.build(minimal, tmp_path / "two")
        assert _tree(tmp_path / "one") == _tree(tmp_path / "two")

    def test_one_entry_is_one_entry(self, minimal_site: Path, curation_site: Path):
        """Counts of one are singular: a game of one entry, a source of one entry."""
        home = (minimal_site / "index.html").read_text(encoding="utf-8")
        assert '<p class="game-facts">1 entry</p>' in home and "1 entries" not in home
        orchard = (minimal_site / "copper-orchard/index.html").read_text(encoding="utf-8")
        assert '<p class="lead">1 entry.</p>' in orchard
        assert re.search(r"· 1 entry\s", orchard)
        assert "1 entries" not in (curation_site / "sources.html").read_text(encoding="utf-8")
        assert [site_templates.count(n, "entry", "entries") for n in (0, 1, 2)] == ["0 entries", "1 entry", "2 entries"]

    def test_static_files_are_copied(self, shipped_site: Path):
        """templates/static/ is copied into _static/."""
        for path in (site_templates.templates_dir() / "static").iterdir():
            assert (shipped_site / "_static" / path.name).read_bytes() == path.read_bytes()


# -- links ---------------------------------------------------------------------


class TestLinks:
    @pytest.mark.parametrize("which", ["shipped_site", "minimal_site", "hostile_site", "curation_site"])
    def test_no_broken_internal_link_or_anchor(self, which: str, request: pytest.FixtureRequest):
        """Every internal href and src of every page reaches an existing file and anchor."""
        assert _broken_links(request.getfixturevalue(which)) == []

    def test_search_results_reach_entry_anchors(self, shipped: Corpus, shipped_site: Path):
        """Every entry of the search data leads to an element with its id on its page, and has its text."""
        pages = _pages(shipped_site)
        for slug, names in _names(shipped_site).items():
            assert names["name"] == shipped.games[slug].name
            for entry_id, _kind, _title, _aliases, _flags, page, *_ in names["entries"]:
                assert entry_id in pages[f"{slug}/{names['pages'][page]}"].ids
            texts = _data(shipped_site / site_search.texts_file(slug))["texts"]
            assert texts == [site_search.plain_text(e.text) for e in shipped.entries_of(slug)]
            assert [row[0] for row in names["entries"]] == [e.id for e in shipped.entries_of(slug)]
        assert len(_rows(shipped_site)) == len(shipped.entries)

    @pytest.mark.parametrize("which", ["shipped_site", "hostile_site"])
    def test_no_resource_from_another_host(self, which: str, request: pytest.FixtureRequest):
        """No page loads a script, style sheet or image from another host."""
        for name, page in _pages(request.getfixturevalue(which)).items():
            for resource in page.resources:
                assert not urllib.parse.urlsplit(resource).netloc and not resource.startswith("//"), (name, resource)

    def test_static_files_name_no_other_host(self):
        """The CSS and the search script name no URL of another host (but in the comment that the Snowball generator
        heads each vendored stemmer with, kept verbatim)."""
        for path in (site_templates.templates_dir() / "static").iterdir():
            text = re.sub(r"^// Generated from \w+\.sbl by Snowball [\d.]+ - https://snowballstem\.org/$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
            assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), path

    def test_see_also_links_each_target(self, shipped: Corpus, shipped_site: Path):
        """See also lists each target by title, linked to its anchor."""
        entry = shipped.entries["arcana-victory-check"]
        article = _article(shipped_site, entry)
        see_also = article[article.index("<dt>See also</dt>"):]
        see_also = see_also[: see_also.index("</dd>")]
        assert _hrefs(see_also) == [f"#{target}" for target in entry.see_also]

    def test_referenced_by_lists_backlinks(self, shipped: Corpus, shipped_site: Path):
        """Referenced by lists every entry whose See also names this one."""
        article = _article(shipped_site, shipped.entries["arcana-victory-check"])
        block = article[article.index("<dt>Referenced by</dt>"):]
        block = block[: block.index("</dd>")]
        expected = shipped.referenced_by()["arcana-victory-check"]
        assert _hrefs(block) == [f"#{i}" for i in expected]

    def test_backlink_across_games_reaches_other_page(self, minimal: Corpus, minimal_site: Path):
        """A See also from another game shows as a Referenced by linking to that game's page."""
        article = _article(minimal_site, minimal.entries["harbor-setup"])
        link = '<a href="../copper-orchard/index.html#orchard-harvest">Harvest</a> <span class="link-note">(Copper Orchard)</span>'
        assert link in article

    def test_changed_by_note_on_base_victory_check(self, shipped: Corpus, shipped_site: Path):
        """The base victory check carries a note, "Changed by" as the CLI says, that the Perlae Imperii 13-VP entry changes it."""
        article = _article(shipped_site, shipped.entries["arcana-victory-check"])
        note = re.search(r'<p class="note changed-by"><strong>Changed by</strong>(.*?)</p>', article, re.DOTALL)
        assert note and "#arcana-pi-victory-check" in _hrefs(note.group(1))
        assert "(Perlae Imperii)" in note.group(1)

    def test_changes_listed_on_the_changing_entry(self, shipped: Corpus, shipped_site: Path):
        """The 13-VP entry lists the base victory check under Changes, and no page says "Modifies"."""
        article = _article(shipped_site, shipped.entries["arcana-pi-victory-check"])
        for path in shipped_site.rglob("*.html"):
            assert "Modifie" not in path.read_text(encoding="utf-8"), path.name
        block = article[article.index("<dt>Changes</dt>"):]
        assert _hrefs(block[: block.index("</dd>")]) == ["#arcana-victory-check"]

    def test_anchor_link_in_text_points_at_entry(self, minimal: Corpus, minimal_site: Path):
        """A `[text](#entry-id)` link of an entry text leads to that entry."""
        assert "#harbor-tide-clock" in _hrefs(_entry_text(minimal_site, minimal.entries["harbor-end"]))

    def test_external_link_kept_with_rel(self, minimal: Corpus, minimal_site: Path):
        """An https link of an entry text is kept, with rel="noopener noreferrer"."""
        text = _entry_text(minimal_site, minimal.entries["harbor-end"])
        assert '<a href="https://example.org/lantern-harbor" rel="noopener noreferrer">' in text


# -- automatic links between entries --------------------------------------------


class TestAutoLinks:
    def test_title_mention_links_entry(self, minimal: Corpus, minimal_site: Path):
        """A mention of another entry's title in a text links to that entry."""
        text = _entry_text(minimal_site, minimal.entries["harbor-setup"])
        assert '<a href="#harbor-tide-clock" class="autolink" title="Tide Clock">Tide Clock</a>' in text

    def test_match_is_case_insensitive(self, minimal: Corpus, minimal_site: Path):
        """A lower-case mention of a title is linked, keeping the text's spelling."""
        text = _entry_text(minimal_site, minimal.entries["harbor-turn"])
        assert '<a href="#harbor-tide-clock" class="autolink" title="Tide Clock">tide clock</a>' in text

    def test_at_most_once_per_target(self, minimal: Corpus, minimal_site: Path):
        """A target mentioned twice is linked once, at its first mention."""
        assert _hrefs(_entry_text(minimal_site, minimal.entries["harbor-turn"])).count("#harbor-tide-clock") == 1

    def test_entry_never_links_itself(self, minimal: Corpus, minimal_site: Path):
        """An entry's mention of its own title or alias is not linked."""
        for entry_id in ("harbor-beacon-keeper", "harbor-turn"):
            assert f"#{entry_id}" not in _hrefs(_entry_text(minimal_site, minimal.entries[entry_id]))

    def test_not_inside_links_nor_code_and_not_after_explicit_link(self, minimal: Corpus, minimal_site: Path):
        """Existing links and code are left alone, and a target the text links itself is not linked again."""
        text = _entry_text(minimal_site, minimal.entries["harbor-dt-keeper-twice"])
        assert _hrefs(text) == ["#harbor-beacon-keeper"]
        assert '<a href="#harbor-beacon-keeper">Keeper</a>' in text
        assert "<code>Beacon Keeper</code>" in text

    def test_french_alias_links_with_lang(self, minimal: Corpus, minimal_site: Path):
        """A French alias mentioned in a table cell links with lang="fr"."""
        text = _entry_text(minimal_site, minimal.entries["harbor-tide-clock"])
        assert 'title="Beacon Keeper" lang="fr">Gardien du Phare</a>' in text

    def test_names_of_another_game_are_not_linked(self, minimal: Corpus, minimal_site: Path):
        """Only names of the same game are linked."""
        assert "autolink" not in _entry_text(minimal_site, minimal.entries["orchard-harvest"])

    def test_short_and_common_word_aliases_are_not_linkable(self):
        """Names under 4 characters and lower-case one-word aliases are not linked; titles and proper names are."""
        entry = Entry(
            id="t-a", game="t", kind="rule", title="Tie", text="x", source="s", section="s",
            aliases=(Alias("draw"), Alias("clock"), Alias("Keeper"), Alias("tide track"), Alias("13 vp"), Alias("vp")),
        )
        names = {name for name, _ in site_links.NameTable.for_entries([entry]).names}
        assert names == {"Keeper", "tide track", "13 vp"}

    def test_names_claimed_twice_are_not_linkable(self):
        """A name two entries of a game share is ambiguous and never linked."""
        entries = [
            Entry(id=f"t-{n}", game="t", kind="rule", title=f"Card {n}", text="x", source="s", section="s", aliases=(Alias("Shared Name"),))
            for n in (1, 2)
        ]
        assert "Shared Name" not in {name for name, _ in site_links.NameTable.for_entries(entries).names}

    def test_longest_name_wins(self):
        """Where names overlap, the longest is linked: "Pearl Bed" rather than "Pearl"."""
        entries = [
            Entry(id="t-pearl", game="t", kind="rule", title="Pearl", text="x", source="s", section="s"),
            Entry(id="t-bed", game="t", kind="rule", title="Pearl Bed", text="x", source="s", section="s"),
            Entry(id="t-other", game="t", kind="rule", title="Other", text="Put it on the Pearl Bed.", source="s", section="s"),
        ]
        context = site_links.LinkContext("t-other", site_links.NameTable.for_entries(entries), lambda i: f"#{i}")
        assert _hrefs(site_links.to_html(entries[2].text, context)) == ["#t-bed"]

    def test_whole_words_only(self):
        """A name inside a longer word is not linked."""
        entries = [Entry(id="t-pearl", game="t", kind="rule", title="Pearl", text="x", source="s", section="s")]
        context = site_links.LinkContext("t-x", site_links.NameTable.for_entries(entries), lambda i: f"#{i}")
        assert "autolink" not in site_links.to_html("Pearlescent shells and mother-of-pearls.", context)

    def test_grouped_search_finds_what_the_alternation_finds(self):
        """NameTable.finditer (names grouped by first character) matches exactly as the plain alternation of every name."""
        titles = [
            "Pearl", "Pearl Bed", "pearl diver", "PEARL BED RULES", "Sand", "Sandstorm", "sand timer",
            "’Twas Night", "'Tis Time", "13 points", "1st Player", "•Lone Pilot", "Liet’s Gift", "Liet's Gift Box",
            "Æther Vial", "æther", "Ölmühle", "Straße", "Strasse Karte",
        ]
        entries = [Entry(id=f"t-{n}", game="t", kind="rule", title=t, text="x", source="s", section="s") for n, t in enumerate(titles)]
        table = site_links.NameTable.for_entries(entries)
        text = (
            "A pearl  bed, the Pearl Bed Rules, PEARL DIVER; a Sandstorm or sand\ntimer. ’Tis time: 'twas night. "
            "Score 13 points, 1st player, •lone pilot. Liet's gift and Liet’s Gift Box. æther vial, ÆTHER. "
            "Ölmühle, STRASSE karte, straße. Pearlescent sands."
        )
        assert table.pattern is not None
        expected = [(m.span(), m.group(0)) for m in table.pattern.finditer(text)]
        assert [(m.span(), m.group(0)) for m in table.finditer(text)] == expected
        assert len(expected) > 10

    def test_a_first_character_of_two_groups_keeps_the_longest_name(self):
        """Where a character may start names of two groups ("I" matches "ı" and "i" case-insensitively), the longest name still wins."""
        entries = [
            Entry(id="t-long", game="t", kind="rule", title="Iron Gate Long Name", text="x", source="s", section="s"),
            Entry(id="t-dotless", game="t", kind="rule", title="ıron Gate Long", text="x", source="s", section="s"),
            Entry(id="t-short", game="t", kind="rule", title="Iron Gate", text="x", source="s", section="s"),
        ]
        table = site_links.NameTable.for_entries(entries)
        found = [m.group(0) for m in table.finditer("The Iron Gate Long, then Iron Gate.")]
        assert found == ["Iron Gate Long", "Iron Gate"]  # not "Iron Gate" first, as the group of "Iron Gate" alone would find

    def test_parser_unchanged_outside_the_site(self):
        """The shared parser renders as before when no site context is given."""
        site_links.site_plugin(parser())
        assert parser().render("[x](#a) [y](mailto:a@b.c)\n") == '<p><a href="#a">x</a> <a href="mailto:a@b.c">y</a></p>\n'
        assert to_terminal("### Title\n\nText") == "\x01Title\x02\n\nText"

    def test_plugin_registers_once(self):
        """Using the plugin twice adds its rules once."""
        site_links.site_plugin(parser())
        site_links.site_plugin(parser())
        rules = parser().core.ruler.get_all_rules()
        assert rules.count("rulebot_auto_links") == 1


# -- A–Z and sources -------------------------------------------------------------


class TestIndexAndSources:
    def test_index_lists_titles_and_aliases(self, minimal: Corpus, minimal_site: Path):
        """The A–Z lists every title and alias of the game, each linked to its entry."""
        page = _pages(minimal_site)["lantern-harbor/a-z.html"]
        text = (minimal_site / "lantern-harbor/a-z.html").read_text(encoding="utf-8")
        for entry in minimal.entries_of("lantern-harbor"):
            for name in entry.names():
                assert f">{html.escape(name)}</a>" in text, name
        assert page.links.count("index.html#harbor-beacon-keeper") == 4

    @pytest.mark.parametrize("page", ["portals-of-molthar/a-z.html", "portals-of-molthar/a-z.fr.html", "res-arcana/a-z.html"])
    def test_index_lists_each_name_of_an_entry_once(self, shipped_site: Path, page: str):
        """No name points an entry at itself (an alias that is its title, "power points → Power points") or twice (the
        same alias in English and in French)."""
        text = (shipped_site / page).read_text(encoding="utf-8")
        rows = re.findall(r'<li(?: class="alias-item")?><a href="([^"]*)"[^>]*>([^<]*)</a>(?:(?!</li>).)*?(?:<span class="see">→ ([^<]*)</span>)?', text)
        assert len(rows) > 50
        assert [(name, target) for _href, name, target in rows if target and fold(html.unescape(name)) == fold(html.unescape(target))] == []
        named = [(href, fold(html.unescape(name))) for href, name, _target in rows]
        assert len(named) == len(set(named))

    def test_index_marks_french_names(self, minimal_site: Path):
        """French aliases in the A–Z carry lang="fr"."""
        text = (minimal_site / "lantern-harbor/a-z.html").read_text(encoding="utf-8")
        assert '<a href="index.html#harbor-beacon-keeper" lang="fr">Gardien du Phare</a>' in text

    def test_index_is_sorted_without_accents_or_case(self, shipped_site: Path):
        """The A–Z of the French-sourced game is in folded alphabetical order."""
        text = (shipped_site / "portals-of-molthar/a-z.html").read_text(encoding="utf-8")
        names = [html.unescape(n) for n in re.findall(r'<li(?: class="alias-item")?><a href="index.html#[^"]*"[^>]*>([^<]*)</a>', text)]
        letters = [n for n in names if "A" <= fold(n)[:1].upper() <= "Z"]
        assert letters == sorted(letters, key=fold) and len(names) > 100

    def test_names_of_no_letter_share_one_heading(self, tmp_path: Path):
        """Names starting with a digit (sorted before A) and with a sign (after Z) are listed under one "#"."""
        game = 'slug = "signs"\nname = "Signs"\nid_prefix = "signs"\n[[sources]]\nid = "r"\ntitle = "R"\n'
        entries = "".join(f"## signs-{n}\ntitle: {title}\nkind: rule\nsection: S\n\nText.\n\n" for n, title in enumerate(["13 points", "Anchor", "•Lone Pilot"]))
        write_corpus(tmp_path / "corpus", {"signs/game.toml": game, "signs/r.md": entries})
        site.build(load([tmp_path / "corpus"]), tmp_path / "site")
        page = _pages(tmp_path / "site")["signs/a-z.html"]
        assert page.ids.count("az--other") == 1
        text = (tmp_path / "site/signs/a-z.html").read_text(encoding="utf-8")
        other = _element(text, "az--other")
        assert "13 points" in other and "•Lone Pilot" in other

    def test_sources_page_lists_each_document(self, shipped: Corpus, shipped_site: Path):
        """The sources page gives each document with its edition, date and trust level."""
        text = (shipped_site / "sources.html").read_text(encoding="utf-8")
        for game in shipped.games.values():
            for source in game.sources:
                block = text[text.index(f'id="{site_paths.source_anchor(game.slug, source.id)}"'):]
                block = block[: block.index("</li>")]
                assert html.escape(source.title) in block
                assert html.escape(source.edition) in block
                assert site_views.TRUST_LABELS[source.trust] in block
                if source.date:
                    assert source.date in block


# -- safety ----------------------------------------------------------------------


class TestSafety:
    def test_no_script_element_comes_from_the_corpus(self, hostile_site: Path):
        """The only script elements of a page are the site's own, loaded by src."""
        for name, page in _pages(hostile_site).items():
            scripts = [attrs for tag, attrs in page.tags if tag == "script"]
            assert scripts and all(attrs.get("src") for attrs in scripts), name
            text = (hostile_site / name).read_text(encoding="utf-8")
            assert text.count("<script") == len(scripts), name

    def test_no_event_handler_attribute(self, hostile_site: Path):
        """No element of any page has an on* attribute."""
        for name, page in _pages(hostile_site).items():
            for tag, attrs in page.tags:
                assert not [a for a in attrs if a.startswith("on")], (name, tag, attrs)

    def test_no_image_element(self, hostile_site: Path):
        """Images of entry texts become text or links: nothing is loaded from their URL."""
        for page in _pages(hostile_site).values():
            assert "img" not in [tag for tag, _ in page.tags]

    def test_links_are_http_relative_or_anchors(self, hostile_site: Path):
        """Every link is http(s), relative or an in-site anchor: no javascript:, data:, mailto: or //host."""
        for name, page in _pages(hostile_site).items():
            for href in page.links:
                assert site_links.classify_href(href) != "refused", (name, href)
        hrefs = _pages(hostile_site)["hostile-game/index.html"].links
        assert "https://example.org/rules" in hrefs
        assert not [h for h in hrefs if "evil.example/x" in h or "passwd" in h or "nowhere" in h or "notes.html" in h]

    def test_hostile_title_is_escaped_everywhere(self, hostile_site: Path):
        """A title holding </script> appears escaped in every page that shows it."""
        for name in ("hostile-game/index.html", "hostile-game/a-z.html"):
            text = (hostile_site / name).read_text(encoding="utf-8")
            assert "&lt;/script&gt;&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in text
            assert "<script>alert" not in text

    def test_search_data_cannot_close_its_script(self, hostile_site: Path):
        """The search data has no <, > or & character, and decodes back to the hostile title."""
        for path in (hostile_site / site_search.SEARCH_DIR).iterdir():
            raw = path.read_bytes()
            assert raw.isascii() and not re.search(rb"[<>&]", raw), path.name
        titles = [row[2] for row in _rows(hostile_site).values()]
        assert "</script><script>alert('title')</script>" in titles

    def test_script_json_escapes_separators(self):
        """U+2028, U+2029, <, > and & are written as \\u escapes."""
        text = site_search.script_json({"t": "</script>\u2028\u2029&"})
        assert text == '{"t":"\\u003c/script\\u003e\\u2028\\u2029\\u0026"}'
        assert json.loads(text) == {"t": "</script>\u2028\u2029&"}

    @pytest.mark.parametrize(
        ("href", "kind"),
        [
            ("https://example.org/x", "external"),
            ("http://example.org", "external"),
            ("#arcana-x", "anchor"),
            ("other.html#x", "relative"),
            ("../sources.html", "relative"),
            ("javascript:alert(1)", "refused"),
            ("JavaScript:alert(1)", "refused"),
            ("data:text/html,x", "refused"),
            ("mailto:a@b.c", "refused"),
            ("//evil.example/x", "refused"),
            ("/etc/passwd", "refused"),
            ("http:evil", "refused"),
            ("java%0Ascript:alert(1)", "refused"),
            ("a\\b", "refused"),
        ],
    )
    def test_classify_href(self, href: str, kind: str):
        """Links are sorted into external, anchor, relative and refused."""
        assert site_links.classify_href(href) == kind

    def test_site_error_is_a_rulebot_error(self):
        """SiteError is reported to the user like every rulebot error."""
        assert issubclass(SiteError, RulebotError)


# -- the output folder -------------------------------------------------------------


class TestOutputFolder:
    def test_refuses_a_foreign_non_empty_folder(self, minimal: Corpus, tmp_path: Path):
        """A non-empty folder without the marker is refused and left untouched; the error names the option that
        would replace it."""
        out = tmp_path / "mine"
        out.mkdir()
        (out / "notes.txt").write_text("keep me")
        with pytest.raises(SiteError, match=r"not made by rulebot.*build with --force to replace its content"):
            site.build(minimal, out)
        assert [p.name for p in out.iterdir()] == ["notes.txt"]

    def test_force_replaces_a_foreign_folder(self, minimal: Corpus, tmp_path: Path):
        """With force, a foreign folder's content is replaced by the site."""
        out = tmp_path / "mine"
        out.mkdir()
        (out / "notes.txt").write_text("old")
        site.build(minimal, out, force=True)
        assert not (out / "notes.txt").exists()
        assert (out / site_writing.MARKER).is_file() and (out / "index.html").is_file()

    def test_accepts_an_empty_folder(self, minimal: Corpus, tmp_path: Path):
        """An existing empty folder is built into without force."""
        (tmp_path / "empty").mkdir()
        assert site.build(minimal, tmp_path / "empty").pages > 0

    def test_rebuild_replaces_its_own_site(self, minimal: Corpus, tmp_path: Path):
        """A folder it made is rebuilt without force, stale files gone."""
        out = tmp_path / "site"
        site.build(minimal, out)
        (out / "stale.html").write_text("old page")
        site.build(minimal, out)
        assert not (out / "stale.html").exists()

    def test_leaves_nothing_beside_the_folder(self, minimal: Corpus, tmp_path: Path):
        """Building and rebuilding leave no temporary folder beside the site."""
        site.build(minimal, tmp_path / "site")
        site.build(minimal, tmp_path / "site")
        assert [p.name for p in tmp_path.iterdir()] == ["site"]

    def test_failed_build_keeps_previous_site(self, minimal: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A build that fails while rendering leaves the previous site as it was, and no temporary folder."""
        out = tmp_path / "site"
        site.build(minimal, out)
        before = _tree(out)

        def fail(*args: object) -> str:
            raise RuntimeError("boom")

        monkeypatch.setattr(site_game_pages, "to_html", fail)
        with pytest.raises(RuntimeError):
            site.build(minimal, out)
        assert _tree(out) == before
        assert [p.name for p in tmp_path.iterdir()] == ["site"]

    def test_failed_write_keeps_previous_site(self, minimal: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A build that fails while writing (a full disk) raises WriteError and keeps the previous site."""
        out = tmp_path / "site"
        site.build(minimal, out)
        before = _tree(out)
        with monkeypatch.context() as disk, pytest.raises(WriteError, match=f"cannot write {out}: No space left on device; it is as it was"):
            fill_disk(disk, 20_000)
            site.build(minimal, out)
        assert _tree(out) == before
        assert [p.name for p in tmp_path.iterdir()] == ["site"]

    def test_a_folder_that_cannot_be_written_is_said_before_rendering(self, minimal: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """No folder can be made where the site goes: the error comes before any page is rendered, nothing written."""
        from rulebot.site import build as site_build

        rendered: list[str] = []
        monkeypatch.setattr(site_build, "_render", lambda corpus, say: rendered.append("rendered") or iter(()))
        blocker = tmp_path / "a-file"
        blocker.write_text("", encoding="utf-8")
        with pytest.raises(SiteError, match=r"cannot write .*a-file/site: .*; nothing was changed"):
            site.build(minimal, blocker / "site")
        assert rendered == [] and [p.name for p in tmp_path.iterdir()] == ["a-file"]

    @pytest.mark.parametrize("force", [False, True])
    def test_refuses_root_and_home(self, minimal: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force: bool):
        """The file system root and the home folder are refused, even with force."""
        home = tmp_path / "home"
        home.mkdir()
        monkeypatch.setenv("HOME", str(home))
        for target in (Path("/"), home, Path("~"), tmp_path):
            with pytest.raises(SiteError, match="refusing"):
                site.build(minimal, target, force=force)
        assert [p.name for p in home.iterdir()] == []

    def test_refuses_the_current_directory(self, minimal: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A folder holding the current directory is refused, even with force."""
        (tmp_path / "work").mkdir()
        (tmp_path / "work" / "file.txt").write_text("x")
        monkeypatch.chdir(tmp_path / "work")
        with pytest.raises(SiteError, match="current directory"):
            site.build(minimal, Path("."), force=True)
        assert (tmp_path / "work" / "file.txt").is_file()

    def test_refuses_the_corpus_folder(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A folder holding the corpus is refused, even with force."""
        game_dir = tmp_path / "corpus" / "tiny"
        game_dir.mkdir(parents=True)
        (game_dir / "game.toml").write_text('slug = "tiny"\nname = "Tiny"\nid_prefix = "tiny"\n[[sources]]\nid = "r"\ntitle = "R"\n')
        (game_dir / "r.md").write_text("## tiny-one\ntitle: One\nkind: rule\nsection: S\n\nA rule.\n")
        corpus = load([tmp_path / "corpus"])
        for target in (tmp_path / "corpus", game_dir):
            with pytest.raises(SiteError, match="holds the corpus"):
                site.build(corpus, target, force=True)
        # inside it, the site's folder would be read as a game's, and the corpus would no longer load
        with pytest.raises(SiteError, match="inside the corpus folder"):
            site.build(corpus, tmp_path / "corpus" / "site", force=True)
        assert sorted(p.name for p in game_dir.iterdir()) == ["game.toml", "r.md"]
        assert sorted(p.name for p in (tmp_path / "corpus").iterdir()) == ["tiny"]

    def test_refuses_a_file(self, minimal: Corpus, tmp_path: Path):
        """An output path that is a file is refused."""
        (tmp_path / "file").write_text("x")
        with pytest.raises(SiteError, match="not a folder"):
            site.build(minimal, tmp_path / "file", force=True)

    def test_progress_reports_steps(self, minimal: Corpus, tmp_path: Path):
        """progress receives one message per step and one for the writing."""
        messages: list[str] = []
        site.build(minimal, tmp_path / "site", progress=messages.append)
        assert messages[0] == "rendering home page" and messages[-1].startswith("writing ")


# -- serving and templates -----------------------------------------------------------


class TestServeAndTemplates:
    def test_serve_serves_the_site(self, minimal_site: Path):
        """serve() answers on the loopback with the site's pages until closed."""
        with site_server.serve(minimal_site) as server:
            assert server.url.startswith("http://127.0.0.1:")
            with urllib.request.urlopen(server.url + "lantern-harbor/index.html", timeout=10) as response:
                assert response.status == 200
                assert b'id="harbor-beacon-keeper"' in response.read()

    def test_serve_refuses_a_folder_without_site(self, tmp_path: Path):
        """serve() of a folder without a built site raises SiteError."""
        with pytest.raises(SiteError, match="no site"):
            site_server.serve(tmp_path)

    def test_templates_dir_holds_the_templates(self):
        """templates_dir() finds base.html and the static files."""
        assert (site_templates.templates_dir() / "base.html").is_file()
        assert (site_templates.templates_dir() / "static" / "search.js").is_file()

    def test_pages_receive_their_documented_context(self, minimal: Corpus, large: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Each page template receives exactly the keys of its documented context."""
        seen: dict[str, set[str]] = {}
        original = site_templates.render_page

        def spy(env, names, context):  # type: ignore[no-untyped-def]
            seen[names[-1]] = set(context)
            return original(env, names, context)

        for module in (site, site_game_pages, site_az_pages):  # the modules that render pages with it
            monkeypatch.setattr(module, "render_page", spy)
        site.build(minimal, tmp_path / "site")
        site.build(large, tmp_path / "large")
        assert seen == {
            "home.html": set(site_views.HomeContext.__required_keys__),
            "game.html": set(site_views.GameContext.__required_keys__),
            "game-contents.html": set(site_views.GameContentsContext.__required_keys__),
            "game-section.html": set(site_views.GameSectionContext.__required_keys__),
            "a-z.html": set(site_views.IndexContext.__required_keys__),
            "sources.html": set(site_views.SourcesContext.__required_keys__),
        }

    def test_autoescape_is_on(self):
        """The template environment escapes every value."""
        env = site_templates.environment()
        assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"


# -- a game too large for one page ---------------------------------------------------


def _ids_on(site_dir: Path, page: str, corpus: Corpus) -> list[str]:
    """The entries of the corpus a page shows, in its order."""
    return [i for i in _pages(site_dir)[page].ids if i in corpus.entries]


class TestLargeGame:
    def test_small_games_keep_one_page(self, shipped: Corpus, shipped_site: Path):
        """Every shipped game is one page with all its entries, one A–Z and its setup page (and, for Molthar, all three in French too)."""
        for slug in shipped.games:
            french = ["a-z.fr.html", "index.fr.html", "setup.fr.html"] if slug == "portals-of-molthar" else []
            assert sorted(p.name for p in (shipped_site / slug).iterdir()) == sorted(["a-z.html", "index.html", "setup.html", *french])
            assert sorted(_ids_on(shipped_site, f"{slug}/index.html", shipped)) == sorted(e.id for e in shipped.entries_of(slug))

    def test_large_game_page_lists_its_pages(self, large: Corpus, large_site: Path):
        """The page of a game too large for one page shows no entry: it lists its pages, by source, each with its entry count."""
        layout = site_pages.layout_game(large.games[LARGE_GAME], large.entries_of(LARGE_GAME), site_paths.game_page(LARGE_GAME))
        assert layout.split and len(layout.pages) == 5
        index = (large_site / LARGE_GAME / "index.html").read_text(encoding="utf-8")
        assert "<article" not in index
        assert "475 entries, on 5 pages by section" in index
        listed = re.findall(r'<li><a href="([^"#]*)">([^<]*)</a> <span class="count">\((\d+)\)</span>', index)
        assert listed == [
            ("rulebook--basics.html", "Basics", "5"),
            ("rulebook--rooms.html", "Rooms (part 1 of 2)", "175"),
            ("rulebook--rooms-2.html", "Rooms (part 2 of 2)", "125"),
            ("rulebook--glossary.html", "Glossary", "150"),
            ("faq--faq.html", "FAQ", "20"),
        ]
        assert [f"{LARGE_GAME}/{href}" for href, *_ in listed] == [page.path for page in layout.pages]
        assert {"s--rulebook", "s--faq", "whats--new"} <= set(_pages(large_site)[f"{LARGE_GAME}/index.html"].ids)

    def test_every_entry_is_on_one_page_in_source_order(self, large: Corpus, large_site: Path):
        """The pages, in order, show every entry once, in the order of the sources; none shows more than PAGE_ENTRIES."""
        game = large.games[LARGE_GAME]
        layout = site_pages.layout_game(game, large.entries_of(LARGE_GAME), site_paths.game_page(LARGE_GAME))
        shown = [_ids_on(large_site, page.path, large) for page in layout.pages]
        assert [i for ids in shown for i in ids] == [e.id for s in game.sources for e in large.entries_of(LARGE_GAME) if e.source == s.id]
        assert max(len(ids) for ids in shown) <= site_pages.PAGE_ENTRIES
        for page in layout.pages:
            assert all(layout.page_of[i] == page.path for i in _ids_on(large_site, page.path, large))

    def test_a_section_too_large_is_cut_at_a_sub_heading(self, large_site: Path):
        """The 300 rooms, too heavy for a page, are cut where floor 8 begins; each part says which part it is and which floors it holds."""
        first = (large_site / LARGE_GAME / "rulebook--rooms.html").read_text(encoding="utf-8")
        second = (large_site / LARGE_GAME / "rulebook--rooms-2.html").read_text(encoding="utf-8")
        assert '<div class="section" id="s--rulebook--2"' in first and 'id="s--rulebook--2--2"' in second
        assert '<span class="part">(part 1 of 2)</span>' in first and "Floor 1 – Floor 7" in first
        assert "Floor 8 – Floor 12" in second
        assert 'id="tower-room-174"' in first and 'id="tower-room-175"' in second

    def test_heavy_entries_split_by_size(self):
        """Entries of long texts fill a page up to PAGE_BYTES, not PAGE_ENTRIES: no page weighs more (unless one entry does)."""
        game = load([CORPORA / "site-minimal"]).games["lantern-harbor"]
        entries = [
            Entry(id=f"harbor-long-{n}", game="lantern-harbor", kind="rule", title=f"Long {n}", text="word " * (2_000 + 300 * n), source="rulebook", section="Long")
            for n in range(60)
        ]
        layout = site_pages.layout_game(game, entries, "lantern-harbor/index.html")
        assert layout.split and len(layout.pages) > 5
        for page in layout.pages:
            weights = [site_pages.weight(e) for s in page.sections for e in s.entries]
            assert sum(weights) <= site_pages.PAGE_BYTES or len(weights) == 1

    def test_links_reach_entries_on_other_pages(self, large: Corpus, large_site: Path):
        """See also, Referenced by, Changed by, automatic links and a text's link to the game page lead to the page the entry is on."""
        climbing = _article(large_site, large.entries["tower-climbing"])
        see_also = climbing[climbing.index("<dt>See also</dt>"):]
        assert _hrefs(see_also[: see_also.index("</dd>")]) == ["rulebook--rooms-2.html#tower-room-280"]
        assert 'href="rulebook--rooms-2.html#tower-room-280" class="autolink" title="Observatory Deck"' in climbing
        deck = _article(large_site, large.entries["tower-room-280"])
        assert '<a href="rulebook--basics.html#tower-climbing">Climbing</a>' in deck  # Referenced by
        room = _article(large_site, large.entries["tower-room-5"])
        note = re.search(r'<p class="note changed-by">(.*?)</p>', room, re.DOTALL)
        assert note and _hrefs(note.group(1)) == ["faq--faq.html#tower-faq-0"]
        faq = _article(large_site, large.entries["tower-faq-0"])
        assert "rulebook--rooms.html#tower-room-5" in _hrefs(faq[faq.index("<dt>Changes</dt>"):])
        assert "rulebook--rooms-2.html#tower-room-280" in _hrefs(_entry_text(large_site, large.entries["tower-basic-1"]))

    def test_whats_new_and_index_link_entry_pages(self, large_site: Path):
        """What's new (on the game page) and the A–Z link each entry on its page."""
        news = _whats_new((large_site / LARGE_GAME / "index.html").read_text(encoding="utf-8"))
        assert [h for h in _hrefs(news) if "tower-" in h] == [f"faq--faq.html#tower-faq-{n}" for n in range(3)]
        index = _pages(large_site)[f"{LARGE_GAME}/a-z.html"].links
        assert "rulebook--rooms-2.html#tower-room-280" in index and "rulebook--glossary.html#tower-term-7" in index

    def test_pages_link_their_neighbours(self, large_site: Path):
        """Each page links the one before and the one after, and the list of pages."""
        glossary = (large_site / LARGE_GAME / "rulebook--glossary.html").read_text(encoding="utf-8")
        assert '<a href="rulebook--rooms-2.html" rel="prev">' in glossary and '<a href="faq--faq.html" rel="next">' in glossary
        assert '<a href="index.html">All pages</a>' in glossary
        basics = (large_site / LARGE_GAME / "rulebook--basics.html").read_text(encoding="utf-8")
        assert 'rel="prev"' not in basics and "<title>Tall Tower: Basics · rulebot</title>" in basics

    def test_no_broken_link_and_same_files_twice(self, large: Corpus, large_site: Path, tmp_path: Path):
        """Every link of the split game reaches its page and anchor; a second build writes the same files."""
        assert _broken_links(large_site) == []
        site.build(large, tmp_path / "again")
        assert _tree(tmp_path / "again") == _tree(large_site)

    def test_search_names_point_at_entry_pages(self, large: Corpus, large_site: Path):
        """The search data gives each entry its page, where its anchor is."""
        names = _names(large_site)[LARGE_GAME]
        pages = _pages(large_site)
        assert len(names["pages"]) == 5
        for entry_id, _kind, _title, _aliases, _flags, page, *_ in names["entries"]:
            assert entry_id in pages[f"{LARGE_GAME}/{names['pages'][page]}"].ids
        where = _data(large_site / site_search.pages_file(LARGE_GAME))["pages"]  # an anchor moved to another page
        assert {entry_id: page for page, ids in where.items() for entry_id in ids.split(" ")} == {
            row[0]: names["pages"][row[5]] for row in names["entries"]}

    def test_large_index_is_split_by_letter(self, large: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An A–Z of more than AZ_PAGE_NAMES names lists its letters' pages; a letter of more names is cut into parts."""
        monkeypatch.setattr(site_pages, "AZ_PAGE_NAMES", 40)
        site.build(large, tmp_path / "site")
        pages = _pages(tmp_path / "site")
        first = (tmp_path / "site" / LARGE_GAME / "a-z.html").read_text(encoding="utf-8")
        assert 'class="index-items"' not in first and '<a href="a-z-r.html">R</a>' in first
        assert "476 names" in first  # 475 titles and one French alias
        assert '<a href="a-z-r-2.html">R (part 2 of 8)</a>' in first
        letters = sorted(name for name in pages if name.startswith(f"{LARGE_GAME}/a-z-"))
        named = [link for name in letters for link in pages[name].links if "#tower-" in link]
        assert all(len([link for link in pages[name].links if "#tower-" in link]) <= 40 for name in letters)
        assert len(named) == 476
        assert _broken_links(tmp_path / "site") == []

    @pytest.mark.parametrize(
        ("title", "slug"),
        [("Mise en place (été)", "mise-en-place-ete"), ("7. Additional Rules", "7-additional-rules"), ("???", "section"),
         ("A heading much longer than any page name should ever be", "a-heading-much-longer-than-any-page-name")],
    )
    def test_page_names_from_headings(self, title: str, slug: str):
        """A page is named after its first heading: folded, letters and digits, at most SLUG_LENGTH characters."""
        assert site_pages._slug(title) == slug and len(slug) <= site_pages.SLUG_LENGTH

    def test_page_names_never_clash(self):
        """A name taken gets -2, -3…; a later part gets -<part>; no section page name lacks `--`, which A–Z page names never hold."""
        taken = {"g/index.html"}
        names = [site_pages._unique("g/s--faq", 1, taken), site_pages._unique("g/s--faq", 2, taken), site_pages._unique("g/s--faq", 1, taken)]
        assert names == ["g/s--faq.html", "g/s--faq-2.html", "g/s--faq-3.html"]
        assert "--" not in site_pages.az_page("g/a-z.html", "#", 2) == "g/a-z-other-2.html"


# -- curator workflow: what's new, drafts, trust, house rules ---------------------


class TestWhatsNew:
    def test_dune_page_lists_revised_entries(self, shipped: Corpus, shipped_site: Path):
        """The shipped Dune page's What's new links every entry the FAQ of 2022-12-14 marks revised since its
        edition of 2021-02-14, under both dates (as `rulebot changes` dates them)."""
        text = (shipped_site / "dune-imperium/index.html").read_text(encoding="utf-8")
        news = _whats_new(text)
        revised = [e.id for e in shipped.entries_of("dune-imperium") if e.revised == "2022-12-14"]
        assert len(revised) == 18
        group = news[news.index(
            'New or revised since <time datetime="2021-02-14">2021-02-14</time>, in the edition of <time datetime="2022-12-14">2022-12-14</time>'
        ):]
        group = group[: group.index("</section>")]
        assert _hrefs(group) == ["#s--dune-faq"] + [f"#{entry_id}" for entry_id in revised]
        assert "As marked by" in group

    def test_dune_page_links_it_from_nav_and_contents(self, shipped_site: Path):
        """The game navigation and the contents link the What's new section of the page."""
        page = _pages(shipped_site)["dune-imperium/index.html"]
        assert "whats--new" in page.ids
        assert page.links.count("../dune-imperium/index.html#whats--new") == 1  # game nav
        assert page.links.count("#whats--new") == 1  # contents
        assert "../dune-imperium/index.html#whats--new" in _pages(shipped_site)["dune-imperium/a-z.html"].links

    def test_entries_follow_revised_changes_newest_first(self, curation: Corpus, curation_site: Path):
        """What's new lists the revised entries of `changes()` in its order (newest first), each linked to its anchor, under its date."""
        news = _whats_new((curation_site / "quill-market/index.html").read_text(encoding="utf-8"))
        found = [h[1:] for h in _hrefs(news) if not h.startswith("#s--")]
        assert found == [c.entry.id for c in changes.changes(curation, "quill-market") if c.because == changes.REVISED]
        assert found == ["quill-house-free-ink", "quill-ink-well-twice"]
        dates = re.findall(r'<h3 id="whats--new--\d+--title" class="change-title">([^<]*)<time datetime="([^"]*)">', news)
        assert dates == [("New or revised in the edition of ", "2024-10-05"), ("New or revised in the edition of ", "2024-02-10")]
        assert "2 entries that their sources mark new or revised" in news

    def test_entries_dated_by_their_document_alone_are_not_listed(self, curation: Corpus, curation_site: Path, shipped_site: Path):
        """An entry without a `revised` date is not new because its document is dated: What's new leaves it out (and says "1 entry")."""
        dated = [c.entry.id for c in changes.changes(curation, "quill-market") if c.because == changes.SOURCE]
        assert "quill-setup" in dated and "quill-house-short-market" in dated
        news = _whats_new((curation_site / "quill-market/index.html").read_text(encoding="utf-8"))
        assert not set(dated) & {h[1:] for h in _hrefs(news)}
        assert "Dated" not in news and "date of their document" not in news
        dune = _whats_new((shipped_site / "dune-imperium/index.html").read_text(encoding="utf-8"))
        assert "<details" not in dune and "#dune-imperial-spy" not in _hrefs(dune)

    def test_one_revised_entry_is_one_entry(self, minimal_site: Path):
        """A game with a single revised entry says "1 entry that its source marks new or revised"."""
        news = _whats_new((minimal_site / "lantern-harbor/index.html").read_text(encoding="utf-8"))
        assert "1 entry that its source marks new or revised, newest first." in news

    def test_each_group_names_its_source(self, curation_site: Path):
        """A group says which document marks its entries revised, and links it."""
        text = (curation_site / "quill-market/index.html").read_text(encoding="utf-8")
        revised = _element(text, "whats--new--2")
        assert "As marked by" in revised and '<a href="#s--designer-notes">Quill Market designer notes</a>' in revised

    def test_anchor_cannot_be_an_entry_id(self):
        """The section's anchor (and its groups') holds `--`, which no entry id may: no clash with an entry."""
        assert not ID_RE.match(site_paths.WHATS_NEW_ANCHOR) and not ID_RE.match(f"{site_paths.WHATS_NEW_ANCHOR}--1")

    @pytest.mark.parametrize("slug", ["catalyst", "portals-of-molthar"])
    def test_no_section_without_changes(self, shipped_site: Path, slug: str):
        """A game whose entries carry no date has no What's new, and no link to one."""
        text = (shipped_site / slug / "index.html").read_text(encoding="utf-8")
        assert 'id="whats--new"' not in text and "whats--new" not in "".join(_pages(shipped_site)[f"{slug}/index.html"].links)
        assert "What’s new" not in text


class TestDrafts:
    def test_draft_entry_has_a_badge_in_words(self, curation: Corpus, curation_site: Path):
        """A draft entry is marked by a badge that says so in words, and its article is styled apart."""
        article = _article(curation_site, curation.entries["quill-trade"])
        assert '<span class="badge draft">Draft — not yet restated</span>' in article
        assert article.startswith('<article class="entry kind-faq is-draft"')

    def test_other_entries_have_no_draft_badge(self, curation: Corpus, curation_site: Path):
        """Only entries with `draft: true` carry the badge."""
        for entry in curation.entries.values():
            if not entry.draft:
                article = _article(curation_site, entry)
                assert "badge draft" not in article and "is-draft" not in article, entry.id

    def test_shipped_site_has_no_draft(self, shipped_site: Path):
        """The shipped corpus has no draft, so no page shows the badge."""
        for path in shipped_site.rglob("*.html"):
            assert "badge draft" not in path.read_text(encoding="utf-8"), path.name


class TestTrust:
    def test_citation_names_the_trust_level(self, curation: Corpus, curation_site: Path):
        """Every citation shows its source's trust level, labelled, with a class per level."""
        labels = {"quill-setup": "Official", "quill-blotter": "Designer ruling", "quill-trade": "Community", "quill-house-free-ink": "House"}
        for entry_id, label in labels.items():
            entry = curation.entries[entry_id]
            trust = curation.games["quill-market"].source(entry.source).trust
            article = _article(curation_site, entry)
            citation = article[article.index('<footer class="citation">'):]
            badge = f'<span class="label">Trust:</span> <span class="badge trust trust-{trust}">{label}</span>'
            assert badge in citation, entry_id
            assert site_views.TRUST_LABELS[trust] == label

    def test_sources_page_shows_every_trust_level(self, curation: Corpus, curation_site: Path):
        """The sources page gives each document its trust level, and flags the house-rules document."""
        text = (curation_site / "sources.html").read_text(encoding="utf-8")
        for source in curation.games["quill-market"].sources:
            block = text[text.index(f'id="{site_paths.source_anchor("quill-market", source.id)}"'):]
            block = block[: block.index("</li>")]
            assert f'<span class="badge trust trust-{source.trust}">{site_views.TRUST_LABELS[source.trust]}</span>' in block
            assert (HOUSE_FLAG in block) == (source.trust == "house"), source.id
        assert {s.trust for s in curation.games["quill-market"].sources} == {"official", "designer", "community", "house"}


class TestHouseRules:
    def test_house_rule_entry_is_flagged(self, curation: Corpus, curation_site: Path):
        """A house rule's article carries the flag in words, above its text, and is styled apart."""
        article = _article(curation_site, curation.entries["quill-house-short-market"])
        assert f'<p class="house-note"><span class="flag house-flag">{HOUSE_FLAG}</span></p>' in article
        assert article.index(HOUSE_FLAG) < article.index('<div class="entry-text">')
        assert 'class="entry kind-house-rule is-house"' in article

    def test_house_title_is_escaped(self, curation: Corpus, curation_site: Path):
        """The house rule's title, holding & and <, is escaped wherever it is shown."""
        for name in ("quill-market/index.html", "quill-market/a-z.html"):
            text = (curation_site / name).read_text(encoding="utf-8")
            assert "Short market &amp; &lt;quick&gt; end" in text and "<quick>" not in text, name

    def test_official_entries_are_not_flagged(self, curation: Corpus, curation_site: Path):
        """Entries of official, designer and community sources are not house rules."""
        for entry_id in ("quill-setup", "quill-blotter", "quill-trade", "quill-ink-well"):
            article = _article(curation_site, curation.entries[entry_id])
            assert "is-house" not in article and HOUSE_FLAG not in article, entry_id

    def test_links_to_a_house_rule_are_flagged(self, curation: Corpus, curation_site: Path):
        """An official entry's "Changed by" and "Referenced by" links to a house rule carry the flag."""
        modified = _article(curation_site, curation.entries["quill-end"])
        note = re.search(r'<p class="note changed-by">(.*?)</p>', modified, re.DOTALL)
        assert note and _hrefs(note.group(1)) == ["#quill-house-short-market"] and HOUSE_FLAG in note.group(1)
        turn = _article(curation_site, curation.entries["quill-turn"])
        block = turn[turn.index("<dt>Referenced by</dt>"):]
        block = block[: block.index("</dd>")]
        assert '<a href="#quill-house-short-market">' in block and HOUSE_FLAG in block

    def test_whats_new_and_index_flag_house_rules(self, curation_site: Path):
        """In What's new and the A–Z, each house rule (and only they) carries the flag after its link."""
        news = _whats_new((curation_site / "quill-market/index.html").read_text(encoding="utf-8"))
        index = (curation_site / "quill-market/a-z.html").read_text(encoding="utf-8")
        for text, expected in ((news, ["quill-house-free-ink"]), (index, ["quill-house-free-ink", "quill-house-short-market"])):
            items = re.findall(r"<li>(.*?)</li>", text, re.DOTALL)
            flagged = sorted(re.search(r'href="(?:index\.html)?#([^"]*)"', item).group(1) for item in items if HOUSE_FLAG in item)
            assert flagged == expected

    def test_home_page_counts_house_rules(self, curation_site: Path, shipped_site: Path):
        """The home page says how many house rules a game has, and says nothing for a game without."""
        assert "9 entries · 2 house rules, not official" in (curation_site / "index.html").read_text(encoding="utf-8")
        assert "house rule" not in (shipped_site / "index.html").read_text(encoding="utf-8")

    def test_search_data_flags_house_rules_and_drafts(self, curation: Corpus, curation_site: Path):
        """Each entry of the search names has its flags: "house" for a house rule, "draft" for a draft."""
        rows = _rows(curation_site)
        assert set(rows) == set(curation.entries)
        assert rows["quill-house-short-market"][4] == ["house"]
        assert rows["quill-house-free-ink"][4] == ["house"]
        assert rows["quill-trade"][4] == ["draft"]
        assert all(row[4] == [] for entry_id, row in rows.items() if entry_id not in {"quill-house-short-market", "quill-house-free-ink", "quill-trade"})

    def test_shipped_search_data_has_no_flag(self, shipped_site: Path):
        """The shipped corpus has neither house rules nor drafts."""
        assert all(row[4] == [] for row in _rows(shipped_site).values())

    def test_source_of_trust_house_makes_a_house_rule(self, curation: Corpus):
        """An entry of a house source is a house rule whatever its kind, as `rulebot ask` flags it."""
        source = curation.games["quill-market"].source("our-table")
        assert source is not None and source.trust == "house"
        entry = Entry(id="quill-x", game="quill-market", kind="rule", title="X", text="x", source="our-table", section="s")
        assert curation.is_house_rule(entry)
        assert not curation.is_house_rule(curation.entries["quill-end"])

    def test_same_corpus_gives_identical_files(self, curation: Corpus, tmp_path: Path):
        """Two builds of the corpus with house rules write byte-identical files."""
        site.build(curation, tmp_path / "one")
        site.build(load(list(CURATION)), tmp_path / "two")
        assert _tree(tmp_path / "one") == _tree(tmp_path / "two")


# -- setup pages ---------------------------------------------------------------------


class TestSetupPages:
    def test_each_game_with_setup_data_has_a_linked_setup_page(self, shipped: Corpus, shipped_site: Path):
        """Every game with a setup.toml has <game>/setup.html, linked from each of its pages' game navigation."""
        assert set(shipped.setups) == set(shipped.games)
        for slug in shipped.games:
            for name in ("index.html", "a-z.html", "setup.html"):
                html = (shipped_site / slug / name).read_text(encoding="utf-8")
                assert 'href="setup.html"' in html or 'href="../' + slug + '/setup.html"' in html, (slug, name)

    def test_setup_page_holds_every_checklist_in_full(self, shipped_site: Path):
        """Without a script the page reads in full: each set of expansions, each step's text for every count, open steps said."""
        html = (shipped_site / "res-arcana" / "setup.html").read_text(encoding="utf-8")
        for places, monuments in ((4, 7), (5, 10), (6, 12), (7, 14)):
            assert f"set out {places} of them" in html and f"deal {monuments} of them" in html
        assert 'data-expansions="perlae-imperii" data-players="2 3 4 5"' in html
        assert 'data-expansions="" data-players="2 3 4"' in html
        # Lux et Tenebrae: no source covers it; its checklists say so, and give the supply's magic items no total
        assert "No source in the corpus covers Lux et Tenebrae" in html and 'data-expansions="lux-et-tenebrae"' in html
        assert "how many magic items Lux et Tenebrae adds, if any" in html
        assert 'data-expansions="lux-et-tenebrae" data-players="2 3 4 5"' in html  # no limit the sources do not give
        catalyst = (shipped_site / "catalyst" / "setup.html").read_text(encoding="utf-8")
        assert "<strong>Not in the sources:</strong> The rulebook gives the amounts in a table that is missing" in catalyst
        dune = (shipped_site / "dune-imperium" / "setup.html").read_text(encoding="utf-8")
        assert "<strong>Not the whole setup:</strong> The full setup of Dune: Imperium is in the game&#39;s rulebook" in dune
        assert "Only with 1 or 2 players:" in dune

    def test_no_setup_page_without_setup_data(self, tmp_path: Path):
        """A game without a setup.toml has no setup page and no link to one."""
        out = tmp_path / "site"
        site.build(load([MINIMAL]), out)
        assert not (out / "lantern-harbor" / "setup.html").exists()
        assert "setup.html" not in (out / "lantern-harbor" / "index.html").read_text(encoding="utf-8")


def test_pages_in_french_mark_what_is_not(tmp_path: Path):
    """A game's French pages give the French texts, mark an entry without one `lang="en"`, and link to the French
    pages of the game; a game without translations has none."""
    from conftest import write_corpus

    from rulebot.corpus.load import load

    root = write_corpus(tmp_path / "c", {
        "toy/game.toml": game_toml("toy"),
        "toy/rules.md": "## toy-a\ntitle: Bell\nkind: rule\nsection: 1\nsee_also: toy-b\n\nRing it.\n\n"
                        "## toy-b\ntitle: Horn\nkind: rule\nsection: 2\naliases-fr: cor\n\nBlow it.\n",
        "toy/rules.fr.md": "## toy-a\ntitle: Cloche\n\nSonnez-la.\n",
        "other/game.toml": game_toml("other"),
        "other/rules.md": "## other-a\ntitle: Drum\nkind: rule\nsection: 1\n\nBeat it.\n",
    })
    out = tmp_path / "site"
    site.build(load([root]), out)
    assert not (out / "other" / "index.fr.html").exists()
    french = (out / "toy" / "index.fr.html").read_text(encoding="utf-8")
    assert '<html lang="fr"' in french and ">Cloche</a></h4>" in french and "Sonnez-la." in french
    assert 'id="toy-b" lang="en"' in french and 'id="toy-a" aria' in french.replace('id="toy-a" lang', "")
    assert 'href="../toy/a-z.fr.html"' in french and 'href="./index.html" hreflang="en"' in french
    assert "<dt>Voir aussi</dt>" in french and '<span class="label">Source :</span>' in french  # the words of the catalog
    english = (out / "toy" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in english and 'href="./index.fr.html" hreflang="fr"' in english and "Cloche" not in english
    assert "<dt>See also</dt>" in english and "Voir aussi" not in english
    az = (out / "toy" / "a-z.fr.html").read_text(encoding="utf-8")
    assert 'href="index.fr.html#toy-a">Cloche</a>' in az and 'href="index.fr.html#toy-b" lang="en">Horn</a>' in az
    # The pages of every game are in French too, and French pages lead to them: a French reader is never sent to an
    # English page but for a game that has none in French.
    assert 'href="../index.fr.html"' in french and 'href="../sources.fr.html"' in french
    home = (out / "index.fr.html").read_text(encoding="utf-8")
    assert '<html lang="fr"' in home and "<h1>Règles, FAQ et errata de jeux de société</h1>" in home
    assert 'href="toy/index.fr.html"' in home and 'href="other/index.html"' in home and 'href="sources.fr.html"' in home
    # ...saying which games' pages are in English only; the English home says nothing of the kind.
    assert '<a href="other/index.html">Other</a> <span class="game-language">en anglais</span></h2>' in home
    assert '<a href="toy/index.fr.html">Toy</a></h2>' in home and "game-language" not in (out / "index.html").read_text(encoding="utf-8")
    assert 'href="./index.html" hreflang="en"' in home
    assert 'href="./index.fr.html" hreflang="fr"' in (out / "index.html").read_text(encoding="utf-8")
    sources = (out / "sources.fr.html").read_text(encoding="utf-8")
    assert "<h1>Sources</h1>" in sources and "officielle" in sources and 'href="toy/index.fr.html' in sources
    # A game with no French pages: its switch leads to the French home, saying why in French, so that a French reader
    # who opened it is not left on English pages.
    other = (out / "other" / "index.html").read_text(encoding="utf-8")
    switch = other[other.index('<nav class="language-switch"'):other.index("</nav>", other.index('<nav class="language-switch"'))]
    assert 'href="./index.html" hreflang="en" lang="en" aria-current="page"' in switch
    assert ('href="../index.fr.html" hreflang="fr" lang="fr" title="Les pages de ce jeu ne sont pas traduites : l’accueil en '
            'français" data-home>') in switch
    assert '<span class="switch-home" aria-hidden="true"> ⌂</span><span class="switch-name"> Français (accueil)</span>' in switch
    assert 'rel="alternate"' not in other  # the French home is no French version of the page


# -- the French pages and the search in French ------------------------------------------------


def _text(html_text: str) -> str:
    """A page's words, without its tags (and without what only a script or the head holds)."""
    body = html_text.split("<body>", 1)[1]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


class TestFrench:
    def test_french_pages_have_french_labels(self, shipped_site: Path):
        """The French pages say nothing in English of their own: navigation, badges, source facts."""
        for name in ("portals-of-molthar/index.fr.html", "portals-of-molthar/a-z.fr.html", "portals-of-molthar/setup.fr.html", "index.fr.html", "sources.fr.html"):
            text = _text((shipped_site / name).read_text(encoding="utf-8"))
            for english in ("Base game", "Setup", "Trust:", " entries ", "language fr", "Entries", "Search the rules", "Players", "edition"):
                assert english not in text, (name, english)
        french = (shipped_site / "portals-of-molthar" / "index.fr.html").read_text(encoding="utf-8")
        assert ">Jeu de base<" in french and ">Mise en place</a>" in french and "Fiabilité :" in french and "langue" in french
        assert '<span lang="en">Amigo, 2015</span>' in french  # the corpus's own words (publisher and year), marked
        # The French document's title and the section cited are French on the English page, and marked so.
        english = (shipped_site / "portals-of-molthar" / "index.html").read_text(encoding="utf-8")
        assert 'lang="fr">Die Portale von Molthar — règles du jeu</a>' in english and '<span class="section" lang="fr">Mise en place' in english
        assert 'lang="fr">Die Portale von Molthar' not in french and '<span class="section">Mise en place' in french

    def test_language_switch_is_in_the_header(self, shipped_site: Path):
        for name in ("index.html", "index.fr.html", "a-z.html", "setup.html", "setup.fr.html"):
            page = (shipped_site / "portals-of-molthar" / name).read_text(encoding="utf-8")
            header = page.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]
            assert '<nav class="language-switch"' in header and header.count('aria-current="page"><span class="switch-code">') == 1, name

    def test_aliases_in_the_page_language(self, shipped_site: Path, minimal_site: Path):
        """A French page lists an entry's French names, an English page its English ones; a game without French pages
        keeps its French names on its English page."""

        def aliases(page: Path) -> str:
            return _element(page.read_text(encoding="utf-8"), "molthar-hand-limit", "article").split('class="aliases"', 1)[1]

        french, english = aliases(shipped_site / "portals-of-molthar" / "index.fr.html"), aliases(shipped_site / "portals-of-molthar" / "index.html")
        assert "limite de main" in french and "maximum hand size" not in french
        assert "maximum hand size" in english and "limite de main" not in english
        assert '<span class="alias" lang="fr">Gardien du Phare</span>' in (minimal_site / "lantern-harbor" / "index.html").read_text(encoding="utf-8")

    def test_english_headings_on_english_pages(self, shipped_site: Path):
        """The English page heads the sections of a French document in English (its game.toml's `headings`); the
        French page as the document does; citations keep the document's own section."""
        english = (shipped_site / "portals-of-molthar" / "index.html").read_text(encoding="utf-8")
        french = (shipped_site / "portals-of-molthar" / "index.fr.html").read_text(encoding="utf-8")
        assert 'class="section-title">Premise and goal of the game</h3>' in english and "section-title\" lang=\"fr\"" not in english
        assert 'class="section-title">Principe et but du jeu</h3>' in french
        assert '<span class="section" lang="fr">Principe et but du jeu</span>' in english  # (marked as the French it is)

    def test_headings_must_be_a_table_of_strings(self, tmp_path: Path):
        from conftest import TOY_GAME_TOML

        from rulebot.corpus import load as corpus_load

        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML.replace('title = "Toy rules"', 'title = "Toy rules"\nheadings = "Part 1"'), "toy/rules.md": ""})
        _, problems = corpus_load.check([root])
        assert any("headings must be a table" in p.message for p in problems)

    def test_french_setup_page(self, shipped_site: Path):
        """setup.fr.html: French words, the setup's steps and note in French (setup.toml's `text-fr`, `note-fr`), links
        to the French pages; the French entries page links to it, the English one to setup.html."""
        setup = (shipped_site / "portals-of-molthar" / "setup.fr.html").read_text(encoding="utf-8")
        assert '<html lang="fr"' in setup and "<h1>Die Portale von Molthar\u00a0: mise en place</h1>" in setup  # (no line break before the colon)
        assert '<p class="setup-text">Mélangez les cartes Perle' in setup and "Shuffle the pearl cards" not in setup
        assert '<p class="setup-note">Les règles ne disent pas à combien on joue' in setup
        english = (shipped_site / "portals-of-molthar" / "setup.html").read_text(encoding="utf-8")
        assert '<p class="setup-text">Shuffle the pearl cards' in english and "Mélangez" not in english
        assert 'href="index.fr.html#molthar-setup-display">Mise en place des cartes Perle et Personnage visibles</a>' in setup
        assert 'href="../portals-of-molthar/setup.fr.html"' in (shipped_site / "portals-of-molthar" / "index.fr.html").read_text(encoding="utf-8")
        assert 'href="../portals-of-molthar/setup.html"' in (shipped_site / "portals-of-molthar" / "index.html").read_text(encoding="utf-8")

    def test_setup_words_in_french(self):
        """What the setup page's code says, it says in the page's language: a step at a count beyond the sources
        too (as `rulebot setup` says it in English)."""
        from rulebot.corpus.setup import BEYOND_SOURCES, count_range
        from rulebot.site.setup_page import Words

        assert Words("fr").given_for((2, 3, 4)) == "les sources donnent cette étape pour 2 à 4 joueurs"
        assert Words("en").given_for((2, 3, 4)) == BEYOND_SOURCES.format(counts=count_range((2, 3, 4)))

    def test_search_data_in_french(self, shipped: Corpus, shipped_site: Path):
        """_search/fr.js: the search box's words in French and each Molthar entry's French title, in the order of its
        names; <game>.texts.fr.js: their French texts; no game without French has either."""
        from rulebot.site import search_languages

        french = _data(shipped_site / search_languages.language_file("fr"))
        assert french["labels"]["Rule"] == "Règle" and french["labels"]["{count} results"] == "{count} résultats"
        assert set(french["titles"]) == {"portals-of-molthar"}
        rows = _names(shipped_site)["portals-of-molthar"]["entries"]
        assert french["titles"]["portals-of-molthar"] == [shipped.entries[row[0]].translation("fr").title for row in rows]
        texts = _data(shipped_site / search_languages.translated_texts_file("portals-of-molthar", 0, "fr"))["texts"]
        assert texts[rows.index(next(r for r in rows if r[0] == "molthar-hand-limit"))].startswith("Pendant votre tour")
        assert sorted(p.name for p in (shipped_site / "_search").glob("*.fr.js")) == ["portals-of-molthar.texts.fr.js"]

    def test_search_box_words_are_all_in_the_catalog(self):
        """Every word search.js shows through `say` is one of SEARCH_LABELS (or a kind), so that French has it."""
        from rulebot.site import search_languages

        script = (site_templates.templates_dir() / "static" / "search.js").read_text(encoding="utf-8")
        said = set(re.findall(r'say\(lang, "((?:[^"\\]|\\.)*)"', script))
        said = {json.loads(f'"{text}"') for text in said}
        kinds = set(site_views.KIND_LABELS.values())
        assert said and said <= set(search_languages.SEARCH_LABELS) | kinds | {"House rule \u2014 not an official ruling"}
        assert set(re.findall(r'"[a-z-]+": "([^"]+)"', script.split("var KINDS", 1)[1].split("};", 1)[0])) == kinds


def test_site_build_writes_the_french_search_and_setup(run_cli, tmp_path: Path):
    """`rulebot site build` writes the French search files and setup page beside the others."""
    result = run_cli("site", "build", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site" / "_search" / "fr.js").exists() and (tmp_path / "site" / "portals-of-molthar" / "setup.fr.html").exists()
