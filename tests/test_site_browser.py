"""The built site in a real browser (Debian's chromium driven by Playwright), over http and from file://."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import LARGE_GAME, NUMBERED_GAME, SHIPPED_GAMES, write_large_game, write_numbered_game

from rulebot.corpus.load import load
from rulebot.errors import QueryError
from rulebot.places import shipped_corpus_dir
from rulebot.site import build as site
from rulebot.site import search_data as site_search
from rulebot.site import server as site_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CORPORA = Path(__file__).parent / "corpora"
HOUSE_FLAG = "House rule — not an official ruling"

# CI sets RULEBOT_REQUIRE_BROWSER so that a missing browser fails instead of skipping.
REQUIRED = bool(os.environ.get("RULEBOT_REQUIRE_BROWSER"))
if REQUIRED:
    from playwright import sync_api
    assert CHROMIUM.exists(), "RULEBOT_REQUIRE_BROWSER is set but /usr/bin/chromium is missing"
else:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is not installed (pip install playwright)", exc_type=ImportError
    )
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: Debian's chromium is not installed at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def numbered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus folder of a game drafted from a numbered rules reference (conftest.write_numbered_game)."""
    return write_numbered_game(tmp_path_factory.mktemp("numbered-corpus"))


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, numbered: Path) -> dict[str, Path]:
    """The shipped, minimal, hostile, curation (with house rules), large (a game split into pages) and numbered (drafts of a
    numbered rules reference) corpora, each built once."""
    built = {}
    corpora = {
        "shipped": [shipped_corpus_dir()],
        "minimal": [CORPORA / "site-minimal"],
        "hostile": [CORPORA / "site-hostile"],
        "curation": [CORPORA / "site-curation" / "base", CORPORA / "site-curation" / "house"],
        "large": [write_large_game(tmp_path_factory.mktemp("large-corpus"))],
        "numbered": [numbered],
    }
    for name, corpus_dirs in corpora.items():
        out = tmp_path_factory.mktemp(f"browser-{name}") / "site"
        site.build(load(corpus_dirs), out)
        built[name] = out
    return built


@pytest.fixture(scope="module")
def servers(sites: dict[str, Path]) -> Iterator[dict[str, site_server.SiteServer]]:
    started = {name: site_server.serve(path) for name, path in sites.items()}
    yield started
    for server in started.values():
        server.close()


@pytest.fixture(scope="module", params=["http", "file"])
def base(request: pytest.FixtureRequest, sites: dict[str, Path], servers: dict[str, site_server.SiteServer]) -> dict[str, str]:
    """The root URL of each site: served on 127.0.0.1, or opened as file://."""
    if request.param == "http":
        return {name: server.url for name, server in servers.items()}
    return {name: path.resolve().as_uri() + "/" for name, path in sites.items()}


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, base: dict[str, str]):  # type: ignore[no-untyped-def]
    """A fresh page that records dialogs and requests, and fails the test on a request to another host."""
    context = browser.new_context(viewport={"width": 1024, "height": 800})
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    requests: list[str] = []
    tab.requests = requests
    tab.dialogs = []
    tab.on("request", lambda request: requests.append(request.url))
    tab.on("dialog", lambda dialog: (tab.dialogs.append(dialog.message), dialog.dismiss()))
    yield tab
    context.close()
    allowed = tuple(base.values())
    assert [url for url in requests if not url.startswith(allowed)] == []


def _target(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("document.querySelector(':target') ? document.querySelector(':target').id : ''")


def _search(page, query: str):  # type: ignore[no-untyped-def]
    """Type a query and wait for its complete results (the search data loaded)."""
    page.fill("#search--q", query)
    page.wait_for_function(
        "q => { const list = document.getElementById('search--results');"
        " return list.dataset.query === q && list.dataset.complete === 'true'; }",
        arg=query.strip(),
    )
    results = page.locator("#search--results a")
    results.first.wait_for()
    return results


def test_see_also_link_leads_to_entry(page, base):  # type: ignore[no-untyped-def]
    """From the home page, a game and then a See also link lead to the entry's anchor."""
    page.goto(base["shipped"] + "index.html")
    page.get_by_role("link", name="Res Arcana", exact=True).first.click()
    page.wait_for_url("**/res-arcana/index.html")
    page.locator("#arcana-victory-check .see-also a", has_text="Tie-break").click()
    page.wait_for_url("**/res-arcana/index.html#arcana-tiebreak")
    assert _target(page) == "arcana-tiebreak"
    assert page.locator("#arcana-tiebreak").is_visible()


def test_misspelled_card_name_is_found(page, base):  # type: ignore[no-untyped-def]
    """Searching "chaumurki" on the home page finds Chaumurky, and its result opens the entry."""
    page.goto(base["shipped"] + "index.html")
    results = _search(page, "chaumurki")
    assert results.first.inner_text() == "Chaumurky"
    results.first.click()
    page.wait_for_url("**/dune-imperium/index.html#dune-chaumurky")
    assert _target(page) == "dune-chaumurky"


def test_two_letter_typo_and_enter_open_the_entry(page, base):  # type: ignore[no-untyped-def]
    """A two-letter typo in a long card name still finds it, and Enter opens the first result."""
    page.goto(base["shipped"] + "dune-imperium/index.html")
    results = _search(page, "Asassination Misison")
    assert results.first.inner_text() == "Assassination Mission"
    page.press("#search--q", "Enter")
    page.wait_for_url("**/dune-imperium/index.html#dune-assassination-mission")


def test_french_words_find_molthar_entries_without_accents(page, base):  # type: ignore[no-untyped-def]
    """French terms find the Molthar entries, with or without their accents."""
    page.goto(base["shipped"] + "index.html")
    found = []
    for query in ("défausse", "defausse", "FEU FOLLET"):
        results = _search(page, query)
        found.append(results.first.get_attribute("href"))
        assert "Die Portale von Molthar" in page.locator("#search--results li").first.inner_text()
    assert found[0] == found[1]
    assert found[2].endswith("portals-of-molthar/index.html#molthar-will-o-the-wisp")


def test_search_from_test_corpus_alias(page, base):  # type: ignore[no-untyped-def]
    """A misspelled French alias of a test card finds it, with the alias marked lang="fr"."""
    page.goto(base["minimal"] + "index.html")
    results = _search(page, "gardien du phrae")
    assert results.first.inner_text() == "Beacon Keeper"
    assert page.locator("#search--results li").first.locator('[lang="fr"]').inner_text() == "Gardien du Phare"


def test_keyboard_reaches_results(page, base):  # type: ignore[no-untyped-def]
    """The skip link comes first on Tab, and arrow keys move from the search box into the results."""
    page.goto(base["shipped"] + "index.html")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    assert page.locator(".skip-link").bounding_box()["y"] >= 0
    _search(page, "tiebreak")
    page.focus("#search--q")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('#search--results') !== null")
    page.keyboard.press("Enter")
    page.wait_for_url("**/index.html#*")


def test_the_search_box_takes_what_the_command_reads(page, base):  # type: ignore[no-untyped-def]
    """Typing past the longest question `rulebot ask` reads stops there, as the command refuses a longer one."""
    from rulebot.search.constants import MAX_QUESTION_CHARS

    page.goto(base["shipped"] + "index.html")
    page.focus("#search--q")
    page.keyboard.insert_text("tiebreak " * 120)
    page.keyboard.type("essences")
    assert page.input_value("#search--q") == ("tiebreak " * 120)[:MAX_QUESTION_CHARS]


@pytest.mark.parametrize(
    ("which", "path"),
    [
        ("shipped", "index.html"),
        ("shipped", "sources.html"),
        ("shipped", "res-arcana/index.html"),
        ("shipped", "dune-imperium/index.html"),
        ("shipped", "portals-of-molthar/a-z.html"),
        ("shipped", "catalyst/index.html"),
        ("shipped", "res-arcana/setup.html"),
        ("minimal", "lantern-harbor/index.html"),
        ("curation", "quill-market/index.html"),
        ("curation", "quill-market/a-z.html"),
        ("curation", "sources.html"),
        ("large", f"{LARGE_GAME}/index.html"),
        ("large", f"{LARGE_GAME}/rulebook--rooms.html"),
    ],
)
def test_no_horizontal_scroll_at_360px(page, base, which, path):  # type: ignore[no-untyped-def]
    """At 360 px wide, no page scrolls sideways (long words wrap, tables scroll in their box)."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base[which] + path)
    query = {"minimal": "keeper", "curation": "market", "large": "observatory"}.get(which, "victory")
    _search(page, query)  # open results must fit too
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1]


@pytest.mark.parametrize("path", ["portals-of-molthar/index.fr.html", "res-arcana/index.html"])
def test_no_line_of_links_starts_with_a_separator(page, base, path):  # type: ignore[no-untyped-def]
    """On a phone, a list of See also or Referenced by links that wraps starts no line with a separator: each link
    (with its note) is one box, set apart by space, with no "·" to be left at the start of a line."""
    page.set_viewport_size({"width": 320, "height": 740})
    page.goto(base["shipped"] + path)
    lone = page.evaluate(
        """() => Array.from(document.querySelectorAll('.xref li')).filter(li => {
             // its "·" (after the link, its note and flag) on a line of its own: the item taller than what it holds,
             // or the item a line of its own holding nothing but the dot
             const box = li.getBoundingClientRect(), parts = Array.from(li.children).map(c => c.getBoundingClientRect());
             const held = Math.max(...parts.map(r => r.bottom)) - Math.min(...parts.map(r => r.top));
             const separated = ["::before", "::after"].some(at => getComputedStyle(li, at).content !== "none");
             return separated || li.getClientRects().length > 1 || box.height > held + 4;
           }).map(li => li.textContent)"""
    )
    assert page.locator(".xref li").count() > 20 and lone == []


def test_dark_mode_changes_background(page, base):  # type: ignore[no-untyped-def]
    """With a dark colour scheme the page background differs from the light one."""
    page.goto(base["shipped"] + "res-arcana/index.html")
    colours = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        colours.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    assert colours[0] != colours[1]


def test_hostile_entry_triggers_no_dialog(page, base):  # type: ignore[no-untyped-def]
    """Pages and search results showing hostile text run none of it."""
    for path in ("hostile-game/index.html", "hostile-game/a-z.html", "sources.html", "index.html"):
        page.goto(base["hostile"] + path)
        page.hover("h1")
        page.mouse.move(200, 300)
    results = _search(page, "script")
    assert "</script>" in results.first.inner_text()
    _search(page, "trap card")
    page.wait_for_timeout(200)
    assert page.dialogs == []
    assert page.evaluate("document.querySelectorAll('img, svg, iframe').length") == 0
    page.evaluate("alert('control')")  # the listener does see a dialog when there is one
    assert page.dialogs == ["control"]


def test_results_open_on_game_pages_too(page, base):  # type: ignore[no-untyped-def]
    """On a game's page, the game's entries come first; another game's entry the question names comes after them, marked."""
    page.goto(base["shipped"] + "catalyst/index.html")
    _search(page, "Perlae Imperii overview")
    items = page.locator("#search--results li:not(.search-more)")
    games = [item.locator(".result-meta").inner_text().split(" · ")[0] for item in items.all()]
    assert games[0] == "Catalyst" and games[-1] == "Res Arcana" and games == sorted(games, key=lambda name: name != "Catalyst")
    other = items.last
    assert other.locator("a").inner_text() == "Perlae Imperii overview"
    assert other.locator(".other-game").inner_text() == "Another game"
    assert items.first.locator(".other-game").count() == 0
    assert urllib.parse.unquote(other.locator("a").get_attribute("href")) == "../res-arcana/index.html#arcana-pi-overview"


def test_another_game_named_with_its_entry_is_found_on_a_game_page(page, base):  # type: ignore[no-untyped-def]
    """On a game's page, a question naming another game and an entry of it ("res arcana illusionist" on Catalyst's)
    finds that entry, marked as another game's, as `rulebot ask --game catalyst` turns to it; the name alone too."""
    page.goto(base["shipped"] + "catalyst/index.html")
    for question in ("res arcana illusionist", "illusionist"):
        _search(page, question)
        other = page.locator("#search--results li.result-other a")
        assert other.count() >= 1, question
        assert urllib.parse.unquote(other.first.get_attribute("href")) == "../res-arcana/index.html#arcana-illusionist", question


def test_house_rule_result_is_flagged(page, base):  # type: ignore[no-untyped-def]
    """A house rule found by the search says in words that it is not an official ruling; an official entry does not."""
    page.goto(base["curation"] + "index.html")
    _search(page, "short market")
    items = page.locator("#search--results li")
    assert items.first.locator("a").inner_text() == "Short market & <quick> end"
    assert items.first.locator(".house-flag").inner_text() == HOUSE_FLAG
    official = items.filter(has_text="End of the market")
    assert official.count() == 1 and official.locator(".house-flag").count() == 0


def test_whats_new_links_reach_revised_entries(page, base):  # type: ignore[no-untyped-def]
    """On the Dune page, What's new lists the entries the FAQ marks revised (not every entry of the dated FAQ), and its links reach them."""
    page.goto(base["shipped"] + "dune-imperium/index.html")
    page.get_by_role("navigation", name="Dune: Imperium").get_by_role("link", name="What’s new").click()
    page.wait_for_url("**/dune-imperium/index.html#whats--new")
    news = page.locator("#whats--new")
    assert news.get_by_role("link", name="Imperial Spy", exact=True).count() == 0
    news.get_by_role("link", name="Chaumurky", exact=True).click()
    page.wait_for_url("**/dune-imperium/index.html#dune-chaumurky")
    assert _target(page) == "dune-chaumurky"


def test_flags_follow_dark_mode(page, base):  # type: ignore[no-untyped-def]
    """The house-rule flag and the draft badge change colours with the colour scheme, and stay readable (text, not colour alone)."""
    page.goto(base["curation"] + "quill-market/index.html")
    colours = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        colours.append(page.evaluate(
            "['#quill-house-short-market .house-flag', '#quill-trade .badge.draft']"
            ".map(s => { const c = getComputedStyle(document.querySelector(s)); return [c.backgroundColor, c.color]; })"
        ))
    assert colours[0] != colours[1]
    assert page.locator("#quill-trade .badge.draft").inner_text() == "Draft — not yet restated"


# -- a game split into pages, and search data loaded on demand ------------------------


def _search_requests(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The search data files a page requested, by name."""
    return [url.rsplit("/", 1)[1] for url in page.requests if "/_search/" in url]


def test_see_also_across_pages_lands_on_anchor(page, base):  # type: ignore[no-untyped-def]
    """On a game split into pages, a See also to an entry on another page opens that page at its anchor, and Referenced by leads back."""
    page.goto(base["large"] + f"{LARGE_GAME}/index.html")
    page.get_by_role("link", name="Basics", exact=True).click()
    page.wait_for_url(f"**/{LARGE_GAME}/rulebook--basics.html")
    page.locator("#tower-climbing .see-also a", has_text="Observatory Deck").click()
    page.wait_for_url(f"**/{LARGE_GAME}/rulebook--rooms-2.html#tower-room-280")
    assert _target(page) == "tower-room-280"
    assert page.locator("#tower-room-280").is_visible()
    page.locator("#tower-room-280 .referenced-by a", has_text="Climbing").click()
    page.wait_for_url(f"**/{LARGE_GAME}/rulebook--basics.html#tower-climbing")
    assert _target(page) == "tower-climbing"


def test_game_page_address_of_an_entry_leads_to_its_page(page, base):  # type: ignore[no-untyped-def]
    """`<game>/index.html#<entry>`, the address an entry had before its game was split, opens the page it is on, at its anchor."""
    page.goto(base["large"] + f"{LARGE_GAME}/index.html#tower-room-280")
    page.wait_for_url(f"**/{LARGE_GAME}/rulebook--rooms-2.html#tower-room-280")
    assert _target(page) == "tower-room-280"


@pytest.mark.parametrize(
    ("which", "path", "query", "first"),
    [
        ("shipped", "index.html", "chaumurki", "dune-imperium/index.html#dune-chaumurky"),
        ("shipped", "res-arcana/index.html", "Raven Familiar", "res-arcana/index.html#arcana-raven-familiar"),
        ("large", f"{LARGE_GAME}/rulebook--basics.html", "observatory deck", f"{LARGE_GAME}/rulebook--rooms-2.html#tower-room-280"),
    ],
)
def test_no_search_data_until_the_search_box_is_used(page, base, which, path, query, first):  # type: ignore[no-untyped-def]
    """A page opens without loading search data; focusing the box loads it, and the search then finds the entry on its page."""
    page.goto(base[which] + path)
    page.wait_for_load_state("load")
    page.locator("main").hover()
    page.wait_for_timeout(300)
    assert _search_requests(page) == []
    assert page.evaluate("Object.keys(window.RULEBOT_DATA || {}).length") == 0
    assert page.locator("#search--q").is_visible()
    page.focus("#search--q")
    page.wait_for_function("() => (window.RULEBOT_DATA || {}).games !== undefined")
    results = _search(page, query)
    results.first.click()
    page.wait_for_url("**/" + first)
    assert _target(page) == first.rsplit("#", 1)[1]


def test_game_page_loads_its_own_texts_only(page, base):  # type: ignore[no-untyped-def]
    """A game's page loads the settings, the lexicon files of its words' letters, the terms files of its words and
    the entries files of its candidates, each once, and the texts of its own game's results only: never a whole
    index."""
    page.goto(base["shipped"] + "catalyst/index.html")
    _search(page, "Perlae Imperii overview")
    page.locator("#search--results .result-snippet").first.wait_for()  # the game's texts, for its results' snippets
    loaded = _search_requests(page)
    assert sorted(name for name in loaded if ".texts" in name) == ["catalyst.texts.js"]
    assert {"games.js", "lexicon-p.js", "lexicon-i.js", "lexicon-o.js"} <= set(loaded)
    assert all(re.fullmatch(r"(terms|entries)-[0-9]+\.js|lexicon-[a-z0-9_]\.js|games\.js|catalyst\.texts\.js", name) for name in loaded), loaded
    assert len([name for name in loaded if name.startswith("lexicon-")]) == 3
    shards = page.evaluate("window.RULEBOT_DATA.games.search.shards")
    assert 0 < len([name for name in loaded if name.startswith("terms-")]) < shards / 2
    assert len(loaded) == len(set(loaded))  # each file once


def test_a_snippet_sets_its_ellipses_apart_from_whole_sentences(page, base):  # type: ignore[no-untyped-def]
    """The text a snippet leaves out is marked "… " before a sentence and " …" after one, never "mandatory.…"."""
    page.goto(base["shipped"] + "dune-imperium/index.html")
    _search(page, "spice")
    page.locator("#search--results .result-snippet").first.wait_for()
    snippets = page.eval_on_selector_all("#search--results .result-snippet", "l => l.map(s => s.textContent)")
    assert snippets and any("\u2026" in text for text in snippets), snippets
    assert not [text for text in snippets if re.search(r"[.!?;:]\u2026|\u2026[A-Z]", text)], snippets


def test_snippets_load_the_texts_of_their_pages_only(page, base):  # type: ignore[no-untyped-def]
    """On a game split into pages, the results' snippets load the texts of the pages they are on, and no other."""
    page.goto(base["large"] + f"{LARGE_GAME}/index.html")
    _search(page, "observatory deck")
    page.locator("#search--results .result-snippet").first.wait_for()
    game = page.evaluate(f"() => window.RULEBOT_DATA.games.games.find(game => game.slug === '{LARGE_GAME}')")
    shown = page.eval_on_selector_all("#search--results li:not(.search-more) a", "l => l.map(a => a.getAttribute('href'))")
    pages = {game["pages"].index(href.rpartition("#")[0].rpartition("/")[2]) for href in shown}
    assert len(game["pages"]) > len(pages) >= 1
    texts = sorted(name for name in _search_requests(page) if ".texts" in name)
    assert texts == sorted(f"{LARGE_GAME}.texts.js" if n == 0 else f"{LARGE_GAME}.texts-{n}.js" for n in pages)


def test_snippets_arriving_leave_the_results_alone(browser, servers):  # type: ignore[no-untyped-def]
    """Results show before their texts are in; the snippets, arriving later, are added without redrawing the list
    (the result the keyboard is on keeps the focus)."""
    context = browser.new_context()
    tab = context.new_page()
    held = []
    tab.route("**/*.texts*.js", lambda route: held.append(route))
    tab.goto(servers["shipped"].url + "index.html")
    _search(tab, "tiebreak")
    tab.focus("#search--q")
    tab.keyboard.press("ArrowDown")
    focused = tab.evaluate("document.activeElement.getAttribute('href')")
    tab.wait_for_timeout(100)
    assert held and tab.locator("#search--results .result-snippet").count() == 0
    for route in held:
        route.continue_()
    tab.locator("#search--results .result-snippet").first.wait_for()
    assert focused and tab.evaluate("document.activeElement.getAttribute('href')") == focused
    context.close()


def _data_file(site_dir: Path, name: str) -> dict:
    """The value a search data file of a built site assigns."""
    line = (site_dir / "_search" / name).read_text(encoding="ascii").rstrip().splitlines()[-1]
    return json.loads(line.split("] = ", 1)[1].removesuffix(";"))


def _refused_file(site_dir: Path, which: str) -> str:
    """The search data file refused: the lexicon's of "tiebreak", its terms file, the entries file of catalyst-tiebreak."""
    if which == "terms":
        return f"terms-{site_search.shard_of('tiebreak', _data_file(site_dir, 'games.js')['search']['shards'])}.js"
    if which == "entries":
        return next(p.name for p in (site_dir / "_search").glob("entries-*.js") if '"catalyst-tiebreak"' in p.read_text(encoding="ascii"))
    return site_search.lexicon_file("t").rpartition("/")[2]


@pytest.mark.parametrize(("address", "which"), [("res-arcana/index.html", "lexicon"), ("index.html", "terms"), ("catalyst/index.html", "entries")])
def test_search_data_that_fails_to_load_is_said(browser, sites, servers, address, which):  # type: ignore[no-untyped-def]
    """A search data file that cannot be loaded (the lexicon's, the terms file of a word of the question, the entries
    file of a candidate): the results area says so in one line, the list is complete (nothing more is coming), and
    no script fails."""
    context = browser.new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    refused = _refused_file(sites["shipped"], which)
    aborted: list[str] = []
    tab.route(f"**/_search/{refused}", lambda route: (aborted.append(route.request.url), route.abort()))
    tab.goto(servers["shipped"].url + address)
    tab.fill("#search--q", "tiebreak")
    tab.wait_for_function(
        "() => { const list = document.getElementById('search--results');"
        " return list.dataset.query === 'tiebreak' && list.dataset.complete === 'true'; }"
    )
    assert aborted
    assert tab.text_content("#search--status") == "The search could not load its data."
    assert tab.locator("#search--results li").count() == 0
    assert errors == []
    context.close()


def test_enter_before_the_search_is_in_opens_the_first_result_once_it_is(browser, servers):  # type: ignore[no-untyped-def]
    """A question typed and entered at once, while the search data is still on its way: the address holds the whole
    question at once, and the first result opens when the data is in."""
    context = browser.new_context()
    tab = context.new_page()

    def slowly(route):  # type: ignore[no-untyped-def]
        time.sleep(0.3)
        route.continue_()

    tab.route("**/_search/**", slowly)
    tab.goto(servers["shipped"].url + "index.html")
    tab.fill("#search--q", "chaumurky")
    tab.press("#search--q", "Enter")
    assert urllib.parse.parse_qs(urllib.parse.urlparse(tab.url).query)["q"] == ["chaumurky"]
    tab.wait_for_url("**/dune-imperium/index.html#dune-chaumurky")
    context.close()


# -- the search answers as `rulebot ask` does ------------------------------------------

QUESTIONS = Path(__file__).parent / "questions.jsonl"


def _corpus_texts() -> list[str]:
    """Every text of the shipped corpus's files: entries, game.toml and vocabulary files."""
    return [path.read_text(encoding="utf-8") for path in sorted(shipped_corpus_dir().rglob("*")) if path.suffix in (".md", ".toml")]


@pytest.fixture(scope="module")
def search_tab(browser, sites):  # type: ignore[no-untyped-def]
    """The shipped site's home page from file://, its search data loaded."""
    context = browser.new_context()
    tab = context.new_page()
    tab.goto((sites["shipped"] / "index.html").as_uri())
    tab.focus("#search--q")
    tab.wait_for_function("() => window.RULEBOT_SEARCH && window.RULEBOT_STEMMERS && (window.RULEBOT_DATA || {}).games !== undefined")
    yield tab
    context.close()


def _question_texts() -> list[str]:
    """Every question of the development question sets (tests/questions*.jsonl but the held-out *-test.jsonl halves,
    which no test reads: they measure the ranking on questions nothing was fitted or checked on)."""
    import json

    paths = [path for path in sorted(QUESTIONS.parent.glob("questions*.jsonl")) if not path.name.endswith("-test.jsonl")]
    rows = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["q"] for row in rows if "q" in row]


def test_stemmed_questions_are_the_development_sets(monkeypatch: pytest.MonkeyPatch):
    """The words the stemmers are held to come from the development questions: the held-out halves stay unread."""
    read = []
    read_text = Path.read_text

    def reading(path: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        read.append(path.name)
        return read_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", reading)
    assert _question_texts()
    assert "questions.jsonl" in read and any(name.endswith("-dev.jsonl") for name in read)
    assert [name for name in read if name.endswith("-test.jsonl")] == []


# The English words Snowball 3.1 stems otherwise than 3.0.1, the release of the site's stemmers (PyStemmer 3.1 is
# Snowball 3.1): "internal" stays "internal" there and is "intern" in the browser. None may be a word of the corpus or
# of the questions, where `ask` and the site would then find different entries.
SNOWBALL_3_1_ENGLISH = frozenset({"internal", "international", "internment", "interval", "interfered", "interfering", "skis"})


def test_browser_stems_are_pystemmers(search_tab):  # type: ignore[no-untyped-def]
    """The browser's Snowball stemmers (Snowball's generated JavaScript, templates/static/stemmers.js) give PyStemmer's
    stem for every word of the shipped corpus and of the development questions: folded as the index stems them, and as
    written (lower case, accents kept). With PyStemmer 3.0 (Snowball 3.0.1, the browser's release) every word stems
    alike; with 3.1 or later, only the English words of SNOWBALL_3_1_ENGLISH may differ, and none of the corpus's
    or the questions' words."""
    import importlib.metadata

    import Stemmer

    from rulebot.language import analysis

    found = {word for text in _corpus_texts() + _question_texts() for word in analysis.split(text)}
    asked = {analysis.fold(word) for word in found} | {word.lower() for word in found}
    assert len(asked) > 3000
    # the words the releases stem otherwise are stemmed too: with PyStemmer 3.0 they must stem alike as well
    words = sorted(asked | SNOWBALL_3_1_ENGLISH)
    release = tuple(int(part) for part in importlib.metadata.version("PyStemmer").split(".")[:2])
    may_differ = {
        "english": SNOWBALL_3_1_ENGLISH - asked if release >= (3, 1) else frozenset(),
        "french": frozenset(),
    }
    stems = search_tab.evaluate(
        "words => ['english', 'french'].map(language => words.map(window.RULEBOT_STEMMERS[language]))", words
    )
    for language, browser_stems in zip(("english", "french"), stems):
        expected = Stemmer.Stemmer(language).stemWords(words)
        differ = [(w, b, e) for w, b, e in zip(words, browser_stems, expected) if b != e]
        assert [(w, b, e) for w, b, e in differ if w not in may_differ[language]] == [], language


def test_browser_analysis_is_rulebots(search_tab):  # type: ignore[no-untyped-def]
    """The browser makes the words and terms rulebot.language.analysis makes of every text of the shipped corpus."""
    from rulebot.language import analysis

    texts = [line for text in _corpus_texts() for line in text.splitlines() if line.strip()]
    made = search_tab.evaluate(
        "texts => texts.map(t => [window.RULEBOT_SEARCH.words(t), window.RULEBOT_SEARCH.terms('english', t),"
        " window.RULEBOT_SEARCH.terms('french', t), window.RULEBOT_SEARCH.terms('names', t)])",
        texts,
    )
    for text, (words, english, french, names) in zip(texts, made):
        assert words == analysis.words(text), text
        assert (english, french, names) == (analysis.terms("english", text), analysis.terms("french", text), analysis.terms("names", text)), text


def test_browser_finds_the_files_of_terms_as_the_build_writes_them(search_tab):  # type: ignore[no-untyped-def]
    """The browser looks a term up in the terms file and a word in the lexicon file the build wrote it to, whatever
    its letters (accented, Greek, an emoji beyond the BMP)."""
    from rulebot.language import analysis

    words = ["rule", "tiebreak", "égalité", "1.11.2.a", "Été", "σπαθί", "\U0001f3b2dé", "_x", "Z9", "ß"]
    words += sorted({term for text in _corpus_texts() for term in analysis.terms("names", text)})[:500]
    shards = search_tab.evaluate("window.RULEBOT_DATA.games.search.shards")
    found = search_tab.evaluate("words => words.map(w => [window.RULEBOT_SEARCH.shard(w), window.RULEBOT_SEARCH.lexiconPart(w)])", words)
    assert found == [[site_search.shard_of(w, shards), site_search.lexicon_part(w)] for w in words]


def _differences(browser, site_dir: Path, questions: list[tuple[str, str | None]], corpus: list[Path] | None = None) -> list[tuple]:  # type: ignore[no-untyped-def]
    """The questions (and games) the site's search box answers otherwise than `rulebot ask` (its entries of the
    game asked, in order, its confidence and its "did you mean"), typed on the game's page or on the home page; the
    site built from `corpus` (the shipped one when None)."""
    from rulebot.index.cache import open_index
    from rulebot.search.ranking import Searcher

    context = browser.new_context()
    tabs = {}
    differ = []
    with Searcher(open_index(corpus or [shipped_corpus_dir()])) as searcher:
        for question, game in questions:
            if game not in tabs:
                tabs[game] = context.new_page()
                tabs[game].goto((site_dir / (f"{game}/index.html" if game else "index.html")).as_uri())
            tab = tabs[game]
            tab.fill("#search--q", question)
            tab.wait_for_function(
                "q => { const l = document.getElementById('search--results'); return l.dataset.query === q"
                " && l.dataset.complete === 'true' && l.dataset.confident !== undefined"
                " || l.dataset.query === q && document.getElementById('search--status').textContent.startsWith('No entry matches'); }",
                arg=" ".join(question.split()),
            )
            links = tab.eval_on_selector_all("#search--results li:not(.result-other):not(.search-more) a", "l => l.map(a => a.getAttribute('href'))")
            shown = [href.rpartition("#")[2] for href in links]
            sure = tab.get_attribute("#search--results", "data-confident") == "true"
            offered = tab.eval_on_selector_all("#search--suggestion a", "l => l.map(a => a.textContent)")
            try:
                answer = searcher.ask(question, game=game, limit=10)
            except QueryError:  # (refused: the site lists nothing)
                if shown:
                    differ.append((question, game, shown, "refused"))
                continue
            if shown != [hit.id for hit in answer.results] or (shown and sure != answer.confident):
                differ.append((question, game, shown, [hit.id for hit in answer.results]))
            if offered != list(answer.suggestions):
                differ.append((question, game, offered, list(answer.suggestions)))
    context.close()
    return differ


@pytest.mark.slow
@pytest.mark.parametrize("game", [None, *SHIPPED_GAMES])
def test_site_answers_as_the_command(browser, sites, game: str | None):  # type: ignore[no-untyped-def]
    """Every question of tests/questions.jsonl about a game (or none) asked as its row asks it (on its game's page,
    or on the home page) gets from the site the answers `rulebot ask` gives, in the same order, and as sure (rows
    with expansions in play excepted: the site has none)."""
    import json

    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert {row["game"] for row in rows if "q" in row} <= {None, *SHIPPED_GAMES}  # (each row asked by one of the tests)
    asked = [(row["q"], row["game"]) for row in rows if "q" in row and not row.get("with") and row["game"] == game]
    assert asked
    assert _differences(browser, sites["shipped"], asked) == []


def test_game_page_reads_words_as_the_command(browser, sites):  # type: ignore[no-untyped-def]
    """On a game's page, which loads no other game's index, a word of another game's rules is known as the command
    knows it (no close spelling of it is looked for in this game), a typo is corrected from every game's words, and
    a word only French texts use makes the question French."""
    questions = [
        ("res arcana red", "dune-imperium"),
        ("coin effect icon is lost", "res-arcana"),
        ("life loss when i cant pay", "catalyst"),
        ("revel turn: drawing cards after it", "portals-of-molthar"),
        ("expasion on", "portals-of-molthar"),
        ("pioche vide", "catalyst"),
        ("gemme de pouvoir", "res-arcana"),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_game_names_are_read_as_the_command_reads_them(browser, sites):  # type: ignore[no-untyped-def]
    """A game's name with a typo names the game on the site as it does for `rulebot ask` (question.name_at), and a
    short name or a word further off does not."""
    questions = [
        ("res arcna who wins a tie", None), ("ras arcana who wins a tie", None), ("portal of molthar how many cards in hand", None),
        ("dune imperum can i trash a card i bought", None), ("dune imperial spy", None), ("im done, whose turn is it", None),
        ("rest arcane who wins a tie", None), ("moltar how many cards in hand", "catalyst"), ("can a building have two catalysts", None),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_typos_are_respelled_as_the_command_respells_them(browser, sites):  # type: ignore[no-untyped-def]
    """"Did you mean" offers on the site what `rulebot ask` offers: a typo respelled as a word of a name, the rest
    of the question as typed; nothing for a French question's French words, the vocabulary's or a game's name."""
    questions = [
        ("molthar how many diamnds", None), ("molthar how many diamnds", "portals-of-molthar"),
        ("How do I get more catalsyts?", "catalyst"), ("throwing zzyzx", None),
        ("c'est quoi la meme chose que le tout", None), ("notre zzyzx, ils sont ou", None), ("la puissance militaire zzyzx", "catalyst"), ("wat does the acadamy give", "catalyst"),
        ("je peux mettre un diamand sur la perle", "portals-of-molthar"), ("can i buy foldspce with persuasion", None),
        ("How does FOLDSPCE work?", None), ("Foldspce and foldspce again?", "dune-imperium"),
        ("which slot is cheapest", "catalyst"), ("can i stick a catalyst anywhere", "catalyst"),
        ("hey so um i was just wondering if you could tell me how it is that the thing with the cards and the stuff and all "
         "that is done when we are in a game and how foldspce works", None),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_vocabulary_typos_are_read_as_the_command_reads_them(browser, sites):  # type: ignore[no-untyped-def]
    """A word no entry has, one edit from a word of the vocabulary, is read as that word on the site as it is by
    `rulebot ask` (QuestionReader._respelled): of the game asked about, or of every game; a short word stays."""
    questions = [
        ("tiebrekaer if same vp??", "catalyst"), ("tiebraker? we both finished", None), ("militray bonus tie", None),
        ("diamand sur la perle", "portals-of-molthar"), ("a thing i think about", None), ("gvae it away", None),
        ("why arent i allowed to reveal", "dune-imperium"), ("notre tour est fini", None),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_pasted_control_characters_are_read_as_the_command_reads_them(browser, sites):  # type: ignore[no-untyped-def]
    """A terminal's colour escape or a control character pasted inside a word is dropped on the site as by `rulebot ask`
    (question.clean_question): the word stays whole."""
    questions = [("chau\x01murky tie", None), ("\x1b[31mchaumurky\x1b[0m tie", None), ("soft\u00adhyphen raven familiar", "res-arcana")]
    assert _differences(browser, sites["shipped"], questions) == []


def test_a_suggestion_is_asked_in_place(page, base):  # type: ignore[no-untyped-def]
    """An unsure answer offers the question respelled; following it asks that question on the same page."""
    page.goto(base["shipped"] + "catalyst/index.html")
    _search(page, "How do I get more catalsyts?")
    offer = page.locator("#search--suggestion a")
    assert offer.inner_text() == "How do I get more catalysts?"
    assert page.get_attribute("#search--suggestion", "aria-live") == "polite"  # told to a screen reader, as the status is
    offer.click()
    assert page.input_value("#search--q") == "How do I get more catalysts?"
    page.wait_for_function("() => document.getElementById('search--results').dataset.query === 'How do I get more catalysts?'")
    assert "q=How%20do%20I%20get%20more%20catalysts" in page.url


def test_a_suggestion_ends_as_its_language_ends_a_question(page, base):  # type: ignore[no-untyped-def]
    """The question mark after a suggestion is put as `rulebot ask` puts it: "limit?" in English, "diamants ?" in
    French."""
    for address, question, end in (("catalyst/index.html", "catalist coin limt", "?"), ("portals-of-molthar/index.fr.html", "combien de diamnts", " ?")):
        page.goto(base["shipped"] + address)
        _search(page, question)
        line = page.inner_text("#search--suggestion")
        offered = page.locator("#search--suggestion a").last.inner_text()
        assert line.endswith(offered + end), (question, line)


def test_a_number_after_a_term_is_read_as_the_command_reads_it(browser, sites):  # type: ignore[no-untyped-def]
    """"black 2" may match a rule's "black X" on the site as in `rulebot ask`, on a game's page and on the home page
    (where the placeholder is every game's, not one vocabulary's); a number after filler or alone stays itself."""
    questions = [("black 2", "dune-imperium"), ("black 2", None), ("trash 2", None), ("with 2", "catalyst"), ("2", None)]
    assert _differences(browser, sites["shipped"], questions) == []


def test_a_contraction_is_read_as_the_command_reads_it(browser, sites):  # type: ignore[no-untyped-def]
    """An English "n't" is joined to its verb on the site as in `rulebot ask` ("won't" is no "won"); a French "t'"
    stays apart."""
    questions = [
        ("doesn't the spy need a free space", "dune-imperium"), ("i won't reveal, can i pass", None),
        ("we couldn't pay the cost", "catalyst"), ("combien t'en faut", "portals-of-molthar"),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_drafts_of_a_numbered_reference_rank_as_the_command_ranks_them(browser, sites, numbered):  # type: ignore[no-untyped-def]
    """A drafted glossary item that sends to its rule by number gives way to the rule on the site as in `rulebot ask`
    (the site reads which drafts do so), and a number after a term is its value there too."""
    questions = [(q, game) for q in ("how does fight work", "fight", "crew 3", "what happens when creatures fight") for game in (NUMBERED_GAME, None)]
    assert _differences(browser, sites["numbered"], questions, [numbered]) == []


def test_a_phrase_no_entry_holds_is_searched_as_the_command_searches_it(browser, sites):  # type: ignore[no-untyped-def]
    """A synonym phrase that no entry says in any of its wordings ("imperium card", of Dune: Imperium's vocabulary)
    is searched as its words on the site as in `rulebot ask`, on a game's page and on the home page."""
    questions = [
        ("imperium card", "dune-imperium"), ("imperium deck card", None), ("can i trash an imperium card", None),
        ("tire au sort", "dune-imperium"), ("hors du jeu", "portals-of-molthar"), ("carte de conflit", None),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_lone_mentions_are_stood_by_as_the_command_stands_by_them(browser, sites):  # type: ignore[no-untyped-def]
    """A word that one entry's text alone mentions, naming nothing, is not stood by on the site, as in `rulebot ask`;
    one that an entry's name holds, typed or misspelt, still is."""
    questions = [
        ("according", "catalyst"), ("ambition", None), ("archduke", None), ("acadamy", None), ("carefully", None),
        ("threshold", None), ("threshold", "res-arcana"),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_one_word_naming_nothing_is_stood_by_as_the_command_stands_by_it(browser, sites):  # type: ignore[no-untyped-def]
    """A one-word question whose answer names nothing of it ("thank", "weather") is not stood by on the site, as in
    `rulebot ask`; a card's name, typed or misspelt, still is."""
    questions = [("thank", None), ("weather", None), ("greetings", None), ("x", None), ("chaumurkey", None), ("marketplace", "catalyst"), ("mentat", None)]
    assert _differences(browser, sites["shipped"], questions) == []


def test_a_phrase_mentioned_in_passing_is_stood_by_as_the_command_stands_by_it(browser, tmp_path):  # type: ignore[no-untyped-def]
    """A phrase of a game's vocabulary that one entry alone mentions is a lone mention on the site as in `rulebot ask`
    when its `asked` line shares one word of the phrase, and not when it holds the whole phrase."""
    from conftest import write_corpus

    rules = (
        "## {slug}-gull\ntitle: Ferry Gull\nkind: rule\nsection: Cards\nasked: {asked}\n\n"
        "The gull flies over the harbour whatever the tide chart says.\n\n"
        "## {slug}-dock\ntitle: Docking\nkind: rule\nsection: Turn\n\nA ferry may dock where a captain begins a turn.\n"
    )
    files = {}
    for slug, asked in (("toy", "when does the gull fly over the tide"), ("bay", "what does the tide chart change for the gull")):
        files[f"{slug}/game.toml"] = (
            f'slug = "{slug}"\nname = "{slug.title()}"\nid_prefix = "{slug}"\n\n[[sources]]\nid = "rules"\ntitle = "Rules"\n\n'
            '[vocabulary]\nsynonyms = [["tide chart", "tide table"]]\n'
        )
        files[f"{slug}/rules.md"] = rules.format(slug=slug, asked=asked)
    corpus = write_corpus(tmp_path / "corpus", files)
    out = tmp_path / "site"
    site.build(load([corpus]), out)
    questions = [(q, game) for q in ("tide chart", "tide table", "gull tide chart") for game in ("toy", "bay", None)]
    assert _differences(browser, out, questions, [corpus]) == []


def test_counts_are_stood_by_as_the_command_stands_by_them(browser, sites):  # type: ignore[no-untyped-def]
    """A count whose first answer states no number for what is counted is not stood by on the site, as in `rulebot
    ask`; a French count is compared with the English words of the game's vocabulary there too."""
    questions = [
        ("how many coins at start", "catalyst"), ("how many coins at start", None), ("how many intrigue cards", None),
        ("combien de troupes au maximum dans le conflit", "dune-imperium"), ("combien de pièces maximum", "catalyst"),
        ("nombre de joueurs", "catalyst"), ("how much solari does the high council seat cost", "dune-imperium"),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_a_player_count_is_read_as_the_command_reads_it(browser, sites):  # type: ignore[no-untyped-def]
    """A question with a player count besides a title's words ranks on the site as in `rulebot ask`: the count makes
    the title no longer the whole question."""
    questions = [("buildings setup 3p", "catalyst"), ("places of power 4 players", "res-arcana"), ("setup for 2", None)]
    assert _differences(browser, sites["shipped"], questions) == []


def test_base_game_only_is_read_as_the_command_reads_it(browser, sites):  # type: ignore[no-untyped-def]
    """A question about the base game alone leaves the expansions out on the site as `rulebot ask` does, on a game's
    page and on the home page; one that names an expansion or speaks of expansions is no such reading."""
    questions = [
        ("how many places of power with 2 players, base game only", "res-arcana"),
        ("how many places of power with 2 players in the base game", "res-arcana"),
        ("combien de lieux de pouvoir à 2 joueurs sans extension", "res-arcana"),
        ("how many places of power with 2 players, base game only", None),
        ("points to win without expansions", None),
        ("how does perlae imperii change the base game setup", None),
        ("how do i add the expansion to the base game", "res-arcana"),
        ("base game setup", None),
        ("perlae imperii places of power without expansions", None),
        ("rise of ix dreadnought no expansions", None),
        ("can i use pearls without the expansion", "res-arcana"),
    ]
    assert _differences(browser, sites["shipped"], questions) == []


def test_a_numbered_title_the_question_names_is_shown_without_an_alias(page, base):  # type: ignore[no-untyped-def]
    """"crew" names "702.12a Crew" by its words (its number is no word to name it by): its alias "Crewing" is not
    shown beside it as what the question named."""
    page.goto(base["numbered"] + f"{NUMBERED_GAME}/index.html")
    _search(page, "crew")
    row = page.locator("#search--results li", has=page.locator("a", has_text="702.12a Crew")).first
    row.wait_for()
    assert row.locator(".result-alias").count() == 0


def test_base_game_only_is_said(page, base):  # type: ignore[no-untyped-def]
    """The results say that the expansions were left out, in the page's language."""
    page.goto(base["shipped"] + "res-arcana/index.html")
    _search(page, "how many places of power with 2 players, base game only")
    assert page.inner_text("#search--status").endswith("Base game only: the expansions are left out.")
    _search(page, "how many places of power with 2 players")
    assert "Base game only" not in page.inner_text("#search--status")


def test_question_words_are_answered_as_the_command_answers_them(browser, sites):  # type: ignore[no-untyped-def]
    """Question words alone are refused by the site as by `rulebot ask`, but where they name an entry as typed
    (Catalyst's "either or" as "either"), on a page whose search data is not in yet too."""
    questions = [("either", "catalyst"), ("what", "catalyst"), ("either", None), ("can i", None), ("or", "res-arcana"), ("combien de dés ?", None), ("don't", None)]
    assert _differences(browser, sites["shipped"], questions) == []


@pytest.mark.parametrize(
    ("path", "question", "said"),
    [
        ("index.html", "σπαθί", "No entry matches “σπαθί”."),
        ("index.html", "what", "Question words alone ask nothing: say what the question is about."),
        ("portals-of-molthar/index.fr.html", "combien ?", "Des mots de question seuls ne demandent rien : dites sur quoi porte la question."),
    ],
)
def test_a_question_nothing_answers_says_why(page, base, path, question, said):  # type: ignore[no-untyped-def]
    """A question whose words begin with letters no word of the corpus begins with says that no entry matches; one of
    question words alone (which `rulebot ask` refuses) says to say what it is about, in the page's language; neither
    lists an entry."""
    page.goto(base["shipped"] + path)
    page.fill("#search--q", question)
    page.wait_for_function(
        "q => { const l = document.getElementById('search--results'); return l.dataset.query === q && l.dataset.complete === 'true'; }",
        arg=question,
    )
    assert page.text_content("#search--status") == said
    assert page.locator("#search--results a").count() == 0


def test_unsure_answer_says_so(page, base):  # type: ignore[no-untyped-def]
    """When no entry answers clearly (several games answer alike), the site says so, as `rulebot ask` does."""
    page.goto(base["shipped"] + "index.html")
    _search(page, "who wins a tie")
    assert page.get_attribute("#search--results", "data-confident") == "false"
    assert page.inner_text("#search--status").startswith("No entry answers this clearly")
    _search(page, "chaumurky tie")
    assert page.get_attribute("#search--results", "data-confident") == "true"


def test_game_page_offers_every_game(page, base):  # type: ignore[no-untyped-def]
    """On a game's page, a link asks the question of every game, on the home page."""
    page.goto(base["shipped"] + "catalyst/index.html")
    _search(page, "molthar combien d'actions par tour")
    page.get_by_role("link", name="Chercher dans tous les jeux").click()  # a French question: French words
    page.wait_for_url("**/index.html?q=*")
    results = _search(page, "molthar combien d'actions par tour")
    assert results.first.get_attribute("href").endswith("portals-of-molthar/index.fr.html#molthar-three-actions")  # in French
    # From a French page, the home page in French.
    page.goto(base["shipped"] + "portals-of-molthar/index.fr.html")
    _search(page, "combien d'actions par tour")
    page.get_by_role("link", name="Chercher dans tous les jeux").click()
    page.wait_for_url("**/index.fr.html?q=*")
    assert page.get_attribute("html", "lang") == "fr"


def test_an_entry_of_another_page_in_french_opens_in_french(page, base):  # type: ignore[no-untyped-def]
    """An entry's anchor on a French page that does not hold it (the A–Z's, the setup page's) opens the French page
    that does, at its anchor."""
    for path in ("portals-of-molthar/a-z.fr.html", "portals-of-molthar/setup.fr.html"):
        page.goto(base["shipped"] + path + "#molthar-first-player")
        page.wait_for_url("**/portals-of-molthar/index.fr.html#molthar-first-player")


def _steps_shown(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The texts of the setup steps shown, in order (with their numbers, as the list shows them)."""
    return page.locator(".setup-combination:visible li.setup-step:visible").evaluate_all(
        "items => items.map(li => Array.from(li.querySelectorAll('.setup-text')).filter(t => t.offsetParent).map(t => t.textContent).join(' '))"
    )


def _choose(page, players: int, *expansions: str) -> list[str]:  # type: ignore[no-untyped-def]
    page.check(f"#setup--choice input[name=players][value='{players}']")
    for box in page.locator("#setup--choice input[name=with]").all():
        box.set_checked(box.get_attribute("value") in expansions)
    return _steps_shown(page)


def test_setup_page_choice_shows_the_checklist_for_it(page, base):  # type: ignore[no-untyped-def]
    """On a game's setup page, choosing a player count and expansions changes the steps to that checklist."""
    page.goto(base["shipped"] + "res-arcana/index.html")
    page.locator(".game-nav a", has_text="Setup").click()
    page.wait_for_url("**/res-arcana/setup.html")
    three = _choose(page, 3, "perlae-imperii")
    assert len(three) == 12
    assert any("deal 10 of them" in text for text in three) and not any("deal 14 of them" in text for text in three)
    five = _choose(page, 5, "perlae-imperii")
    assert any("deal 14 of them" in text for text in five) and any("set out 7 of them" in text for text in five)
    assert five != three
    assert _choose(page, 5) == []  # the base game is not played by 5
    assert page.locator("#setup--status").inner_text() == "Res Arcana is played by 2 to 4 players, not 5."
    base_three = _choose(page, 3)
    assert len(base_three) == 9 and "Lay out 5 places of power, whatever the player count." in base_three
    page.goto(base["shipped"] + "catalyst/setup.html")
    assert any("numbered 1 and 3;" in text for text in _choose(page, 2))
    assert any("numbered 1 to 4" in text for text in _choose(page, 4))
    page.goto(base["shipped"] + "dune-imperium/setup.html")
    assert len(_choose(page, 2, "rise-of-ix")) == 1
    assert _choose(page, 3, "rise-of-ix") == []
    # (no step for the count: said as `rulebot setup` says it, not a checklist of "0 steps")
    assert page.locator("#setup--status").inner_text() == "Dune: Imperium with Rise of Ix: no source here gives a setup step for 3 players."


def test_setup_page_says_which_counts_the_sources_give_a_step_for(page, base):  # type: ignore[no-untyped-def]
    """At a count only an expansion no source covers lets in (Res Arcana at 5 with Lux et Tenebrae), each step says the
    counts the sources give it for, as `rulebot setup` does; at a count they give, none does."""
    page.goto(base["shipped"] + "res-arcana/setup.html")
    notes = ".setup-combination:visible li.setup-step:visible .setup-beyond:visible"
    five = _choose(page, 5, "lux-et-tenebrae")
    assert five and page.locator(notes).count() == len(five)
    assert page.locator(notes).first.inner_text() == "Not in the sources: the sources give this step for 2 to 4 players"
    assert _choose(page, 3, "lux-et-tenebrae") and page.locator(notes).count() == 0


def test_setup_page_without_javascript_shows_the_full_tables(browser, base):  # type: ignore[no-untyped-def]
    """Without JavaScript, the setup page shows every checklist with each step's text for every player count."""
    context = browser.new_context(java_script_enabled=False)
    try:
        tab = context.new_page()
        tab.goto(base["shipped"] + "res-arcana/setup.html")
        assert not tab.locator("#setup--choice").is_visible()
        text = tab.locator("main").inner_text()
        for places, monuments in ((4, 7), (5, 10), (6, 12), (7, 14)):
            assert f"set out {places} of them" in text and f"deal {monuments} of them" in text
        assert "Lay out 5 places of power" in text
        # base, Perlae Imperii, and each with Lux et Tenebrae, whose checklists say what no source covers
        assert tab.locator(".setup-combination:visible").count() == 4
        assert "No source in the corpus covers Lux et Tenebrae" in text
        assert "Choose the number of players" not in text  # (no choice to make without the script)
    finally:
        context.close()


def test_setup_page_asks_for_the_choice_there_is(page, base):  # type: ignore[no-untyped-def]
    """The setup page's "About" says to choose the expansions in play only where the game has some to choose."""
    page.goto(base["shipped"] + "res-arcana/setup.html")
    assert "states it. Choose the number of players and the expansions in play" in page.inner_text("#setup--about")
    page.goto(base["shipped"] + "catalyst/setup.html")
    about = page.inner_text("#setup--about")
    assert "Choose the number of players to see the one checklist" in about and "expansions" not in about


def test_molthar_in_french(page, base):  # type: ignore[no-untyped-def]
    """The language switch of Molthar's page leads to its French page, whose entries, A–Z and search are in French."""
    page.goto(base["shipped"] + "portals-of-molthar/index.html")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".language-switch a", has_text="Français").click()
    page.wait_for_url("**/portals-of-molthar/index.fr.html")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("#molthar-hand-limit .entry-title").inner_text() == "Limite de cartes en main"
    assert page.locator("#molthar-hand-limit").get_attribute("lang") is None  # the page's language
    assert "Français" in page.locator(".site-header .language-switch a[aria-current=page]").inner_text()
    page.locator(".game-nav a", has_text="A–Z").click()
    page.wait_for_url("**/portals-of-molthar/a-z.fr.html")
    page.locator(".index-items a", has_text="Limite de cartes en main").first.click()
    page.wait_for_url("**/portals-of-molthar/index.fr.html#molthar-hand-limit")
    assert _target(page) == "molthar-hand-limit"
    for query in ("défaussez jusqu'à n'en garder que 5", "hand limit"):  # French and English words
        results = _search(page, query)
        assert results.first.get_attribute("href") == "../portals-of-molthar/index.fr.html#molthar-hand-limit", query
    # the switch keeps the question asked, and the place in the page: the same search, the same entry, in English;
    # reached with the keyboard, it holds them before it is followed
    english = page.locator(".language-switch a", has_text="English")
    english.focus()
    assert english.get_attribute("href").endswith("/portals-of-molthar/index.html?q=hand%20limit")
    english.click()
    page.wait_for_url(re.compile(r".*/portals-of-molthar/index\.html\?q=hand%20limit$"))
    assert page.input_value("#search--q") == "hand limit"
    page.goto(page.url.replace("index.html?q=hand%20limit", "index.fr.html#molthar-hand-limit"))
    page.locator(".language-switch a", has_text="English").click()
    page.wait_for_url("**/portals-of-molthar/index.html#molthar-hand-limit")
    assert page.locator("#molthar-hand-limit .entry-title").inner_text() == "Hand limit" and _target(page) == "molthar-hand-limit"


def test_a_game_with_no_french_pages_leads_a_french_reader_home(page, base):  # type: ignore[no-untyped-def]
    """Catalyst has no French pages: its switch's "Français" leads to the French home with the question asked (not
    the place in Catalyst's page, which the home page has not), whose search goes on in French."""
    page.goto(base["shipped"] + "catalyst/index.html#catalyst-actions")
    _search(page, "coin limit")
    link = page.locator(".language-switch a", has_text="Français")
    assert "traduites" in link.get_attribute("title")
    # a right click (its menu opens the link in a new tab) finds the question already in the link
    link.click(button="right")
    assert link.get_attribute("href").endswith("/index.fr.html?q=coin%20limit")
    link.click()
    page.wait_for_url(re.compile(r".*/index\.fr\.html\?q=coin%20limit$"))
    assert page.locator("html").get_attribute("lang") == "fr" and page.input_value("#search--q") == "coin limit"


# -- at the table: a phone, French, the history, the setup choice ------------------------

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser, base: dict[str, str]):  # type: ignore[no-untyped-def]
    """A fresh page the size of a phone's screen."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


def _french_questions() -> list[str]:
    """The French questions of the development question sets about Molthar, the game with French pages."""
    import json

    rows = []
    for name in ("questions.jsonl", "questions-players-dev.jsonl", "questions-fresh-dev.jsonl"):
        for line in (Path(__file__).parent / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("lang") == "fr" and "portals-of-molthar" in (row.get("game"), row.get("expect_game")):
                rows.append(row["q"])
    return rows


def test_french_questions_get_french_titles_on_the_french_page(browser, sites):  # type: ignore[no-untyped-def]
    """On Molthar's French page, each French question of the question sets gets as its first result the entry's
    French title, the one `rulebot ask` gives first in its French answer, and French words around it."""
    from rulebot import api

    questions = _french_questions()
    assert len(questions) >= 40
    context = browser.new_context()
    tab = context.new_page()
    tab.goto((sites["shipped"] / "portals-of-molthar/index.fr.html").as_uri())
    differ = []
    with api.Library() as library:
        for question in questions:
            expected = library.ask(question, game="portals-of-molthar", lang="fr").matches
            tab.fill("#search--q", question)
            tab.wait_for_function(
                "q => { const l = document.getElementById('search--results'); return l.dataset.query === q && l.dataset.complete === 'true'; }",
                arg=" ".join(question.split()),
            )
            first = tab.locator("#search--results li:not(.search-more) a").first
            shown = first.inner_text() if tab.locator("#search--results li:not(.search-more) a").count() else None
            if shown != (expected[0].ruling.title if expected else None):
                differ.append((question, shown, expected[0].ruling.title if expected else None))
        assert tab.get_attribute("#search--results", "data-lang") == "fr"
        assert tab.inner_text("#search--status").endswith("résultats") or "clairement" in tab.inner_text("#search--status")
        assert "Règle" in tab.inner_text("#search--results") or "Précision" in tab.inner_text("#search--results")
        assert "Rule" not in tab.inner_text("#search--results") and "also called" not in tab.inner_text("#search--results")
    context.close()
    assert differ == []


def test_an_english_alias_on_a_french_answer_says_its_language(page, base):  # type: ignore[no-untyped-def]
    """On Molthar's French page, a result found by an English alias ("portal", typed "portial") shows it marked
    lang="en" within the French line, and says so ("en", as the A–Z says it)."""
    page.goto(base["shipped"] + "portals-of-molthar/index.fr.html")
    _search(page, "portial")
    aliases = page.locator("#search--results .result-alias")
    assert aliases.count() >= 1
    english = next(a for a in aliases.all() if a.inner_text().startswith("portal"))
    assert english.get_attribute("lang") == "en"
    assert english.evaluate("a => getComputedStyle(a, '::after').content") == '" en"'


def test_french_question_on_an_english_page_is_answered_in_french(page, base):  # type: ignore[no-untyped-def]
    """A French question on the home page gets French titles, snippet and words, and opens the French page."""
    page.goto(base["shipped"] + "index.html")
    results = _search(page, "combien de cartes en main molthar")
    assert results.first.inner_text() == "Limite de cartes en main"
    assert results.first.get_attribute("href").endswith("portals-of-molthar/index.fr.html#molthar-hand-limit")
    first = page.locator("#search--results li").first
    assert first.get_attribute("lang") == "fr" and "Règle" in first.locator(".result-meta").inner_text()
    first.locator(".result-snippet").wait_for()
    assert "cartes Perle en main" in first.locator(".result-snippet").inner_text()
    assert page.inner_text("#search--status") in ("10 résultats",) or "clairement" in page.inner_text("#search--status")
    results = _search(page, "hand limit molthar")  # an English question: English words
    assert results.first.inner_text() == "Hand limit" and page.get_attribute("#search--results", "data-lang") == "en"


def test_the_language_switch_stays_in_place_across_languages(phone, base):  # type: ignore[no-untyped-def]
    """On a phone (360 and 320 px wide), the language switch is at the same place on a page in English and in French,
    and on a game's page with no French: a reader who switches finds the switch under the same thumb, whatever the
    length of the other header links' words."""
    pages = ["index.html", "index.fr.html", "portals-of-molthar/index.html", "portals-of-molthar/index.fr.html", "catalyst/index.html"]
    for width in (360, 320):
        phone.set_viewport_size({"width": width, "height": PHONE["height"]})
        places = set()
        for page in pages:
            phone.goto(base["shipped"] + page)
            box = phone.locator(".site-header .language-switch").bounding_box()
            places.add((round(box["x"]), round(box["y"])))
            assert box["x"] + box["width"] <= width, (width, page)
        assert len(places) == 1, (width, places)


def test_a_table_wider_than_the_phone_shows_that_it_scrolls(phone, base):  # type: ignore[no-untyped-def]
    """At 320 px, Res Arcana's setup table scrolls inside its box, not the page, with a shadow on the side where
    more of it is (its box's backgrounds: covers that scroll with the table over shadows that stay)."""
    phone.set_viewport_size({"width": 320, "height": PHONE["height"]})
    phone.goto(base["shipped"] + "res-arcana/index.html")
    box = phone.locator(".table-wrap").first
    wider, page_wider = phone.evaluate(
        "() => { const b = document.querySelector('.table-wrap');"
        " return [b.scrollWidth > b.clientWidth, document.documentElement.scrollWidth > window.innerWidth]; }"
    )
    assert wider and not page_wider
    backgrounds = box.evaluate("b => [getComputedStyle(b).backgroundImage, getComputedStyle(b).backgroundAttachment]")
    assert backgrounds[0].count("radial-gradient") == 2 and backgrounds[1] == "local, local, scroll, scroll"


def test_back_after_opening_a_result_shows_the_results_again(phone, base):  # type: ignore[no-untyped-def]
    """The query is in the address as it is typed; Back from a result, on this page or another, shows the question
    and its results again; a page opened with ?q= shows them too."""
    phone.goto(base["shipped"] + "index.html")
    _search(phone, "tiebreak")
    phone.wait_for_url("**/index.html?q=tiebreak")
    titles = phone.locator("#search--results li a").all_inner_texts()
    phone.locator("#search--results li").first.click()
    phone.wait_for_url("**/portals-of-molthar/index.html#molthar-tie-break")
    phone.go_back()
    phone.wait_for_url("**/index.html?q=tiebreak")
    phone.locator("#search--results li a").first.wait_for()
    assert phone.input_value("#search--q") == "tiebreak" and phone.locator("#search--results li a").all_inner_texts() == titles
    # A result on the page itself: a history entry of its own, and Back to the results.
    phone.goto(base["shipped"] + "res-arcana/index.html")
    results = _search(phone, "raven familiar")
    shown = phone.locator("#search--results li a").all_inner_texts()
    results.first.click()
    phone.wait_for_url("**/res-arcana/index.html#arcana-raven-familiar")
    assert _target(phone) == "arcana-raven-familiar" and not phone.locator("#search--results").is_visible()
    phone.go_back()
    phone.wait_for_url("**/res-arcana/index.html?q=raven%20familiar")
    phone.locator("#search--results li a").first.wait_for()
    assert phone.locator("#search--results li a").all_inner_texts() == shown


def test_search_box_is_reachable_from_far_down_a_page(phone, base):  # type: ignore[no-untyped-def]
    """Far down a long page, a button at the foot of the screen brings back the search box, focused."""
    phone.goto(base["shipped"] + "portals-of-molthar/index.html")
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    button = phone.locator(".to-search")
    button.wait_for()
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44 and box["y"] + box["height"] <= PHONE["height"]
    button.click()
    assert phone.evaluate("document.activeElement.id") == "search--q"
    assert 0 <= phone.locator("#search--q").bounding_box()["y"] < PHONE["height"]
    phone.wait_for_function("() => document.querySelector('.to-search').hidden")


@pytest.mark.parametrize("page", ["portals-of-molthar/index.html", "res-arcana/setup.html", "catalyst/a-z.html", "portals-of-molthar/index.fr.html"])
def test_the_search_button_covers_nothing_at_the_end_of_a_page(phone, base, page: str):  # type: ignore[no-untyped-def]
    """Scrolled to the end of a page, the floating search button lies over no text nor link: the page ends with room
    for it (the last lines of the footer stay readable, its links tappable)."""
    phone.goto(base["shipped"] + page)
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    phone.locator(".to-search").wait_for()
    covered = phone.evaluate("""() => {
        const button = document.querySelector('.to-search').getBoundingClientRect();
        const texts = [...document.querySelectorAll('main *, footer *')].filter(el => [...el.childNodes].some(
            n => n.nodeType === Node.TEXT_NODE && n.textContent.trim()) || el.matches('a, button, input, img'));
        return texts.filter(el => { const r = el.getBoundingClientRect();
            return r.width && r.height && r.left < button.right && r.right > button.left && r.top < button.bottom
                && r.bottom > button.top && getComputedStyle(el).visibility !== 'hidden'; }).map(el => el.outerHTML.slice(0, 80));
    }""")
    assert covered == []


def test_whole_result_rows_open_their_entry(phone, base):  # type: ignore[no-untyped-def]
    """Each result row is a target of 44 px or more, and a tap on its snippet opens its entry."""
    phone.goto(base["shipped"] + "dune-imperium/index.html")
    _search(phone, "chaumurky")
    rows = phone.locator("#search--results li")
    rows.first.locator(".result-snippet").wait_for()
    assert all(row.bounding_box()["height"] >= 44 for row in rows.all())
    snippet = rows.first.locator(".result-snippet").bounding_box()
    phone.touchscreen.tap(snippet["x"] + snippet["width"] / 2, snippet["y"] + snippet["height"] / 2)  # the row's link lies over it
    phone.wait_for_url("**/dune-imperium/index.html#dune-chaumurky")


def test_results_close_on_a_click_elsewhere_and_on_escape(page, base):  # type: ignore[no-untyped-def]
    """On a desktop, the results laid over the page close on a click elsewhere or Escape, and come back with the box."""
    page.goto(base["shipped"] + "res-arcana/index.html")
    _search(page, "raven familiar")
    page.mouse.click(1000, 700)
    assert not page.locator("#search--results").is_visible()
    page.focus("#search--q")
    assert page.locator("#search--results").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#search--results").is_visible() and page.input_value("#search--q") == "raven familiar"
    page.keyboard.press("Escape")
    assert page.input_value("#search--q") == ""


def test_snippet_shows_the_sentence_that_matches(page, base):  # type: ignore[no-untyped-def]
    """A result's snippet is the part of its text that says the question's words, those words marked."""
    page.goto(base["shipped"] + "portals-of-molthar/index.html")
    _search(page, "how many diamonds for a tie")
    item = page.locator("#search--results li").filter(has=page.locator('a[href$="#molthar-tie-break"]'))
    item.locator(".result-snippet").wait_for()
    snippet = item.locator(".result-snippet")
    assert "most Diamonds wins" in snippet.inner_text()
    assert "diamonds" in [word.lower() for word in snippet.locator("mark").all_inner_texts()]


def test_setup_first_step_on_the_first_screen_and_choice_kept(phone, base):  # type: ignore[no-untyped-def]
    """On a phone, once a count is chosen the checklist starts on the first screen; the controls are 44 px or more;
    a step of per-count values reads as one step; the choice is in the address and survives a reload."""
    phone.goto(base["shipped"] + "res-arcana/setup.html")
    shown = phone.locator(".setup-combination")
    assert shown.count() >= 2 and phone.locator(".setup-combination:visible").count() == shown.count()  # nothing chosen yet: every checklist
    for control in phone.locator("#setup--choice .chip span").all():
        box = control.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    steps = _choose(phone, 3, "perlae-imperii")
    phone.wait_for_url("**/res-arcana/setup.html?players=3&with=perlae-imperii")
    first = phone.locator(".setup-combination:visible li.setup-step:visible").first.bounding_box()
    assert first["y"] + 40 <= PHONE["height"]
    assert phone.locator(".setup-combination:visible table:visible").count() == 0  # the count's values, not tables
    phone.reload()
    assert phone.locator("#setup--choice input[name=players]:checked").get_attribute("value") == "3"
    assert phone.locator("#setup--choice input[value=perlae-imperii]").is_checked()
    assert _steps_shown(phone) == steps
    phone.goto(base["shipped"] + "catalyst/setup.html?players=4")
    assert any("numbered 1 to 4" in text for text in _steps_shown(phone))


def test_french_setup_page(page, base):  # type: ignore[no-untyped-def]
    """Molthar's French setup page: French words, the steps in French (the page's language), and the French entries."""
    page.goto(base["shipped"] + "portals-of-molthar/index.fr.html")
    page.locator(".game-nav a", has_text="Mise en place").click()
    page.wait_for_url("**/portals-of-molthar/setup.fr.html")
    steps = _choose(page, 3)
    assert len(steps) == 6
    assert page.inner_text("#setup--status") == "Die Portale von Molthar : mise en place à 3 joueurs, 6 étapes."
    first = page.locator(".setup-step:visible .setup-text").first
    assert first.get_attribute("lang") is None and first.inner_text().startswith("Mélangez les cartes Perle")
    link = page.locator(".setup-step:visible .citation a").first
    assert link.inner_text() == "Mise en place des cartes Perle et Personnage visibles"
    assert link.get_attribute("href").startswith("index.fr.html#")
