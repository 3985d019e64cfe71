"""The data of the site's search, as JavaScript files that assign a global.

The search runs in the browser without a server (it must work from file://,
where fetch() of a JSON file is refused), so its data is loaded by `<script>`
tags: each file adds one key to `window.RULEBOT_DATA`.

- `_search/all.js` (key "all"): every game (slug, name) and every entry's id,
  game, kind, title, aliases with their language, and flags (FLAG_HOUSE for
  a house rule, never an official ruling; FLAG_DRAFT for a draft); small,
  loaded on every page, enough to find any card or term by name and to flag
  house rules in the results.
- `_search/<game>.js` (key "game:<slug>"): the plain text of that game's
  entries, for full-text matches and result snippets; loaded by the game's
  pages, and by the other pages only once someone searches.

The JSON is made safe to embed in a script: `<`, `>`, `&` and every non-ASCII
character (U+2028 and U+2029 included) are written as `\\uXXXX` escapes, so no
text of the corpus can close the script or break the file's encoding.
"""

from __future__ import annotations

import json
from typing import Any

from rulebot.model import Corpus, Entry
from rulebot.render import PRE, STRONG_OFF, STRONG_ON, to_terminal

SEARCH_DIR = "_search"
"""The output folder of the search data (an underscore: no game slug can clash)."""
ALL_FILE = f"{SEARCH_DIR}/all.js"
FLAG_HOUSE = "house"
"""Flag of an entry that is a house rule (kind house-rule, or a source of trust house)."""
FLAG_DRAFT = "draft"
"""Flag of an entry whose text is still its source's own (`draft: true`)."""


def game_file(slug: str) -> str:
    """The path of a game's search data, relative to the site root."""
    return f"{SEARCH_DIR}/{slug}.js"


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


def all_data(corpus: Corpus, games: list[str]) -> dict[str, Any]:
    """The names of every entry: [id, game index, kind, title, [[alias, lang], ...], [flag, ...]]."""
    index = {slug: number for number, slug in enumerate(games)}
    entries: list[list[Any]] = []
    for slug in games:
        for entry in corpus.entries_of(slug):
            aliases = [[a.text, a.lang] for a in entry.aliases]
            entries.append([entry.id, index[slug], entry.kind, entry.title, aliases, flags(entry, corpus.is_house_rule(entry))])
    return {
        "games": [{"slug": slug, "name": corpus.games[slug].name} for slug in games],
        "entries": entries,
    }


def game_data(entries: list[Entry]) -> dict[str, Any]:
    """The plain texts of one game's entries, by entry id."""
    return {"texts": {entry.id: plain_text(entry.text) for entry in entries}}
