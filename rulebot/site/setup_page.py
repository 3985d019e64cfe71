"""A game's setup page on the site (`<game>/setup.html`): its setup checklist, from its setup.toml.

The page holds the checklist of every set of the game's expansions that
changes the setup, each step with its text for every player count it is
done at. Without JavaScript it reads as those full tables; with it (setup.js,
no data to fetch, so it works from file:// too), a player-count and
expansion choice shows the one checklist for the choice, numbered as
`rulebot setup` numbers it, and keeps the choice in the address.

A game with French pages has a French setup page too (`setup.fr.html`): its
words and the entries' titles in French (the catalogs of rulebot/locale), the
steps' texts in French where the setup data gives them so (`text-fr`), else in
English, marked so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jinja2

from rulebot.corpus.model import TEXT_LANGUAGE, Corpus, Game
from rulebot.corpus.setup import GameSetup, count_range, with_expansions
from rulebot.site import languages

TEMPLATE = "setup.html"


def setup_page(slug: str) -> str:
    """The path of a game's setup page from the site root."""
    return f"{slug}/setup.html"


@dataclass(frozen=True)
class StepText:
    """A step's text at some player counts (all those at which it reads the same)."""

    players: tuple[int, ...]
    text: str
    label: str
    """The counts in words: "2 to 4 players"."""


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
    lang: str = TEXT_LANGUAGE
    """The language of its texts: the page's where the setup gives them in it (`text-fr`), else the entries' own."""


@dataclass(frozen=True)
class CombinationView:
    """The checklist with one set of expansions in play."""

    key: str
    """The expansions' slugs, sorted, joined by "+"; "" for the base game."""
    title: str
    """"Res Arcana with Perlae Imperii"."""
    players: tuple[int, ...]
    played_by: str
    """"Res Arcana with Perlae Imperii is played by 2 to 5 players"."""
    counts: str
    """"2 to 5 players"."""
    steps: tuple[StepView, ...]
    uncovered: str = ""
    """What no source covers of its expansions (an expansion `uncovered`): its counts are then those of the covered
    checklists (GameSetup.players_with)."""
    beyond: tuple[int, ...] = ()
    """The counts only an expansion no source covers lets in (Res Arcana at 5 with Lux et Tenebrae): each step then
    says, at those counts, which counts the sources give it for (`beyond_open`), as `rulebot setup` does."""
    beyond_open: str = ""


class Words:
    """The page's words that the code makes, in its language (`languages.catalog`)."""

    def __init__(self, lang: str):
        self.lang = lang
        self._ = languages.catalog(lang).gettext

    def counts(self, counts: tuple[int, ...]) -> str:
        """"2 to 4 players", "1 player"."""
        words = count_range(counts, to=self._("to"), or_=self._("or"))
        return self._("1 player") if words == "1" else self._("{counts} players").format(counts=words)

    def given_for(self, counts: tuple[int, ...]) -> str:
        """What a step says at a count beyond the sources (rulebot.corpus.setup.BEYOND_SOURCES)."""
        return self._("the sources give this step for {counts}").format(counts=self.counts(counts))

    def with_expansions(self, game: str, expansions: list[str]) -> str:
        return with_expansions(game, expansions, with_=self._("with"), and_=self._("and"))

    def played_by(self, title: str, counts: tuple[int, ...]) -> str:
        return self._("{game} is played by {counts}").format(game=title, counts=self.counts(counts))


def pages(
    corpus: Corpus,
    env: jinja2.Environment,
    base: Callable[[str, str, Game], Mapping[str, Any]],
    href: Callable[[str, str], str | None],
    lang: str = TEXT_LANGUAGE,
) -> Iterator[tuple[str, str]]:
    """The setup page of each game with a setup.toml, in `lang` (`env`'s); `base` gives a page's common context
    (page, title, game), `href` the link to an entry from a page."""
    words = Words(lang)
    for slug, setup in corpus.setups.items():
        game = corpus.games[slug]
        page = setup_page(slug)
        names = {e.slug: e.name for e in game.expansions}
        combinations = [_combination(corpus, setup, combination, names, page, href, words) for combination in setup.combinations()]
        changing = {e.expansion for e in setup.expansions}
        counts = sorted({count for combination in combinations for count in combination.players})
        context = {
            **base(page, words._("{game}: setup").format(game=game.name), game),
            "combinations": combinations,
            "counts": [(count, words.counts((count,))) for count in counts],
            "text_lang": TEXT_LANGUAGE,
            "expansions": [(e.slug, e.name) for e in game.expansions if e.slug in changing],
            "unchanged": [e.name for e in game.expansions if e.slug not in changing],
            "complete": setup.complete,
            "note": setup.note_translations.get(lang, setup.note),
            "note_lang": lang if lang in setup.note_translations else TEXT_LANGUAGE,
        }
        yield page, env.get_template(TEMPLATE).render(**context)


def _combination(
    corpus: Corpus,
    setup: GameSetup,
    expansions: tuple[str, ...],
    names: Mapping[str, str],
    page: str,
    href: Callable[[str, str], str | None],
    words: Words,
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
            by_text.setdefault(step.text_at(count, words.lang), []).append(count)
        entry = corpus.entries[step.entry]
        source = corpus.games[entry.game].source(entry.source)
        steps.append(
            StepView(
                id=step.id,
                players=counts,
                texts=tuple(StepText(tuple(at), text, words.counts(tuple(at))) for text, at in by_text.items()),
                open="; ".join(part for part in (step.open, left) if part),
                expansion=names.get(expansion, expansion) if expansion else "",
                href=href(step.entry, page),
                entry_title=entry.title,
                citation=f"{source.title if source else entry.source}, {entry.section}",
                lang=words.lang if words.lang in step.translations else TEXT_LANGUAGE,
            )
        )
    title = words.with_expansions(game_name, named)
    beyond, covered = setup.beyond_sources(expansions)
    return CombinationView(
        key="+".join(sorted(expansions)),
        title=title,
        players=supported,
        played_by=words.played_by(title, supported),
        counts=words.counts(supported),
        uncovered=uncovered,
        steps=tuple(steps),
        beyond=beyond,
        beyond_open=words.given_for(covered) if beyond else "",
    )
