"""Counts in questions and in entries: "how many ... with 3 players", and the entries that state the number.

A player asking "how many monuments with 3 players" wants the entry that
gives a number for monuments, and the row of its table for 3 players, not
an entry that merely says "monument". This module reads:

- in a question: whether it asks for a quantity (how many, how much, max,
  limit, combien...) and a player count ("with 3 players", "3p", "à 2
  joueurs"), which is a count, not a word to search for;
- in an entry, when the index is built: the words that stand next to a
  number (what it counts), and the player counts it gives a value for (a
  table row, a list item, "in a 2-player game");
- in an entry's text, when an answer is shown: the line or table row for a
  player count.

Plain Python over rulebot.language.analysis, for the index and for questions alike.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from rulebot.language import analysis
from rulebot.text import fold

NUMBER_WORDS = {
    **{w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())},
    **{w: n for n, w in enumerate("zero un deux trois quatre cinq six sept huit neuf dix onze douze".split()) if n > 1},
    "solo": 1,
    "une": 1,
}
"""Numbers written as words, English and French (French 'un' is left out: it is mostly an article)."""
SOLO_WORDS = frozenset({"solo"})
"""Words that are a player count and a word of the rules too (a solo mode): the count is read, the word kept."""
PLAYER_WORDS = frozenset({"player", "players", "joueur", "joueurs", "p", "pl", "j"})
"""Words that make the number before them a player count."""
COUNT_PREPOSITIONS = frozenset({"a", "with", "for", "at", "avec", "pour"})
"""In French, "à 3" alone is a player count; in English "with 3" needs "players" after it."""
QUANTITY_CUES = (
    ("how", "many"), ("how", "much"), ("number", "of"), ("at", "most"), ("up", "to"), ("max",), ("maximum",),
    ("limit",), ("minimum",), ("min",), ("combien",), ("nombre",), ("jusqu",), ("au", "plus"), ("limite",),
)
"""Word sequences that ask for a quantity."""
MAX_PLAYERS = 12
WINDOW = 5
"""A word counts as counted when it is at most this many words from a number."""
_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[a-z]+")
COMPACT_COUNT = r"^(\d{1,2})(?:p|pl|j|players?|joueurs?)$"
"""'3p', '4pl', '2j', '3players': a count and its player word typed as one (looked for, and compiled by re,
only in a word that begins with a digit: most questions have none)."""
_RANGE = r"\b(\d{1,2})\s*(?:-|–|to|or|à|ou)\s*(\d{1,2})\s*(?:-\s*)?(?:players?|joueurs?)\b"
_PLAYERS = r"\b(\d{1,2}|[a-z]+)[\s-]*(?:players?|joueurs?)\b"
"""Player counts in an entry's text (case ignored): compiled when an index is built (by re, once), never
for a question: a cold `ask` does not pay for them."""


class Intent(NamedTuple):
    """What a question asks beyond its words: a quantity, for a player count."""

    quantity: bool
    """It asks how many, how much, the most or the least of something."""
    players: int | None
    """The player count it is asked for, if it gives one."""
    words: tuple[str, ...]
    """Its folded words, without the player count's number (a count, not a word to search for)."""


def number_of(word: str) -> int | None:
    """The number a folded word writes, in digits or in words; None if it is no number."""
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)


def read_intent(words: list[str], language: str = "en") -> Intent:
    """A question's intent, from its folded words (analysis.words) and its language."""
    quantity = any(analysis.find_phrase(words, cue) >= 0 for cue in QUANTITY_CUES)
    players, kept = None, list(words)
    for at, word in enumerate(words):
        compact = re.match(COMPACT_COUNT, word) if word[:1].isdigit() else None
        if compact:
            players, kept = int(compact.group(1)), words[:at] + words[at + 1:]
            break
        count = number_of(word)
        if count is None or not 1 <= count <= MAX_PLAYERS:
            continue
        after = words[at + 1] if at + 1 < len(words) else ""
        before = words[at - 1] if at else ""
        if word in SOLO_WORDS:
            players = count
            break
        if after in PLAYER_WORDS or (language == "fr" and before in COUNT_PREPOSITIONS and after not in FRENCH_NOUN_AFTER):
            players, kept = count, words[:at] + words[at + 1:]
            break
    return Intent(quantity, players, tuple(kept))


FRENCH_NOUN_AFTER = frozenset({"carte", "cartes", "piece", "pieces", "point", "points", "perle", "perles", "fois", "actions", "action"})
"""After "à 3", these make the number a count of things, not of players."""


def counted_stems(text: str) -> list[str]:
    """The stems of the words that stand next to a number in a text (what its numbers count), sorted.

    Empty for a text without a number. Table rows count whole: a number in a
    row counts every word of the row and of the table's header."""
    if not _may_count(text):
        return []
    found: set[str] = set()
    header: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            cells = analysis.words(line)
            if not header:
                header = cells
            if any(_counts_something(w) for w in cells):
                found.update(_stems(header + cells))
            continue
        header = []
        if not _may_count(line):  # most lines of a text: no number, nothing counted
            continue
        line_words = analysis.words(line)
        places = [at for at, word in enumerate(line_words) if _counts_something(word)]
        for at in places:
            found.update(_stems(line_words[max(0, at - WINDOW):at + WINDOW + 1]))
    return sorted(found)


def player_counts(text: str) -> list[int]:
    """The player counts a text gives something for ("3 players", "2-4 players", a table row), sorted."""
    lowered = text.lower()
    if "player" not in lowered and "joueur" not in lowered:  # most texts: the patterns below need one of these
        return []
    found: set[int] = set()
    for low, high in re.findall(_RANGE, text, re.IGNORECASE):
        if int(low) <= int(high) <= MAX_PLAYERS:
            found.update(range(int(low), int(high) + 1))
    for written in re.findall(_PLAYERS, text, re.IGNORECASE):
        count = number_of(written.lower())
        if count is not None and 1 <= count <= MAX_PLAYERS:
            found.add(count)
    return sorted(found)


def _may_count(text: str) -> bool:
    """Whether a text may hold a number, in digits or in words: a quick test before its words are folded
    and read (it may say yes wrongly, never no: a text that is not plain ASCII is folded first)."""
    if _DIGIT.search(text):
        return True
    if not text.isascii():
        text = fold(text)  # "²" becomes "2", "ｔｗｏ" "two"
        if _DIGIT.search(text):
            return True
    return not NUMBER_WORDS.keys().isdisjoint(_LETTERS.findall(text.lower()))


def stated_numbers(text: str) -> set[int]:
    """The numbers a text states, in digits or in words of English or French: what two texts of one ruling in two
    languages must agree on. A number word below two is left out: "one", "un", "une" are mostly pronouns and articles."""
    found = {int(digits) for digits in re.findall(r"\d+", text)}
    found.update(n for word in analysis.words(text) if (n := NUMBER_WORDS.get(word)) is not None and n >= 2)
    return found


def _counts_something(word: str) -> bool:
    """Whether a word is a number that states a quantity: "one" ("take one card", "one of them") mostly does not."""
    return number_of(word) is not None and word not in ("one", "une", "zero")


def line_for_players(text: str, players: int) -> str | None:
    """The line of a text that gives its value for a player count, in plain words, or None.

    A table row whose first cell is the count ("3 players" or "3") is given
    with the header's names ("Places of power 5 · Monuments 10"); a list item
    or line that starts with the count ("**3 players**: ...") is given as it is.
    """
    header: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not header:
                header = cells
                continue
            if all(set(c) <= set(":- ") for c in cells):
                continue
            if cells and _counts(cells[0]) == players:
                values = [f"{name} {value}" if name else value for name, value in zip(header[1:], cells[1:])]
                return " · ".join(values)
            continue
        header = []
        plain = stripped.lstrip("-*+• ").replace("**", "").replace("__", "")
        head, sep, rest = plain.partition(":")
        if sep and rest.strip() and _counts(head) == players:
            return rest.strip().rstrip(";.")
    return None


def _counts(cell: str) -> int | None:
    """The player count a table cell or a line's lead names ("3", "3 players", "three players"), or None."""
    cell_words = analysis.words(cell)
    if not cell_words or len(cell_words) > 3:
        return None
    count = number_of(cell_words[0])
    if count is None or any(w not in PLAYER_WORDS for w in cell_words[1:]):
        return None
    return count


def _stems(words: list[str]) -> set[str]:
    return {analysis.stem(w) for w in words if w not in analysis.QUESTION_FILLER and number_of(w) is None}

