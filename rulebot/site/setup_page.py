"""A game's setup page on the site (`<game>/setup.html`): its setup checklist, from its setup.toml.

The page holds the checklist of every set of the game's expansions that
changes the setup, each step with its text for every player count it is
done at. Without JavaScript it reads as those full tables; with it (setup.js,
no data to fetch, so it works from file:// too), a player-count and
expansion choice shows the one checklist for the choice, numbered as
`rulebot setup` numbers it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jinja2

from rulebot.corpus.model import Corpus, Game
from rulebot.corpus.setup import GameSetup, count_range, played_by, with_expansions

TEMPLATE = "setup.html"


def setup_page(slug: str) -> str:
    """The path of a game's setup page from the site root."""
    return f"{slug}/setup.html"


@dataclass(frozen=True)
class StepText:
    """A step's text at some player counts (all those at which it reads the same)."""

    players: tuple[int, ...]
    text: str

    @property
    def label(self) -> str:
        return f"{count_range(self.players)} players"


@dataclass(frozen=True)
class StepView:
    """One step of a checklist, at every count it is done at."""

    id: str
    players: tuple[int, ...]
    """The counts it is done at."""
    texts: tuple[StepText, ...]
    """One text when it reads the same at every count, else one per count."""
    open: str
    expansion: str
    """The name of the expansion that adds or replaces it, or ""."""
    href: str | None
    """Its entry on the site."""
    entry_title: str
    citation: str
    """Its entry's document and section."""


@dataclass(frozen=True)
class CombinationView:
    """The checklist with one set of expansions in play."""

    key: str
    """The expansions' slugs, sorted, joined by "+"; "" for the base game."""
    title: str
    """"Res Arcana with Perlae Imperii"."""
    players: tuple[int, ...]
    played_by: str
    steps: tuple[StepView, ...]
    uncovered: str = ""
    """What no source covers of its expansions (an expansion `uncovered`): its counts are then those of the covered
    checklists (GameSetup.players_with)."""


def pages(
    corpus: Corpus,
    env: jinja2.Environment,
    base: Callable[[str, str, Game], Mapping[str, Any]],
    href: Callable[[str, str], str | None],
) -> Iterator[tuple[str, str]]:
    """The setup page of each game with a setup.toml; `base` gives a page's common context (page, title, game),
    `href` the link to an entry from a page."""
    for slug, setup in corpus.setups.items():
        game = corpus.games[slug]
        page = setup_page(slug)
        names = {e.slug: e.name for e in game.expansions}
        combinations = [_combination(corpus, setup, combination, names, page, href) for combination in setup.combinations()]
        changing = {e.expansion for e in setup.expansions}
        context = {
            **base(page, f"{game.name}: setup", game),
            "languages": [],  # the setup data is in the entries' own language only: no page to switch to
            "combinations": combinations,
            "counts": sorted({count for combination in combinations for count in combination.players}),
            "expansions": [(e.slug, e.name) for e in game.expansions if e.slug in changing],
            "unchanged": [e.name for e in game.expansions if e.slug not in changing],
            "complete": setup.complete,
            "note": setup.note,
        }
        yield page, env.get_template(TEMPLATE).render(**context)


def _combination(
    corpus: Corpus, setup: GameSetup, expansions: tuple[str, ...], names: Mapping[str, str], page: str, href: Callable[[str, str], str | None]
) -> CombinationView:
    supported = setup.players_with(expansions)
    uncovered = " ".join(setup.uncovered(expansions))
    game_name = corpus.games[setup.game].name
    named = [names.get(slug, slug) for slug in expansions]
    steps = []
    for step, expansion, _change, left in setup.steps_with(expansions):
        counts = tuple(count for count in supported if step.applies(count))
        if not counts:
            continue
        by_text: dict[str, list[int]] = {}
        for count in counts:
            by_text.setdefault(step.text_at(count), []).append(count)
        entry = corpus.entries[step.entry]
        source = corpus.games[entry.game].source(entry.source)
        steps.append(
            StepView(
                id=step.id,
                players=counts,
                texts=tuple(StepText(tuple(at), text) for text, at in by_text.items()),
                open="; ".join(part for part in (step.open, left) if part),
                expansion=names.get(expansion, expansion) if expansion else "",
                href=href(step.entry, page),
                entry_title=entry.title,
                citation=f"{source.title if source else entry.source}, {entry.section}",
            )
        )
    return CombinationView(
        key="+".join(sorted(expansions)),
        title=with_expansions(game_name, named),
        players=supported,
        played_by=played_by(game_name, named, supported),
        uncovered=uncovered,
        steps=tuple(steps),
    )
