"""The setup steps that answer a question asked for a player count: "how many monuments with 3 players".

When the entries that make up an answer are the ones a game's setup steps
point at (its setup.toml: rulebot.corpus.setup), the answer gives those
steps for the count asked, from the same data as `rulebot setup`: "For 3
players, Perlae Imperii: ... deal 10 of them as the starting monument deck".
The steps are those of the checklist for that count with the expansions in
play or named in the question (the base game's, when there are none), then
those that the other expansions of the answer's entries add or replace: the
base game's number comes first unless the expansion is in play or named. Of
them, the steps that point at an entry of the answer, and among those the
ones whose text shares most words with the question (else those of the best
entry). A count the game is not played by, with those expansions, is said so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulebot.corpus.setup import ChecklistStep, GameSetup
from rulebot.errors import UnknownEntryError
from rulebot.language import analysis, quantities
from rulebot.search.answer import Hit
from rulebot.search.signals import content_stems

if TYPE_CHECKING:
    from rulebot.index.payload import GameJSON, StoredEntry

MAX_STEPS = 3
"""At most this many steps answer a question."""


def setup_answer(
    games: Mapping[str, GameJSON],
    parts: Sequence[Hit],
    players: int,
    words: Sequence[str],
    in_play: Collection[str],
    get: Callable[[str], StoredEntry],
    lang: str | None = None,
) -> dict[str, Any] | None:
    """The setup steps for `players` that answer the question whose answer is made of `parts` (best first);
    None when no step of the game's setup points at one of them.

    `games`: the index's games (their setup); `words`: the question's folded
    words; `in_play`: the expansions of the best entry's game in play or
    named; `get`: an entry's payload by id; `lang`: the language of the answer (a step's text is in it where the
    setup gives it so). The steps are those of the game
    with `in_play`, then those that the other expansions of the answer's
    entries add or replace (each step says its expansion). The object is
    {"players", "game", "expansions": [{"slug", "name"}], "supported",
    "has_expansions", "ranges", "steps": [step objects of `rulebot setup
    --json`]}; "steps" is empty when the game is not played by that count
    with those expansions (then "ranges" says the counts it is played by,
    ranges()); None too when it is, but no step answers at that count;
    "has_expansions": whether the game has any (then each line names the
    expansion its step is of, or the base game at a count the base game is
    played by).
    """
    best = parts[0]
    game = games[best.game]
    data = game.get("setup")
    if not data:
        return None
    setup = GameSetup.from_json(data)
    answering = [hit for hit in parts if hit.game == best.game]
    chosen = set(in_play)
    # The expansions of the answer's entries that are neither in play nor named: their numbers come after the
    # base game's (the game as played without them), each line naming its expansion.
    extra = {slug for hit in answering if (slug := hit.data.get("expansion"))} - chosen
    expansions = chosen | extra
    names = {e["slug"]: e["name"] for e in game["expansions"]}
    found: dict[str, Any] = {
        "players": players,
        "game": best.game,
        "expansions": [{"slug": slug, "name": names.get(slug, slug)} for slug in sorted(expansions)],
        "supported": list(setup.players_with(expansions)),
        "has_expansions": bool(game["expansions"]),
        "ranges": ranges(setup, game["name"], names, expansions),
        "steps": [],
    }
    ids = set(hit.id for hit in answering)
    pointing = [step for step, _expansion, _change in setup.assembled(expansions) if set(step.entries()) & ids]
    if not pointing:
        return None
    order = [hit.id for hit in answering]
    added: list[ChecklistStep] = []  # the steps the other expansions add or replace, for that count
    if extra and setup.allows(players, expansions):
        steps = setup.checklist(players, expansions, lang).steps
        added = _most_alike([step for step in steps if step.expansion in extra and set(step.step.entries()) & ids], words, order)
    own: list[ChecklistStep] = []  # the game's steps with what is in play: those that answer, and those replaced
    if setup.allows(players, chosen):
        steps = setup.checklist(players, chosen, lang).steps
        alike = _most_alike([step for step in steps if set(step.step.entries()) & ids], words, order)
        replaced = {step.step.id for step in added if step.change == "replace"}
        own = [step for step in steps if step in alike or step.step.id in replaced]
    picked = own + added
    if not picked and (setup.allows(players, chosen) or setup.allows(players, expansions)):
        return None  # a count the game is played by, at which no step states what is asked: nothing to add
    found["steps"] = [step.to_json(lambda entry_id: cite(get, entry_id), names) for step in picked[:MAX_STEPS]]
    return found


def ranges(setup: GameSetup, game_name: str, names: Mapping[str, str], expansions: Collection[str]) -> list[dict[str, Any]]:
    """The player counts of the base game, then those of each expansion that gives its own; an expansion of
    `expansions` no source covers has null (the sources do not give its own): [{"expansion", "name", "players"}]."""
    found: list[dict[str, Any]] = [{"expansion": None, "name": game_name, "players": list(setup.players)}]
    for change in setup.expansions:
        if change.players or (change.uncovered and change.expansion in expansions):
            counts = list(change.players) if change.players else None
            found.append({"expansion": change.expansion, "name": names.get(change.expansion, change.expansion), "players": counts})
    return found


_PLAYER_STEMS = frozenset(analysis.stem(word) for word in quantities.PLAYER_WORDS)
"""The stems of the words that make a number a player count ("3 players"): no word a setup step shares with a question."""


def _most_alike(candidates: Sequence[ChecklistStep], words: Sequence[str], order: Sequence[str]) -> list[ChecklistStep]:
    """Of the steps that point at the answer's entries (`order`: their ids, best first), those whose text shares
    most words with the question; with no word in common (a question in French, say), those of the best entry.
    The words of the player count ("3 players") are no words in common: every step given is for that count."""
    asked = content_stems(words) - _PLAYER_STEMS
    shared = [len(asked & {analysis.stem(w) for w in analysis.words(step.text)}) for step in candidates]
    most = max(shared, default=0)
    if most:
        return [step for step, count in zip(candidates, shared, strict=True) if count == most]
    first = next((i for i in order if any(i in step.step.entries() for step in candidates)), None)
    return [step for step in candidates if first in step.step.entries()]


def cite(get: Callable[[str], StoredEntry], entry_id: str) -> dict[str, Any]:
    """An entry's citation, from its payload: {"id", "title", "source"}; an entry not in the index has its id only."""
    try:
        payload = get(entry_id)
    except UnknownEntryError:
        return {"id": entry_id, "title": None, "source": None}
    return {"id": payload["id"], "title": payload["title"], "source": payload["source"]}
