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
- then what typing on loads, key by key (each key's results complete before
  the next key): the bytes of the files the extra keys load, per key;
- the same first search, and the same keys, on the home page (which searches
  every game).

Each figure is in bytes as stored (raw: what a server without compression
sends) and, for the searches, gzipped too (`*_gzip`: each file compressed on
its own at zlib's default level, as a server compressing on the fly sends it).

speed.py runs it on the site it builds at each size, when Chromium is there.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
import zlib
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
QUERY = "rules"
"""What the first search types (any word: it is the loading that is measured)."""
MORE_KEYS = " of the turn"
"""What is typed after QUERY, one key at a time, for the bytes per extra key."""


def available() -> bool:
    """Whether Playwright and Chromium are there to measure with."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists()


def _path(url: str) -> Path:
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(url).path))


def _size(url: str) -> int:
    path = _path(url)
    return path.stat().st_size if path.is_file() else 0


def _gzip_size(url: str) -> int:
    """The file's size compressed alone (zlib's default level, with gzip's 18 bytes of header and trailer)."""
    path = _path(url)
    return len(zlib.compress(path.read_bytes())) - 6 + 18 if path.is_file() else 0


def _typed(page, query: str) -> None:
    """Wait until the results shown are the query's, with all the data they need."""
    page.wait_for_function(
        "q => { const l = document.getElementById('search--results');"
        " return l && l.dataset.query === q && l.dataset.complete === 'true'; }",
        arg=query,
    )
    page.wait_for_timeout(300)


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
        _typed(page, QUERY)
        later = requests[len(at_open):]
        found["search_bytes"] = sum(_size(u) for u in later)
        found["search_gzip"] = sum(_gzip_size(u) for u in later)
        found["search_files"] = len(later)
        typed = QUERY
        for key in MORE_KEYS:
            page.keyboard.type(key)
            typed += key
            _typed(page, typed.strip())
        more = requests[len(at_open) + len(later):]
        found["key_bytes"] = sum(_size(u) for u in more) / len(MORE_KEYS)
        found["key_gzip"] = sum(_gzip_size(u) for u in more) / len(MORE_KEYS)
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
        "game_first_search_gzip": game_page["search_gzip"],
        "game_key": game_page["key_bytes"],
        "game_key_gzip": game_page["key_gzip"],
        "heaviest_page": heaviest.relative_to(site).as_posix(),
        "heaviest_open": heavy["open_bytes"],
        "home_open": home["open_bytes"],
        "home_first_search": home["search_bytes"],
        "home_first_search_gzip": home["search_gzip"],
        "home_key": home["key_bytes"],
        "home_key_gzip": home["key_gzip"],
    }


def table(rows: list[tuple[str, dict]]) -> str:
    """A Markdown table of measurements, one row per (label, measure()); searches as raw / gzip KB."""
    out = [
        "| site | game | largest HTML page (KB) | open the game page (KB) | of which search data | open its heaviest page (KB) "
        "| first search on the game page (KB raw / gzip) | per extra key | open the home page (KB) "
        "| first search on the home page (KB raw / gzip) | per extra key |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def kb(raw: float, gzip: float) -> str:
        return f"{raw / 1000:,.0f} / {gzip / 1000:,.0f}"

    for label, m in rows:
        out.append(
            f"| {label} | {m['game']} | {m['largest_html'] / 1000:,.0f} | {m['game_open'] / 1000:,.0f} | {m['game_open_search_data'] / 1000:,.0f} "
            f"| {m['heaviest_open'] / 1000:,.0f} | {kb(m['game_first_search'], m['game_first_search_gzip'])} | {kb(m['game_key'], m['game_key_gzip'])} "
            f"| {m['home_open'] / 1000:,.0f} | {kb(m['home_first_search'], m['home_first_search_gzip'])} | {kb(m['home_key'], m['home_key_gzip'])} |"
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
