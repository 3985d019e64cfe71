"""Accessibility of the built site, as axe-core finds it in Chromium: no violation of impact serious or critical on
any kind of page (home, game page, French game page, A–Z, setup, sources), light and dark, on a phone and a desktop,
with the search results open too.

axe-core is vendored in tests/vendor/axe-core (tests/vendor/update_axe.sh fetches it from the npm registry), so
that the tests need no network.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_site_browser import CHROMIUM, sync_api  # the browser's fixtures and the skip or failure without it

from rulebot.corpus.load import load
from rulebot.places import shipped_corpus_dir
from rulebot.site import build as site

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no browser: Debian's chromium is not installed at /usr/bin/chromium"),
]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
CORPORA = Path(__file__).parent / "corpora"
PAGES = [
    ("shipped", "index.html", "victory"),
    ("shipped", "res-arcana/index.html", "raven familiar"),
    ("shipped", "dune-imperium/index.html", None),
    ("shipped", "portals-of-molthar/index.fr.html", "combien de cartes en main"),
    ("shipped", "portals-of-molthar/a-z.fr.html", None),
    ("shipped", "res-arcana/a-z.html", None),
    ("shipped", "res-arcana/setup.html?players=3&with=perlae-imperii", None),
    ("shipped", "portals-of-molthar/setup.fr.html", None),
    ("shipped", "sources.html", None),
    ("curation", "quill-market/index.html", "market"),
]
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture(scope="module")
def a11y_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    built = {}
    for name, corpus_dirs in {"shipped": [shipped_corpus_dir()], "curation": [CORPORA / "site-curation" / "base", CORPORA / "site-curation" / "house"]}.items():
        out = tmp_path_factory.mktemp(f"a11y-{name}") / "site"
        site.build(load(corpus_dirs), out)
        built[name] = out
    return built


@pytest.fixture(scope="module")
def chromium():  # type: ignore[no-untyped-def]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


def _violations(tab) -> list[tuple[str, str, list[str]]]:  # type: ignore[no-untyped-def]
    """axe-core's violations of impact serious or critical on the page as it is: (rule, impact, its first elements).
    Its rules of WCAG 2.2 are off unless asked for: target-size (24 px targets, or room around them) is."""
    tab.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = tab.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}})).violations"
        ".map(v => [v.id, v.impact, v.nodes.slice(0, 5).map(n => n.target.join(' '))])"
    )
    return [tuple(violation) for violation in found if violation[1] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", sorted(VIEWPORTS))
@pytest.mark.parametrize(("which", "path", "query"), PAGES)
def test_no_serious_violation(chromium, a11y_sites, which, path, query, screen, scheme):  # type: ignore[no-untyped-def]
    """axe-core finds nothing serious or critical on the page, nor with its search results open."""
    context = chromium.new_context(viewport=VIEWPORTS[screen], color_scheme=scheme)
    try:
        tab = context.new_page()
        page, _, search = path.partition("?")
        tab.goto((a11y_sites[which] / page).as_uri() + (f"?{search}" if search else ""))
        assert _violations(tab) == []
        if query:
            tab.fill("#search--q", query)
            tab.wait_for_function(
                "q => { const l = document.getElementById('search--results'); return l.dataset.query === q && l.dataset.complete === 'true'; }",
                arg=query,
            )
            tab.locator("#search--results .result-snippet").first.wait_for()
            assert _violations(tab) == []
    finally:
        context.close()


def test_axe_core_is_vendored_with_its_licence():
    folder = AXE.parent
    assert AXE.stat().st_size > 100_000 and (folder / "LICENSE").exists() and (folder / "VERSION").read_text().strip()
