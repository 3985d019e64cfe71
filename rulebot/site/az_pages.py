"""A game's A–Z pages: every name of its entries (titles and aliases) from A to Z, on one page or, for a large game, on pages of letters.

Which names go on which page is the `Site`'s (rulebot.site.arrangement.AzPage).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import jinja2

from rulebot.site.arrangement import AzPage, Site
from rulebot.site.languages import N_
from rulebot.site.paths import relative_path
from rulebot.site.templates import render_page
from rulebot.site.views import IndexContext, PageLink


def index_pages(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    for slug in site.games:
        game = site.corpus.games[slug]
        pages = site.indexes[slug]
        name_count = sum(len(letter.items) for az in pages for letter in az.letters)
        for az in pages:
            if len(pages) == 1:
                links = [PageLink(href=f"#{letter.anchor}", label=letter.letter, lang="en", count=len(letter.items)) for letter in az.letters]
            else:
                links = [replace(_az_link(other, az.path), label=other.letter) for other in pages[1:] if other.part <= 1]
            context = IndexContext(
                **site.base(az.path, site.say(N_("{game}: A–Z")).format(game=game.name) + (f", {az.label}" if az.label else ""), game),
                letters=list(az.letters),
                name_count=name_count,
                letter_links=links,
                pages=[_az_link(other, az.path) for other in pages[1:]] if az is pages[0] and len(pages) > 1 else [],
                label=az.label,
            )
            yield az.path, render_page(env, [f"a-z-{slug}.html", "a-z.html"], context)


def _az_link(az: AzPage, here: str) -> PageLink:
    """A page of a split A–Z linked from another (or itself): its letter (and part), its names, the first and last of them."""
    items = az.letters[0].items
    href = f"#{az.letters[0].anchor}" if az.path == here else relative_path(az.path, here)
    return PageLink(href=href, label=az.label, lang="en", count=len(items), span=f"{items[0].name} – {items[-1].name}")
