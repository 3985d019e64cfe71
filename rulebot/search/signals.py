"""Rescoring what a question's words found: by how much of the question an entry matches, and by other signals.

The words' BM25F score of an entry (rulebot.search.scoring) is multiplied
by the signals of this module:

- coverage: the share of the question's units it matches (UNCOVERED_SHARE);
- its name: a title or alias the question says, or means through synonyms
  (EXACT_NAME, NAMED_LIFT, SYNONYM_NAME_SHARE);
- its source's trust (TRUST_WEIGHT);
- when no game is named, the game's own terms the question uses (TERM_LIFT);
- a count asked for, stated by the entry, and the player count asked for,
  given a value by it (QUANTITY_LIFT, PLAYERS_LIFT);
- an expansion the question names (NAMED_EXPANSION_LIFT).

The constants are in rulebot.search.constants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from rulebot.language import analysis, quantities
from rulebot.language.analysis import stem
from rulebot.search.answer import Hit
from rulebot.search.constants import (
    EXACT_NAME,
    MAX_GAME_TERMS,
    MIN_NAME_LETTERS,
    NAMED_EXPANSION_LIFT,
    NAMED_LIFT,
    PLAYERS_LIFT,
    QUANTITY_LIFT,
    TERM_LIFT,
    TRUST_WEIGHT,
    UNCOVERED_SHARE,
)
from rulebot.search.question import Unit
from rulebot.search.spelling import Spellings

if TYPE_CHECKING:
    from rulebot.index.payload import StoredEntry


class Meaning(NamedTuple):
    """What one unit of a question stands for, as stems."""

    said: set[str]
    """Its words as typed, and close spellings of an unknown word."""
    meant: set[str]
    """Those, and its synonyms."""


def meaning(unit: Unit, spellings: Spellings) -> Meaning:
    """The stems a unit says (its words, close spellings of an unknown word) and may mean (its synonyms too)."""
    said = {stem(w) for w in unit.words}
    if len(unit.words) == 1:
        said.update(stem(c[0]) for c in spellings.of(unit.words[0]))
    return Meaning(said, said | {stem(w) for alt in unit.alternatives for w in alt})


def rescored(score: float, coverage: float, bonus: float, data: StoredEntry) -> float:
    """An entry's score for its words, by the share of the question's units it matches, the lift of its name
    (name_bonus) and the trust of its source."""
    trust = TRUST_WEIGHT.get(data["source"].get("trust") or "official", 1.0)
    return score * (UNCOVERED_SHARE + (1 - UNCOVERED_SHARE) * coverage**2) * bonus * trust


def name_bonus(data: StoredEntry, meanings: list[Meaning], synonym_share: float) -> float:
    """How much naming the entry's title or an alias in the question lifts it.

    `meanings` holds, per unit of the question, the stems it says (its words,
    close spellings) and may mean (the game's synonyms too). A name every stem
    of which the question means is *named*: it lifts the entry by the share of
    the question's units it covers, and most when it covers them all. "max
    coins at end of turn" names "Coin limit at end of turn". A name the
    question reaches through synonyms lifts it by the share of its words the question says:
    "gold" lifts "Gold leaf", not the "Apples" that gold means.
    """
    if not meanings:
        return 1.0
    said = set().union(*(m.said for m in meanings))
    meant = set().union(*(m.meant for m in meanings))
    low, high = NAMED_LIFT
    best = 1.0
    for name in data["name_stems"]:
        if not name or not meant.issuperset(name) or sum(len(w) for w in name) < MIN_NAME_LETTERS:
            continue
        covered = sum(1 for meaning in meanings if meaning.meant.intersection(name))
        bonus = EXACT_NAME if covered == len(meanings) else low + (high - low) * covered / len(meanings)
        typed = sum(1 for stem_ in name if stem_ in said) / len(name)
        best = max(best, 1 + (bonus - 1) * (typed + (1 - typed) * synonym_share))
    return best


def term_lifts(hits: list[Hit], terms_in: Mapping[str, int]) -> None:
    """Lift each entry by its game's own terms the question uses (up to 3), by game: when no game is named."""
    lifts = {slug: 1 + TERM_LIFT * min(MAX_GAME_TERMS, terms_in[slug]) for slug in terms_in}
    for hit in hits:
        hit.score *= lifts[hit.game]


def lift_by_intent(hits: list[Hit], intent: quantities.Intent, words: Sequence[str]) -> None:
    """Lift the entries that state what the question counts, and those that give its player count.

    "How many buildings can I own": an entry with a number next to
    "building" states it; one that only says "building" does not. "With 3
    players": an entry with a value for 3 players (a table row, a list
    item) is the one to read.
    """
    if not intent.quantity and intent.players is None:
        return
    content = content_stems(words)
    for hit in hits:
        lift = 1.0
        if intent.quantity and content:
            stated = content.intersection(hit.data.get("counted", ()))
            lift += QUANTITY_LIFT * len(stated) / len(content)
        if intent.players is not None and intent.players in hit.data.get("player_counts", ()):
            lift += PLAYERS_LIFT
        hit.score *= lift


def lift_named_expansions(hits: list[Hit], named: set[str]) -> None:
    """Lift the entries of the expansions a question names."""
    for hit in hits:
        if hit.data["expansion"] in named:
            hit.score *= NAMED_EXPANSION_LIFT


def states_count(hit: Hit, words: Sequence[str]) -> bool:
    """Whether an entry states a number for something the question counts."""
    return bool(content_stems(words).intersection(hit.data.get("counted", ())))


def content_stems(words: Sequence[str]) -> set[str]:
    """The stems of a question's words that say what it is about (no filler, no number)."""
    return {stem(w) for w in words if w not in analysis.QUESTION_FILLER and quantities.number_of(w) is None}
