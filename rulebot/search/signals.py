"""What some of the ranking's features are made of (rulebot.search.features): what a question's units mean,
how much naming an entry lifts it, what a question counts.

The constants are in rulebot.search.constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from rulebot.language import analysis, quantities
from rulebot.language.analysis import SynonymTable, stem
from rulebot.search.constants import EXACT_NAME, MIN_NAME_LETTERS, NAMED_LIFT
from rulebot.search.question import Unit, is_placeholder, make_units
from rulebot.search.spelling import Spellings

if TYPE_CHECKING:
    from rulebot.index.payload import StoredEntry


class Meaning(NamedTuple):
    """What one unit of a question stands for, as stems."""

    said: set[str]
    """Its words as typed, and close spellings of an unknown word."""
    meant: set[str]
    """Those, and its synonyms of one word."""
    phrases: tuple[frozenset[str], ...]
    """The stems of each of its synonyms of several words: such a synonym means a name that holds it whole, and
    none of its words alone ("deck" means the "draw pile", not the "Draw" of "Draw a pearl"). Stems as a name's
    are made (analysis.name_stems: no question filler), so that "end of turn" is held by the name "End of turn"."""


def meaning(unit: Unit, spellings: Spellings) -> Meaning:
    """The stems a unit says (its words, close spellings of an unknown word) and may mean (its synonyms too)."""
    said = {stem(w) for w in unit.words}
    if len(unit.words) == 1:
        said.update(stem(c[0]) for c in spellings.of(unit.words[0]))
    meant, phrases = set(said), set()
    for alt in unit.alternatives[1:]:
        if is_placeholder(unit, alt):
            continue  # "crew 3": the number gives the term a value, it does not name the term
        stems = analysis.name_stems(" ".join(alt))
        if len(stems) == 1:
            meant.add(stems[0])
        elif stems:
            phrases.add(frozenset(stems))
    return Meaning(said, meant, tuple(sorted(phrases, key=sorted)))


def _meant_in(meaning_: Meaning, name: frozenset[str]) -> set[str]:
    """The stems of a name a unit means: its words and one-word synonyms, and its longer synonyms the name holds."""
    found = meaning_.meant & name
    for phrase in meaning_.phrases:
        if phrase <= name:
            found |= phrase
    return found


def name_bonus(data: StoredEntry, meanings: list[Meaning], synonym_share: float, beyond: int = 0) -> float:
    """How much naming the entry's title or an alias in the question lifts it.

    `meanings` holds, per unit of the question, the stems it says (its words,
    close spellings) and may mean (the game's synonyms too). A name every stem
    of which the question means is *named*: it lifts the entry by the share of
    the question's units it covers, and most when it covers them all. "max
    coins at end of turn" names "Coin limit at end of turn". A name the
    question reaches through synonyms lifts it by the share of its words the question says:
    "gold" lifts "Gold leaf", not the "Apples" that gold means. `beyond`: how
    much more the question asks than its units (1 for a player count, whose
    number is no unit): no name covers that, so none is the whole question
    ("building setup 3p" is not just "Building setup").
    """
    if not meanings:
        return 1.0
    said = set().union(*(m.said for m in meanings))
    # Every stem any unit may mean, its longer synonyms' words included: a name with a stem beyond it is not
    # named, and most names are left at that, before a closer look.
    reach = set().union(*(m.meant for m in meanings), *(phrase for m in meanings for phrase in m.phrases))
    low, high = NAMED_LIFT
    best = 1.0
    for name in data["name_stems"]:
        if not name or not reach.issuperset(name) or sum(len(w) for w in name) < MIN_NAME_LETTERS:
            continue
        stems = frozenset(name)
        per_unit = [_meant_in(m, stems) for m in meanings]
        if not stems.issubset(set().union(*per_unit)):
            continue
        covered = sum(1 for meant in per_unit if meant)
        asked = len(meanings) + beyond
        bonus = EXACT_NAME if covered == asked else low + (high - low) * covered / asked
        typed = sum(1 for stem_ in name if stem_ in said) / len(name)
        best = max(best, 1 + (bonus - 1) * (typed + (1 - typed) * synonym_share))
    return best


def states_count(data: StoredEntry, words: Sequence[str], synonyms: SynonymTable) -> bool:
    """Whether an entry states a number for something the question counts, in the question's words or another
    wording of its game's vocabulary (a French question's "troupes" are the troops an English rule counts)."""
    counted = data.get("counted", ())
    if not counted:
        return False
    wanted = content_stems(words)
    for unit in make_units(words, synonyms):
        for alternative in unit.alternatives[1:]:
            wanted |= content_stems(alternative)
    return bool(wanted.intersection(counted))


def content_stems(words: Sequence[str]) -> set[str]:
    """The stems of a question's words that say what it is about (no filler, no number)."""
    return {stem(w) for w in words if w not in analysis.QUESTION_FILLER and quantities.number_of(w) is None}
