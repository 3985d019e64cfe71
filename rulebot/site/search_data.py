"""The data of the site's search, as JavaScript files that assign a global.

The search runs in the browser without a server (it must work from file://,
where fetch() of a JSON file is refused), so its data is loaded by `<script>`
tags: each file adds one key to `window.RULEBOT_DATA`. No page loads any of
it when it opens: the search script injects the tags when someone first
focuses the search box or types in it (or opens a page with `?q=`).

- `_search/games.js` (key "games"): every game's slug and name, in the
  site's order.
- `_search/<game>.names.js` (key "names:<slug>"): the game's name, its pages and, for
  each entry, its id, kind, title, aliases with their language, flags
  (FLAG_HOUSE for a house rule, never an official ruling; FLAG_DRAFT for a
  draft) and page: enough to find any card or term by name, to flag house
  rules in the results and to link each result to the page it is on.
- `_search/<game>.texts.js` (key "texts:<slug>"): the plain texts of the
  game's entries, in the order of its names file, for full-text matches and
  result snippets.

A game's page loads its own game's names and texts, and the names of the
other games; a page of no game (home, sources) loads every file.

The JSON is made safe to embed in a script: `<`, `>`, `&` and every non-ASCII
character (U+2028 and U+2029 included) are written as `\\uXXXX` escapes, so no
text of the corpus can close the script or break the file's encoding.
"""

from __future__ import annotations

import json
from typing import Any

from rulebot.corpus.model import Corpus, Entry
from rulebot.markdown import PRE, STRONG_OFF, STRONG_ON, to_terminal

SEARCH_DIR = "_search"
"""The output folder of the search data (an underscore: no game slug can clash)."""
GAMES_FILE = f"{SEARCH_DIR}/games.js"
FLAG_HOUSE = "house"
"""Flag of an entry that is a house rule (kind house-rule, or a source of trust house)."""
FLAG_DRAFT = "draft"
"""Flag of an entry whose text is still its source's own (`draft: true`)."""


def names_file(slug: str) -> str:
    """The path of a game's names, relative to the site root (a `.`: no clash with another game's files)."""
    return f"{SEARCH_DIR}/{slug}.names.js"


def texts_file(slug: str) -> str:
    """The path of a game's entry texts, relative to the site root."""
    return f"{SEARCH_DIR}/{slug}.texts.js"


def script_json(value: Any) -> str:
    """JSON that can sit inside a `<script>`: no `<`, `>`, `&` or non-ASCII character."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def assignment(key: str, value: Any) -> str:
    """A JavaScript file adding `value` to window.RULEBOT_DATA under `key`."""
    return (
        "/* rulebot search data: generated, do not edit. */\n"
        "window.RULEBOT_DATA = window.RULEBOT_DATA || {};\n"
        f"window.RULEBOT_DATA[{script_json(key)}] = {script_json(value)};\n"
    )


def plain_text(markdown: str) -> str:
    """An entry text without its Markdown, on one line."""
    text = to_terminal(markdown)
    for mark in (STRONG_ON, STRONG_OFF, PRE):
        text = text.replace(mark, "")
    return " ".join(text.split())


def flags(entry: Entry, house: bool) -> list[str]:
    """The flags of an entry, in a fixed order: FLAG_HOUSE, FLAG_DRAFT."""
    return [flag for flag, on in ((FLAG_HOUSE, house), (FLAG_DRAFT, entry.draft)) if on]


def games_data(corpus: Corpus, games: list[str]) -> dict[str, Any]:
    """The games, in the site's order: [{"slug", "name"}]."""
    return {"games": [{"slug": slug, "name": corpus.games[slug].name} for slug in games]}


def names_data(corpus: Corpus, slug: str, page_of: dict[str, str]) -> dict[str, Any]:
    """A game's name, its pages (file names in its folder) and [id, kind, title, [[alias, lang], ...], [flag, ...], page index] per entry."""
    pages: dict[str, int] = {}
    entries: list[list[Any]] = []
    for entry in corpus.entries_of(slug):
        page = pages.setdefault(page_of[entry.id].rpartition("/")[2], len(pages))
        aliases = [[a.text, a.lang] for a in entry.aliases]
        entries.append([entry.id, entry.kind, entry.title, aliases, flags(entry, corpus.is_house_rule(entry)), page])
    return {"name": corpus.games[slug].name, "pages": list(pages), "entries": entries}


def texts_data(entries: list[Entry]) -> dict[str, Any]:
    """The plain texts of one game's entries, in corpus order (the order of its names)."""
    return {"texts": [plain_text(entry.text) for entry in entries]}
