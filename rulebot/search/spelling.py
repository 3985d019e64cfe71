"""Close spellings of a word among the terms of an index field.

Whoosh finds them by scanning the terms that share the word's first letter
and measuring each in pure Python, on every look-up: at 10,000 entries that
was four tenths of all answering time. Here each (field, first letter) list
of terms is read once per searcher and measured by RapidFuzz, in C, with the
same distance (optimal string alignment: insertions, deletions,
substitutions and swaps of neighbours, as Whoosh's Damerau-Levenshtein).
"""

from __future__ import annotations


def distance(a: str, b: str) -> int:
    """Edits between two words (a swap of neighbours counts one)."""
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b)


class Vocabulary:
    """The terms of an index, grouped by field and first letter as they are needed."""

    def __init__(self, reader):
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
