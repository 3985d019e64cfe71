"""Where the pages are: a game's pages from the site root, the relative link from one page to another, and the ids that several modules name.

Functions of their arguments alone, with nothing to import.
"""

from __future__ import annotations

WHATS_NEW_ANCHOR = "whats--new"
"""The element id of a game page's "What's new" (with `--`, which no entry id has; the templates spell it too)."""


def game_page(slug: str) -> str:
    """The path of a game's entries page from the site root."""
    return f"{slug}/index.html"


def index_page(slug: str) -> str:
    """The path of a game's A–Z index from the site root."""
    return f"{slug}/a-z.html"


def relative_path(target: str, page: str) -> str:
    """The relative link from one page of the site to another (both from the root, pages at most one folder deep)."""
    folder = page.rpartition("/")[0]
    if folder and target.startswith(folder + "/"):
        return target[len(folder) + 1 :]
    return "../" * page.count("/") + target


def source_anchor(game: str, source: str) -> str:
    """The id of a source on the sources page."""
    return f"src--{game}--{source}"
