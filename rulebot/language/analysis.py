"""How text becomes index terms, for the index and for questions alike.

A text is cut into words (WORD_PATTERN), and each word becomes one term, or
none for a stop word, by its field's analysis:

- english: folded (rulebot.text.fold: lower case, accents off), stop words
  dropped, Snowball English stem;
- french: lower-cased, French stop words dropped (they carry accents), then
  folded and given the Snowball French stem (so `egalite` and `égalité` meet);
- names: folded only, for exact and typo-tolerant name matching.

Plain Python and PyStemmer, no Whoosh: answering a question loads no analysis
library. The index's Whoosh schema (rulebot.index.schema) analyses documents with
these same functions, so questions and documents always agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from rulebot.text import fold  # the one way names and questions are compared

if TYPE_CHECKING:
    from typing import Protocol

    class _Stemmer(Protocol):
        """What rulebot uses of a PyStemmer stemmer (which ships no type information)."""

        def stemWord(self, word: str) -> str: ...

WORD_PATTERN = r"[^\W_]+(?:\.[^\W_]+)*"
"""A word: letters and digits, with inner dots kept (rule numbers such as 702.19b).

Whoosh's default tokenizer also keeps `*` (for wildcards), which would index
Markdown emphasis (`**Mentat**`) as a different word: this pattern does not."""
WORD_RE = re.compile(WORD_PATTERN, re.UNICODE)

# Words that carry the grammar of a question rather than its subject. They are
# dropped from questions (not from the index) so that "can I", "what happens
# if", "combien de", "what does X mean", "hey quick question" do not outweigh the terms that matter. Words that tell
# rules apart are kept: "most" (a majority, not a count), "only", "again",
# "before", "after".
QUESTION_FILLER = frozenset(
    """
    a about all also am an and any anyone are as at be been being but by can
    cannot could did do does doing done dont either else ever exactly for from get gets getting
    go goes got had happen happens has have having how i if im in into is isnt it its just
    aint arent cant couldnt didnt doesnt hadnt hasnt havent mustnt neednt shouldnt wasnt werent wont wouldnt
    ll re ve
    hi hello hey thanks thx pls plz lol btw um uh yeah yep nope okay gonna wanna gotta kinda sorta
    hows whos wheres whens whys lets question questions wondering confusing basically actually literally anyway
    u ur ya cuz bc tho thru ive youre theyre theres hes shes youll itll
    stuff guy guys dude dudes somebody anybody anything roughly
    know let many me mean meaning means meant might mine more much must my need needs no not now of off ok on or
    other our out per please really rule rules say says should so some someone something still
    such than that thats the their them then there these they thing things this those though to
    too us use used using was way we were what whats when where whether which while who whom
    whose why will with would yes yet you your
    au aux avec ca ce ces cet cette combien comment d dans de des dire du elle en est et faire fait
    il ils j je l la le les leur lui m ma mais me mes moi mon n ne nous on ou par pas peut
    peux pour pourquoi puis puisje qu quand que quel quelle quelles quels qui quoi s sa se ses
    si signifie son sur t ta te tes toi ton tu un une veut vous y
    """.split()
)

BASE_GAME_ONLY = tuple(
    tuple(phrase.split())
    for phrase in (
        "base game only", "only the base game", "only base game", "just the base game", "just base game",
        "without expansions", "without expansion", "without the expansions", "without the expansion", "without any expansion",
        "no expansions", "no expansion", "jeu de base seul", "jeu de base uniquement", "seulement le jeu de base",
        "sans extensions", "sans extension", "sans l extension", "sans les extensions", "sans aucune extension",
    )
)
"""Phrases (folded words) by which a question says it is about the base game alone, as `--with base` does."""
BASE_GAME = (("base", "game"), ("jeu", "de", "base"))
"""The base game named: "alone" only when the question is about a game (given or named), for "base game" may be
words of a game's own rules (a card type called a base)."""
EXPANSION_WORDS = frozenset({"expansion", "expansions", "extension", "extensions"})
"""A question that names the base game and says these is about what the expansions change, not the base game alone."""

# Words that mark a question as French: its grammar words that English
# questions do not use ("on", "a", "son", "d" as in "I'd" are left out).
FRENCH_MARKERS = frozenset(
    """
    au aux avec ca ce ces cest cet cette combien comment dans des dois doit du elle est estce
    et faut il ils je la le les leur leurs mes moi ne nous ou par pas peut peuvent peux pour
    pourquoi quand que quel quelle quelles quels qui quoi qu ses si sont sur tes tu un une vos
    votre vous
    """.split()
)
STRONG_FRENCH_MARKERS = frozenset("combien comment pourquoi quand quoi peux peut dois doit faut est sont je".split())
"""Alone, one of these says the question is French."""
FRENCH_LETTERS = "éèêàâùûôîçœ"
"""Letters that French writes and English does not: one of them is some evidence that a question is French."""


def french_evidence(text: str) -> int:
    """How strongly a text's grammar words and accents say it is French (2 or more: it is)."""
    evidence = sum(2 if w in STRONG_FRENCH_MARKERS else 1 for w in words(text) if w in FRENCH_MARKERS)
    if any(c in FRENCH_LETTERS for c in text.lower()):
        evidence += 1
    return evidence


# Stop words of the index: Whoosh's default English list, and the French list
# of the Snowball project (as Whoosh ships it), accents as written.
ENGLISH_STOP_WORDS = frozenset(
    """
    a an and are as at be by can for from have if in is it may not of on or tbd that the this
    to us we when will with yet you your
    """.split()
)
FRENCH_STOP_WORDS = frozenset(
    """
    ai aie aient aies ait as au aura aurai auraient aurais aurait auras aurez auriez aurions
    aurons auront aux avaient avais avait avec avez aviez avions avons ayant ayante ayantes
    ayants ayez ayons c ce ces d dans de des du elle en es est et eu eue eues eurent eus eusse
    eussent eusses eussiez eussions eut eux eûmes eût eûtes furent fus fusse fussent fusses
    fussiez fussions fut fûmes fût fûtes il j je l la le leur lui m ma mais me mes moi mon même
    n ne nos notre nous on ont ou par pas pour qu que qui s sa se sera serai seraient serais
    serait seras serez seriez serions serons seront ses soient sois soit sommes son sont soyez
    soyons suis sur t ta te tes toi ton tu un une vos votre vous y à étaient étais était étant
    étante étantes étants étiez étions été étée étées étés êtes
    """.split()
)


@cache
def folded_french_stop_words() -> frozenset[str]:
    """The French stop words as a question's words are compared (folded: "même" as "meme"). Made when first
    needed (an unsure French answer's "did you mean"), not by every command that imports this module."""
    return frozenset(fold(word) for word in FRENCH_STOP_WORDS)


@cache
def _stemmer(language: str) -> _Stemmer:
    # The Snowball stemmers in C (PyStemmer): fast to load, fast to stem, and
    # with a cache of their own.
    import Stemmer

    stemmer: _Stemmer = Stemmer.Stemmer(language)
    return stemmer


def english_term(word: str) -> str | None:
    """The English term of a word: folded and stemmed; None for a stop word."""
    folded = fold(word)
    return None if folded in ENGLISH_STOP_WORDS else _stemmer("english").stemWord(folded)


def french_term(word: str) -> str | None:
    """The French term of a word: stop words by their accents, then folded and stemmed; None for a stop word."""
    lower = word.lower()
    return None if lower in FRENCH_STOP_WORDS else _stemmer("french").stemWord(fold(lower))


def name_term(word: str) -> str:
    """The term of a word in a name: folded, nothing dropped."""
    return fold(word)


ANALYSES: dict[str, Callable[[str], str | None]] = {"english": english_term, "french": french_term, "names": name_term}
"""Each analysis by name (as the schema's fields name theirs): a word's term, or None."""


ACCENTED_FILLER = frozenset("à ça où là".split())
"""Question filler written with an accent: every other word whose accent folding takes away is a word of its own
("dés", dice, is no "des")."""


def only_question_words(text: str) -> bool:
    """Whether every word of a text, as written, is question filler (QUESTION_FILLER, ACCENTED_FILLER): "what",
    "combien ?", "can i"; not "combien de dés ?", whose "dés" folds to the filler "des"."""
    found = _negations_joined([word.lower() for word in split(text)])
    return bool(found) and all(fold(word) in QUESTION_FILLER and (word.isascii() or word in ACCENTED_FILLER) for word in found)


def split(text: str) -> list[str]:
    """The words of a text as written, composed (NFC): an accent typed as a letter of its own stays in its word."""
    return WORD_RE.findall(text if text.isascii() else unicodedata.normalize("NFC", text))


def terms(analysis: str, text: str) -> list[str]:
    """The index terms an analysis makes of a text, in order."""
    term_of = ANALYSES[analysis]
    return [term for word in split(text) if (term := term_of(word)) is not None]


def numbered(made: list[str | None]) -> tuple[list[str], range]:
    """The terms of a text's words (None for a stop word) and their positions, numbered as Whoosh's
    StopFilter renumbers them: the first word kept keeps its place, each later one comes right after."""
    kept = [term for term in made if term is not None]
    if len(kept) == len(made):
        return kept, range(len(kept))
    first = next((place for place, term in enumerate(made) if term is not None), 0)
    return kept, range(first, first + len(kept))


def words(text: str) -> list[str]:
    """The folded words of a text, in order, an English "n't" joined to its verb as players type it without the
    apostrophe ("doesn't" as "doesnt", question filler): "won't" is no "won", and a question's "doesn" is neither
    taken for a typo nor kept from the same words in a name or a question an entry answers."""
    return _negations_joined(WORD_RE.findall(fold(text)))


def _negations_joined(split: list[str]) -> list[str]:
    """Words (lower case) with each "t" after a word an English "n't" follows joined to it ("doesn", "t": "doesnt")."""
    if "t" not in split:
        return split  # (most texts: a question, every name, read on every answer)
    found: list[str] = []
    for word in split:
        if word == "t" and found and found[-1] in NEGATED:
            found[-1] += "t"
        else:
            found.append(word)
    return found


NEGATED = frozenset("ain aren can couldn didn doesn don hadn hasn haven isn mustn needn shouldn wasn weren won wouldn".split())
"""The words an English "n't" follows, as split from it ("doesn" of "doesn't")."""


def find_phrase(words: Sequence[str], phrase: tuple[str, ...]) -> int:
    """Index of the first occurrence of a word sequence in a word list (a list or a tuple), or -1.

    Only where its first word is (found by the sequence's own index(), in C)
    is the rest compared: a question is looked at for every name and term of
    every game."""
    if not phrase:
        return 0
    size, first, at = len(phrase), phrase[0], 0
    while True:
        try:
            at = words.index(first, at)
        except ValueError:
            return -1
        if tuple(words[at:at + size]) == phrase:
            return at
        at += 1


def stem(word: str) -> str:
    """The English stem of a folded word (how names and questions are compared): the index's own stemmer."""
    return _stemmer("english").stemWord(word)


def name_stems(name: str) -> list[str]:
    """The stems of a name's words, without question filler (unless that is all it has)."""
    found = words(name)
    kept = [w for w in found if w not in QUESTION_FILLER] or found
    return [stem(w) for w in kept]


def entry_name_stems(name: str, repeated: bool = False, topics: bool = False) -> list[str]:
    """The stems of an entry's name (name_stems), without the section number a numbered heading opens with
    ("702.21a Ward", "1.2.1 Deck"; "3 Action Phase" in a document of `topics`, see `unnumbered`): that says where the
    rule stands in its document, and no player names a rule by it. Unless the heading is `repeated`: its words after
    the number are an earlier heading's of its document ("702.85b Cascade" after "702.85a Cascade"); the first of
    them introduces the term, and it is the one named."""
    rest = unnumbered(name, topics)
    return name_stems(name if rest is None or repeated else rest)


def unnumbered(name: str, topics: bool = False) -> str | None:
    """A numbered heading's words after its section number ("Ward" of "702.21a Ward"), or None for a name that
    opens with no section number. A number alone opens a title as a section number in a document that numbers its
    `topics` so ("3 Action Phase", "4 Active Player"); elsewhere it is part of a name ("7 Wonders")."""
    found = _SECTION_NUMBER.match(name) or (_TOPIC_NUMBER.match(name) if topics else None)
    return name[found.end():] if found else None


def opens_with_topic_number(name: str) -> bool:
    """Whether a name opens with a number alone before a word, as a rules reference's topic does ("3 Action Phase")."""
    return _TOPIC_NUMBER.match(name) is not None


_SECTION_NUMBER = re.compile(r"\s*(?:\d+(?:\.\d+)+(?:\.?[A-Za-z])?\.?|\d+\.)\s+(?=\S)")
"""A section number of a rules reference opening a heading, with the spaces after it: "702.21a ", "1.2.3. ",
"7.5.5.A ", "5. "; not a number alone ("7 Wonders") nor one with a letter alone ("5A")."""
_TOPIC_NUMBER = re.compile(r"\s*\d+\s+(?=[^\W\d_])")
"""A number alone opening a title, before a word: "3 " of "3 Action Phase"."""


SynonymTable = dict[tuple[str, ...], tuple[tuple[str, ...], ...]]
"""Each member of each synonym group, by its stems, mapped to every member of its groups, by words."""


def synonym_table(groups: Sequence[Sequence[str]]) -> SynonymTable:
    """Map each member of each synonym group (by stems) to all members (by words)."""
    table: SynonymTable = {}
    for group in groups:
        members = tuple(tuple(words(m)) for m in group if words(m))
        for member in members:
            key = tuple(stem(w) for w in member)
            table[key] = tuple(dict.fromkeys(table.get(key, ()) + members))
    return table


def encode_synonyms(table: SynonymTable) -> list[list[Any]]:
    """A synonym table as JSON-ready lists."""
    return [[list(key), [list(m) for m in members]] for key, members in table.items()]


def decode_synonyms(encoded: list[list[Any]]) -> SynonymTable:
    """The table encode_synonyms() wrote."""
    return {tuple(key): tuple(tuple(m) for m in members) for key, members in encoded}
