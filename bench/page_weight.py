"""Page weight of a built site: what a reader's browser downloads to open a page, and then to search.

    python bench/page_weight.py SITE_DIR               # the game of the most entries
    python bench/page_weight.py SITE_DIR --game mtg

It opens pages of the site in Chromium (Playwright driving /usr/bin/chromium,
from file://), records every file the page requests, and adds up their sizes
on disk (uncompressed: what a server without compression sends):

- the largest HTML page of the site;
- opening the game's page (`<game>/index.html`) and the game's heaviest page
  (its largest HTML file): the HTML, CSS and scripts loaded at open, and of
  these, the search data;
- what the first search on the game's page loads (the box focused, a word
  typed, until the results are complete and their snippets in): the search
  data, and the scripts that come with it (the search's engine and stemmers);
- the same first search on the home page (which searches every game).

speed.py runs it on the site it builds at each size, when Chromium is there.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
QUERY = "rules"
"""What the first search types (any word: it is the loading that is measured)."""


def available() -> bool:
    """Whether Playwright and Chromium are there to measure with."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists()


def _size(url: str) -> int:
    path = Path(urllib.parse.unquote(urllib.parse.urlsplit(url).path))
    return path.stat().st_size if path.is_file() else 0


def _largest_game(site: Path) -> str:
    """The game whose HTML pages weigh the most in all."""
    folders = [p for p in site.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))]
    return max(folders, key=lambda p: sum(f.stat().st_size for f in p.rglob("*.html"))).name


def _visit(browser, url: str, search: bool) -> dict:
    """Open a page; with `search`, then search once. Bytes requested at open and by the search, search data apart."""
    page = browser.new_page()
    page.set_default_timeout(60_000)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    at_open = list(requests)
    found: dict = {
        "open_bytes": sum(_size(u) for u in at_open),
        "open_search_bytes": sum(_size(u) for u in at_open if "/_search/" in u),
    }
    if search:
        page.focus("#search--q")
        page.fill("#search--q", QUERY)
        page.wait_for_function(
            "q => { const l = document.getElementById('search--results');"
            " return l && l.dataset.query === q && l.dataset.complete === 'true'; }",
            arg=QUERY,
        )
        page.wait_for_timeout(300)
        later = requests[len(at_open):]
        found["search_bytes"] = sum(_size(u) for u in later)
        found["search_files"] = len(later)
    page.close()
    return found


def measure(site: Path, game: str | None = None) -> dict:
    """The page weights of a built site (see the module's doc), in bytes."""
    from playwright.sync_api import sync_playwright

    site = site.resolve()
    game = game or _largest_game(site)
    pages = sorted(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    heaviest = max((site / game).glob("*.html"), key=lambda p: p.stat().st_size)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"])
        game_page = _visit(browser, (site / game / "index.html").as_uri(), search=True)
        heavy = _visit(browser, heaviest.as_uri(), search=False)
        home = _visit(browser, (site / "index.html").as_uri(), search=True)
        browser.close()
    return {
        "game": game,
        "html_pages": len(pages),
        "largest_html": pages[-1].stat().st_size,
        "largest_html_page": pages[-1].relative_to(site).as_posix(),
        "game_open": game_page["open_bytes"],
        "game_open_search_data": game_page["open_search_bytes"],
        "game_first_search": game_page["search_bytes"],
        "heaviest_page": heaviest.relative_to(site).as_posix(),
        "heaviest_open": heavy["open_bytes"],
        "home_open": home["open_bytes"],
        "home_first_search": home["search_bytes"],
    }


def table(rows: list[tuple[str, dict]]) -> str:
    """A Markdown table of measurements, one row per (label, measure())."""
    out = [
        "| site | game | largest HTML page (KB) | open the game page (KB) | of which search data | open its heaviest page (KB) | first search on the game page (KB) | open the home page (KB) | first search on the home page (KB) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, m in rows:
        out.append(
            f"| {label} | {m['game']} | {m['largest_html'] / 1000:,.0f} | {m['game_open'] / 1000:,.0f} | {m['game_open_search_data'] / 1000:,.0f} "
            f"| {m['heaviest_open'] / 1000:,.0f} | {m['game_first_search'] / 1000:,.0f} | {m['home_open'] / 1000:,.0f} | {m['home_first_search'] / 1000:,.0f} |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built site folders")
    parser.add_argument("--game", help="the game whose pages to open (default: the one of the heaviest pages)")
    args = parser.parse_args()
    if not available():
        sys.exit("page_weight: needs the playwright package and Chromium at /usr/bin/chromium")
    rows = []
    for site in args.sites:
        found = measure(site, args.game)
        print(json.dumps(found), file=sys.stderr)
        rows.append((site.name, found))
    print(table(rows))


if __name__ == "__main__":
    main()
