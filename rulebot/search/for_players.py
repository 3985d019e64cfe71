"""The setup steps that answer a question asked for a player count: "how many monuments with 3 players".

When the entries that make up an answer are the ones a game's setup steps
point at (its setup.toml: rulebot.corpus.setup), the answer gives those
steps for the count asked, from the same data as `rulebot setup`: "For 3
players: ... deal 10 of them as the starting monument deck". The steps are
those of the checklist for that count, with the expansions in play or named
in the question, and those of the answer's entries; of them, the steps that
point at an entry of the answer, and among those the ones whose text shares
most words with the question (else those of the best entry). A count the
game is not played by, with those expansions, is said so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulebot.corpus.setup import GameSetup
from rulebot.errors import UnknownEntryError
from rulebot.language import analysis
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
) -> dict[str, Any] | None:
    """The setup steps for `players` that answer the question whose answer is made of `parts` (best first);
    None when no step of the game's setup points at one of them.

    `games`: the index's games (their setup); `words`: the question's folded
    words; `in_play`: the expansions of the best entry's game in play or
    named; `get`: an entry's payload by id. The object is
    {"players", "game", "expansions": [{"slug", "name"}], "supported",
    "steps": [step objects of `rulebot setup --json`]}; "steps" is empty
    when the game is not played by that count with those expansions.
    """
    best = parts[0]
    game = games[best.game]
    data = game.get("setup")
    if not data:
        return None
    setup = GameSetup.from_json(data)
    answering = [hit for hit in parts if hit.game == best.game]
    expansions = set(in_play) | {slug for hit in answering if (slug := hit.data.get("expansion"))}
    names = {e["slug"]: e["name"] for e in game["expansions"]}
    supported = list(setup.players_with(expansions))
    found: dict[str, Any] = {
        "players": players,
        "game": best.game,
        "expansions": [{"slug": slug, "name": names.get(slug, slug)} for slug in sorted(expansions)],
        "supported": supported,
        "steps": [],
    }
    ids = [hit.id for hit in answering]
    pointing = [step for step, _expansion, _change in setup.assembled(expansions) if set(step.entries()) & set(ids)]
    if not pointing:
        return None
    if players not in supported:
        return found
    checklist = setup.checklist(players, expansions)
    candidates = [step for step in checklist.steps if set(step.step.entries()) & set(ids)]
    asked = content_stems(words)
    shared = {step.number: len(asked & {analysis.stem(w) for w in analysis.words(step.text)}) for step in candidates}
    most = max(shared.values(), default=0)
    if most:
        chosen = [step for step in candidates if shared[step.number] == most]
    else:  # no word in common (a question in French, say): the steps of the best entry that has any
        first = next((i for i in ids if any(i in step.step.entries() for step in candidates)), None)
        chosen = [step for step in candidates if first in step.step.entries()]
    found["steps"] = [step.to_json(lambda entry_id: cite(get, entry_id), names) for step in chosen[:MAX_STEPS]]
    return found


def cite(get: Callable[[str], StoredEntry], entry_id: str) -> dict[str, Any]:
    """An entry's citation, from its payload: {"id", "title", "source"}; an entry not in the index has its id only."""
    try:
        payload = get(entry_id)
    except UnknownEntryError:
        return {"id": entry_id, "title": None, "source": None}
    return {"id": payload["id"], "title": payload["title"], "source": payload["source"]}
