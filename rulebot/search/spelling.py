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

from collections.abc import Sequence

from rulebot.index.reader import IndexReader
from rulebot.language import analysis
from rulebot.language.analysis import stem
from rulebot.search.constants import MAX_TYPO_WORD, MAX_UNITS


def distance(a: str, b: str) -> int:
    """Edits between two words (a swap of neighbours counts one)."""
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b)


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

    def suggestions(self, words: Sequence[str]) -> list[str]:
        """The question with each unknown word (of the first MAX_UNITS) spelled as its closest word: [] when none is
        unknown. A negation is shown as players write it ("doesnt", as analysis.words joins it, as "doesn't")."""
        corrected, changed = [], False
        for word in words[:MAX_UNITS]:
            options = [] if word in analysis.QUESTION_FILLER else self.of(word)
            if options:
                corrected.append(options[0][0])
                changed = True
            else:
                corrected.append(analysis.as_written(word))
        return [" ".join(corrected)] if changed else []

    def _known(self, word: str) -> bool:
        """True when the word is in the corpus vocabulary: a name's word, or a text's (by stem)."""
        if (len(word) < 4) or word.isdigit():
            return True
        if self.reader.doc_frequency("names", word):
            return True
        return any(self.reader.doc_frequency("body", term) for term in analysis.terms("english", word))

    def _corrections(self, word: str, limit: int = 3) -> list[tuple[str, ...]]:
        """Close spellings of a word: names' words first, then text stems; most frequent first."""
        maxdist = 1 if len(word) <= 6 else 2
        found: dict[str, tuple[int, int]] = {}  # candidate: (from text, -frequency)
        for name, typed in (("names", word), ("body", stem(word))):
            for candidate in self.vocabulary.within(name, typed, maxdist):
                if candidate != typed and candidate not in found:
                    found[candidate] = (name == "body", -self.reader.doc_frequency(name, candidate))
        ranked = sorted(found, key=lambda w: (found[w][0], distance(w, word), found[w][1], w))
        return [(w,) for w in ranked[:limit]]
