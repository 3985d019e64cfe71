"""The search's constants: how much is searched, what the words of a question match, how an answer is made.

Each is read where its docstring says: the search of a question's words
(rulebot.search.ranking, rulebot.search.query), the features of what it
finds (rulebot.search.signals, rulebot.search.features) and the answer made
of it (rulebot.search.answer). What each feature weighs, and when an answer
is stood by, is fitted, not set here: rulebot/search/weights.json. This module imports nothing, so that anything that
shows or mirrors the ranking can read them cheaply.
"""

# -- how much of a question is searched, and how many entries are ranked ----

MAX_QUESTION_CHARS = 1000
"""Longer questions are refused: nobody types them, and they only cost time."""
MAX_TYPO_WORD = 32
"""Longer words are not looked up as typos: no name of a game is within two edits of them."""
MAX_UNITS = 24
"""Only the first words of a long question are searched (and corrected)."""
CANDIDATES = 40
"""Hits fetched per game before rescoring."""
PROXIMITY_UNITS = 8
"""Questions of more units get no proximity bonus (see rulebot.search.query.Clauses.proximity)."""
PROXIMITY_POOL = 200
"""The best documents by their words alone that a proximity bonus may reorder."""

# -- what the words of a question match (rulebot.search.query) ---------------

SYNONYM_WEIGHT = {"en": 0.6, "fr": 0.85}
"""An alternative from the game vocabulary counts less than the word typed, so that a synonym's match never
outweighs the word's own; in a French question, where most alternatives are the English words of the rules
(translations, not other words), a little less only."""
CORRECTION_WEIGHT = 0.7
"""A close spelling of an unknown word counts less than a word found as typed."""
PROXIMITY_WEIGHT = 0.5
"""Two adjacent words of the question found close together in a title or a text add this share of their scores."""
PROXIMITY_SLOP = {"body": 2, "title": 1}
"""Where the proximity bonus is looked for, and how many words apart the two may be there."""

PLACEHOLDERS = ("n", "x", "cost")
"""How rules write the value a card gives a term ("Crew N", "Retaliate X", "Ward [cost]"): a number after a term may
match the term and one of these (not these alone: "x" is also the X of a name such as X-Wing; see
question.make_units)."""
MAX_VALUED_TERMS = 4
"""A number after a term may match at most this many wordings of the term (as typed, then its synonyms)."""

# -- what some features are made of (rulebot.search.signals, rulebot.search.features)

UNCOVERED_SHARE = 0.2
"""An entry matching none of the question's units keeps this share of its words' score; one matching them all
keeps all of it; in between, it keeps more by the square of the share it matches."""
EXACT_NAME = 3.0
"""The lift of an entry whose title or alias is the whole question: it answers for sure."""
NAMED_LIFT = (1.3, 2.0)
"""The lift of an entry whose title or alias only part of the question names: from the first toward the
second by the share of the question's units the name covers."""
MIN_NAME_LETTERS = 3
"""A name of fewer letters (its stems') lifts nothing: "a", "ok" are named by chance."""
SYNONYM_NAME_SHARE = {"en": 0.5, "fr": 1.0}
"""A name's words the question reaches only through synonyms lift an entry by this share of what saying them would."""
NAME_TYPO_LETTERS = (7, 12)
"""A game's name (or alias) of at least the first many letters is still read in a question with one typo ("molthr",
"res arcna"), of at least the second with two; a shorter one only as written: "dune" is one edit from "done"."""
VOCABULARY_TYPO_LETTERS = 5
"""A question's word of at least this many letters that no entry has, one edit from a word of the games' vocabulary
("tiebraker", "taped"), is read as that word: its synonyms are searched too. The vocabulary is where the words live
that a rulebook does not use ("tiebreaker" for a "tie-break"), so the close spellings of the corpus's own terms
cannot find them."""
MAX_GAME_TERMS = 3
"""When no game is named, a game's own terms in the question count up to this many (the game_terms feature)."""

# -- the answer (rulebot.search.answer) --------------------------------------

MAX_PARTS = 3
"""An answer shows up to this many entries in full."""
PART_SHARE = 0.4
"""An entry linked to the answer's first ones completes it when it scores at least this share of the best."""
CLOSE_SHARE = 0.85
"""An entry scoring at least this share of the best is shown in full beside it."""
AMBIGUOUS_SHARE = 0.8
"""Another game's best entry scoring at least this share of the best answer is answered too."""
GENERIC_SHARE = 0.5
"""...this share, when the question uses no game's own terms ("who goes first"): any game may be meant."""
RESPELLED_FROM = 5
""""Did you mean" respells a typo only as a word of the names of the answer's first this many entries: a close
spelling that found none of them ("shot" for "slot") is no reading of the question (rulebot.search.spelling)."""
