"""How answers are ranked: the signals and their weights, for `rulebot ask` and the site's search alike.

rulebot.search (the command's search), rulebot.scoring (BM25F) and
rulebot.schema (the index's field boosts) import them; the site build writes
them into its search data (`RANKING`, in `_search/games.js`), which the
site's search script reads. The two searches rank by the same numbers and
cannot drift apart.

A question's score for an entry, in order:

1. BM25F (B, K1) over the fields of FIELDS, each weighted by its FIELD_BOOSTS;
   per unit of the question (a word, or a phrase of the game's vocabulary)
   the best of its alternatives counts in each field, fields and units add
   up. The words as typed count 1, a synonym SYNONYM_WEIGHT (by the
   question's language), a close spelling of an unknown word
   CORRECTION_WEIGHT.
2. Adjacent words found close together add PROXIMITY_WEIGHT of their scores
   (PROXIMITY_SLOP words apart at most, per field), for questions of up to
   PROXIMITY_UNITS units, among the PROXIMITY_POOL best entries.
3. The share of the question's units an entry matches scales its score:
   COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * share².
4. Naming an entry's title or alias lifts it: EXACT_NAME for the whole
   question, else NAMED_BASE + NAMED_SHARE * the share of units it covers
   (SYNONYM_NAME_SHARE of that when reached through synonyms).
5. The source's trust weighs it (TRUST_WEIGHT).
6. With no game named, each of a game's own terms in the question (up to
   MAX_GAME_TERMS) lifts its entries by TERM_LIFT.
7. A question asking how many lifts the entries stating a number for what
   it counts (QUANTITY_LIFT), one asked for a player count those giving a
   value for it (PLAYERS_LIFT); an expansion the question names lifts its
   entries (NAMED_EXPANSION_LIFT).
"""

from __future__ import annotations

B = 0.75
"""BM25's length normalisation (Whoosh's default)."""
K1 = 1.2
"""BM25's term frequency saturation (Whoosh's default)."""

FIELDS = (
    ("title", "english", False),
    ("aliases", "english", False),
    ("aliases_fr", "french", False),
    ("asked", "english", False),
    ("asked_fr", "french", False),
    ("body", "english", False),
    ("names", "names", False),
    ("section", "english", True),
)
"""(field, its analysis (rulebot.analysis.ANALYSES), searched for the words as typed only). Synonyms and
close spellings skip `section`, a weak hint: fewer clauses."""
FIELD_BOOSTS = {
    "title": 4.0,
    "names": 3.0,
    "aliases": 2.5,
    "aliases_fr": 2.5,
    "asked": 1.5,
    "asked_fr": 1.5,
    "body": 1.0,
    "section": 0.3,
}
"""How much a word found in each field weighs (in the index's postings)."""

MAX_QUESTION_CHARS = 1000
"""Longer questions are refused: nobody types them, and they only cost time."""
MAX_UNITS = 24
"""Only the first words of a long question are searched."""
TERM_LIFT = 0.1
"""When no game is named, each of a game's own terms in the question (up to MAX_GAME_TERMS) lifts its entries by this share."""
MAX_GAME_TERMS = 3
PROXIMITY_UNITS = 8
"""Questions of more units get no proximity bonus."""
PROXIMITY_WEIGHT = 0.5
"""Two adjacent words of the question found close together add this share of their scores."""
PROXIMITY_SLOP = {"body": 2, "title": 1}
"""Where the proximity bonus is looked for, and how many words apart the two may be there."""
MAX_TYPO_WORD = 32
"""Longer words are not looked up as typos: no name of a game is within two edits of them."""
CANDIDATES = 40
"""Hits fetched per game before rescoring."""
PROXIMITY_POOL = 200
"""The best documents by their words alone that a proximity bonus may reorder."""
COVERAGE_FLOOR = 0.2
"""An entry's score is scaled by COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * (share of the question's units it matches)²."""
SYNONYM_NAME_SHARE = {"en": 0.5, "fr": 1.0}
"""A name's words the question reaches only through synonyms lift an entry by this share of what saying them would."""
SYNONYM_WEIGHT = {"en": 0.6, "fr": 0.85}
"""An alternative from the game vocabulary counts less than the word typed, so that a synonym's match never
outweighs the word's own; in a French question, where most alternatives are the English words of the rules
(translations, not other words), a little less only."""
CORRECTION_WEIGHT = 0.7
"""A close spelling of an unknown word counts less than a word found as typed."""
TRUST_WEIGHT = {"official": 1.0, "designer": 0.97, "community": 0.93, "house": 0.85}
"""When two entries score alike, the more trusted source comes first; a clearly better match still wins."""
AMBIGUOUS_SHARE = 0.8
"""Another game's best entry scoring at least this share of the best answer is shown too."""
EXACT_NAME = 3.0
"""The lift of an entry whose title or alias is the whole question: it answers for sure."""
NAMED_BASE = 1.3
NAMED_SHARE = 0.7
"""The lift of an entry one of whose names the question names, not whole: NAMED_BASE + NAMED_SHARE * the share of
the question's units the name covers."""
MIN_NAME_LETTERS = 3
"""A name of fewer letters (its stems') lifts nothing: "a", "ok" are named by chance."""
QUANTITY_LIFT = 1.0
"""A question asking how many lifts an entry stating a number for all it counts by this share."""
PLAYERS_LIFT = 1.0
"""A question asked for a player count lifts the entries giving a value for that count by this share."""
NAMED_EXPANSION_LIFT = 1.2
"""The entries of an expansion the question names ("with the pearl expansion") are lifted by this much."""
MAX_PARTS = 3
"""An answer shows up to this many entries in full."""
PART_SHARE = 0.4
"""An entry linked to the answer's first ones completes it when it scores at least this share of the best."""
CLOSE_SHARE = 0.85
"""An entry scoring at least this share of the best is shown in full beside it."""
CONFIDENT_COVERAGE = 0.6
"""The best hit must match more than this share of the question's units to be trusted."""
CONFIDENT_MARGIN = 0.7
"""...and no entry unrelated to it may score more than this share of its score."""


def constants() -> dict[str, object]:
    """Every constant of this module by name, as JSON data (tuples as lists): what the site's search reads."""
    return {
        name: [list(item) for item in value] if name == "FIELDS" else value
        for name, value in globals().items()
        if name.isupper() and not name.startswith("_")
    }
