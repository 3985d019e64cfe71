"""How text becomes index terms, for the index and for questions alike.

English text is stemmed; French names get a French stemmer with accents folded
after the stop filter and before stemming (so `egalite` and `égalité` meet);
names are only lower-cased and folded, for exact and typo-tolerant matching.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from rulebot.text import fold  # the one way names and questions are compared
from rulebot.whoosh_api import (
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    accent_map,
)

WORD_PATTERN = r"[^\W_]+(?:\.[^\W_]+)*"
"""A word: letters and digits, with inner dots kept (rule numbers such as 702.19b).

Whoosh's default tokenizer also keeps `*` (for wildcards), which would index
Markdown emphasis (`**Mentat**`) as a different word: this pattern does not."""
WORD_RE = re.compile(WORD_PATTERN, re.UNICODE)

# Words that carry the grammar of a question rather than its subject. They are
# dropped from questions (not from the index) so that "can I", "what happens
# if", "combien de" do not outweigh the terms that matter.
QUESTION_FILLER = frozenset(
    """
    a about after again all also am an and any anyone are as at be been before being but by can
    cannot could did do does doing done dont either else ever exactly for from get gets getting
    go goes got had happen happens has have having how i if im in into is isnt it its just
    know let many me might mine more most much must my need needs no not now of off ok on only or
    other our out per please really rule rules say says should so some someone something still
    such than that thats the their them then there these they thing things this those though to
    too us use used using was way we were what whats when where whether which while who whom
    whose why will with would yes yet you your
    au aux avec ca ce ces cet cette combien comment d dans de des du elle en est et faire fait
    il ils j je l la le les leur lui m ma mais me mes moi mon n ne nous on ou par pas peut
    peux pour pourquoi puis puisje qu quand que quel quelle quelles quels qui quoi s sa se ses
    si son sur t ta te tes toi ton tu un une vous y
    """.split()
)

# Numbers are game facts ("5 cards", "13 points"): keep one-character tokens.
_MINSIZE = 1


# The Snowball stemmers come from PyStemmer, in C: Whoosh's own are pure
# Python, about fifty times slower to stem, and their package loads all
# fourteen languages (~50 ms) when one is asked for. The functions below are
# what the index's schema refers to, by name, for its stem filters.


@cache
def _stemmer(language: str):
    import Stemmer

    return Stemmer.Stemmer(language)


def snowball_english(word: str) -> str:
    """The Snowball (Porter 2) English stem of a word."""
    return _stemmer("english").stemWord(word)


def snowball_french(word: str) -> str:
    """The Snowball French stem of a word."""
    return _stemmer("french").stemWord(word)


@cache
def english() -> Analyzer:
    """Stemmed English with folded accents and the usual stop words."""
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | CharsetFilter(accent_map)
        | StopFilter(minsize=_MINSIZE)
        # PyStemmer keeps its own cache; Whoosh's would only add overhead.
        | StemFilter(stemfn=snowball_english, cachesize=None)
    )


@cache
def french() -> Analyzer:
    """Stemmed French; accents are folded after the stop filter and before the stemmer."""
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | StopFilter(lang="fr", minsize=_MINSIZE)
        | CharsetFilter(accent_map)
        | StemFilter(stemfn=snowball_french, cachesize=None)
    )


@cache
def names() -> Analyzer:
    """Lower-cased, accent-folded words, neither stemmed nor stopped: for names."""
    return RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | CharsetFilter(accent_map)


def words(text: str) -> list[str]:
    """The folded words of a text, in order."""
    return WORD_RE.findall(fold(text))


def terms(analyzer: Analyzer, text: str) -> list[str]:
    """The index terms an analyzer makes of a text."""
    return [token.text for token in analyzer(text)]


@lru_cache(maxsize=8192)  # the same words recur in every question; Porter is pure Python
def stem(word: str) -> str:
    """The English stem of a folded word (how names and questions are compared)."""
    from whoosh.lang.porter import stem as porter

    return porter(word)


def name_stems(name: str) -> list[str]:
    """The stems of a name's words, without question filler (unless that is all it has)."""
    found = words(name)
    kept = [w for w in found if w not in QUESTION_FILLER] or found
    return [stem(w) for w in kept]


SynonymTable = dict[tuple[str, ...], tuple[tuple[str, ...], ...]]
"""Each member of each synonym group, by its stems, mapped to every member of its groups, by words."""


def synonym_table(groups: list[list[str]] | tuple[tuple[str, ...], ...]) -> SynonymTable:
    """Map each member of each synonym group (by stems) to all members (by words)."""
    table: SynonymTable = {}
    for group in groups:
        members = tuple(tuple(words(m)) for m in group if words(m))
        for member in members:
            key = tuple(stem(w) for w in member)
            table[key] = tuple(dict.fromkeys(table.get(key, ()) + members))
    return table


def encode_synonyms(table: SynonymTable) -> list:
    """A synonym table as JSON-ready lists."""
    return [[list(key), [list(m) for m in members]] for key, members in table.items()]


def decode_synonyms(encoded: list) -> SynonymTable:
    """The table encode_synonyms() wrote."""
    return {tuple(key): tuple(tuple(m) for m in members) for key, members in encoded}
