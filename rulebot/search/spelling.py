"""Close spellings: of a question's unknown words, from the terms of the index.

A word of a question that no entry has may be a typo: its close spellings
among the names' words and the texts' stems are searched too (counting less),
and offered as "did you mean" when the answer is unsure (Spellings).

Whoosh finds close terms by scanning the terms that share the word's first letter
and measuring each in pure Python, on every look-up: at 10,000 entries that
was four tenths of all answering time. Here each (field, first letter) list
of terms is read once per searcher and measured by RapidFuzz, in C, with the
same distance (optimal string alignment: insertions, deletions,
substitutions and swaps of neighbours, as Whoosh's Damerau-Levenshtein).
"""

from __future__ import annotations

from collections.abc import Collection

from rulebot.index.fields import FRENCH_FIELDS
from rulebot.index.reader import IndexReader
from rulebot.language import analysis
from rulebot.language.analysis import stem
from rulebot.search.constants import MAX_TYPO_WORD, MAX_UNITS
from rulebot.text import fold


def distance(a: str, b: str) -> int:
    """Edits between two words (a swap of neighbours counts one)."""
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b)


def max_edits(word: str) -> int:
    """How many edits a typo of a word may be from it: one up to six letters, two beyond."""
    return 1 if len(word) <= 6 else 2


class Vocabulary:
    """The terms of an index, grouped by field and first letter as they are needed."""

    def __init__(self, reader: IndexReader):
        self.reader = reader
        self._terms: dict[tuple[str, str], list[str]] = {}

    def within(self, field: str, word: str, maxdist: int) -> list[str]:
        """The field's terms at most `maxdist` edits from the word that share its first letter (the word included)."""
        if not word:
            return []
        key = (field, word[0])
        terms = self._terms.get(key)
        if terms is None:
            terms = self._terms[key] = [t.decode("utf-8") for t in self.reader.expand_prefix(field, word[0])]
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        found = process.extract(word, terms, scorer=OSA.distance, score_cutoff=maxdist, limit=None)
        return [term for term, _distance, _index in found]


class Spellings:
    """Close spellings of the words of questions unknown to one index, looked up once per word."""

    def __init__(self, reader: IndexReader):
        self.reader = reader
        self.vocabulary = Vocabulary(reader)
        self._found: dict[str, list[tuple[str, ...]]] = {}
        """Close spellings of unknown words, by word: the same for every question."""

    def of(self, word: str) -> list[tuple[str, ...]]:
        """Close spellings of a word unknown to the corpus, best first; [] for a known word.

        Looked up once per word (cached), and never for a word too long to be
        a typo of anything in the corpus: the look-up cost stays bounded.
        """
        cached = self._found.get(word)
        if cached is not None:
            return cached
        if len(word) > MAX_TYPO_WORD or self._known(word):
            found: list[tuple[str, ...]] = []
        else:
            found = self._corrections(word)
        if len(self._found) > 10_000:
            self._found.clear()
        self._found[word] = found
        return found

    def suggestions(
        self, question: str, language: str, vocabulary: Collection[str], game_words: Collection[str], answered: Collection[str]
    ) -> list[str]:
        """The question as typed, each unknown word of its first MAX_UNITS spelled as the closest word of a name of
        the answer's first entries (`answered`: the words of their names, rulebot.search.constants.RESPELLED_FROM),
        in the case it was typed in: [] when none is. The rest is the player's own: apostrophes, punctuation.

        What is offered is shown to a player, so it is held to more than what is searched: a word is only
        respelled as a word of an entry's name (a stem of the texts, "three" for "throwing", reads as nonsense),
        and never when the question's language knows it: a French question's words that the French texts use
        or that French leaves out as stop words ("commence", "meme" are no typos of "common", "mere"), a word
        of the games' vocabulary (`vocabulary`: the stems of its phrases for questions in that language) and a
        word of a game's or an expansion's name (`game_words`: "molthar" is no "mother")."""
        corrections: dict[str, str] = {}
        # (the first MAX_UNITS words that are no filler, as the search reads no further)
        content = [word for word in analysis.words(question) if word not in analysis.QUESTION_FILLER][:MAX_UNITS]
        for word in content:
            if word in corrections or word in game_words or self._said(word, language, vocabulary):
                continue
            options = [option for option in self.named(word) if option in answered]
            if options:
                corrections[word] = options[0]
        if not corrections:
            return []
        return [analysis.WORD_RE.sub(lambda typed: _as_typed(typed[0], corrections.get(fold(typed[0]))), question)]

    def _said(self, word: str, language: str, vocabulary: Collection[str]) -> bool:
        """Whether a word of a question is one its language or the games' vocabulary knows (see `suggestions`)."""
        if word in analysis.QUESTION_FILLER or word in analysis.EXPANSION_WORDS:
            return True
        if stem(word) in vocabulary:
            return True
        if language != "fr":
            return False
        return word in analysis.folded_french_stop_words() or in_french_texts(self.reader, word)

    def named(self, word: str) -> list[str]:
        """The words of names close to a word unknown to the corpus, closest and most frequent first; [] for a
        known word. What "did you mean" offers (`suggestions`); the search also looks among the texts' stems."""
        return self._close_in("names", word, word) if self.of(word) else []

    def _known(self, word: str) -> bool:
        """True when the word is in the corpus vocabulary: a name's word, or a text's (by stem)."""
        return len(word) < 4 or word.isdigit() or in_corpus(self.reader, word)

    def _corrections(self, word: str, limit: int = 3) -> list[tuple[str, ...]]:
        """Close spellings of a word: names' words first, then text stems; closest, then most frequent first."""
        names = self._close_in("names", word, word)
        texts = [w for w in self._close_in("body", stem(word), word) if w not in names]
        return [(w,) for w in (names + texts)[:limit]]

    def _close_in(self, field: str, typed: str, word: str) -> list[str]:
        """A field's terms close to `typed` (the word, or its stem for the texts), `typed` itself left out: the
        closest to the word first, then the most frequent."""
        found = [w for w in self.vocabulary.within(field, typed, max_edits(word)) if w != typed]
        return sorted(found, key=lambda w: (distance(w, word), -self.reader.doc_frequency(field, w), w))


def in_corpus(reader: IndexReader, word: str) -> bool:
    """Whether an entry has a word: in a name as typed, or in an English text by its stem."""
    return bool(reader.doc_frequency("names", word)) or any(reader.doc_frequency("body", term) for term in analysis.terms("english", word))


def in_french_texts(reader: IndexReader, word: str) -> bool:
    """Whether an entry's French texts have a word, by its French stem."""
    return any(reader.doc_frequency(field, term) for term in analysis.terms("french", word) for field in FRENCH_FIELDS)


def _as_typed(typed: str, respelled: str | None) -> str:
    """A word of a question respelled in the case it was typed in (all capitals, a capital first, or none); the
    word as typed when it is not respelled."""
    if respelled is None:
        return typed
    if typed != typed.lower() and typed == typed.upper():
        return respelled.upper()
    if typed[:1] != typed[:1].lower():
        return respelled[:1].upper() + respelled[1:]
    return respelled
