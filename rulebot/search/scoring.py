"""BM25F scores of a question's clauses, summed term at a time.

Whoosh scores a query by walking a tree of matchers one document at a time.
For rulebot's wide disjunctions (every unit of a question, in each text field,
with its synonyms and close spellings) that walk costs far more than reading
the postings, and Whoosh's DisjunctionMax gives a document that only some
alternatives match the score another document has (its max() reads
sub-matchers that sit on other documents).

Here each term's postings are read block by block, as plain numbers
(rulebot.index.reader), and its scores added up in a dict: Whoosh's BM25F
formula and statistics (B 0.75, K1 1.2; field boosts are in the posting
weights) but for a term's idf, of the entries that hold it in the field
analysed alike where it is most frequent rather than of one field's (see
_read_term), the true maximum among a unit's alternatives in a
field, and which units each document matches, at no extra cost. A phrase
is looked for only where all its words are, from their positions, by
Whoosh's rule (each word 1 to `slop` places after the one before), and
scored as the sum of its words, as Whoosh scores it.

When only the best documents are wanted, the terms that can add the most
come first, and a common word is not added up in every document it is in
(MaxScore, term at a time): once the best documents so far score more than
all the terms left could add, no other document can catch up with them, and
the terms left are only looked up in the documents that still can. Every
score is above zero, so a document's sum so far never exceeds its total.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import (
    Callable,
    Collection,
    Container,
    Hashable,
    Iterable,
    Iterator,
)
from math import log
from typing import Any, Generic, NamedTuple, TypeVar

from rulebot.index.fields import ANALYSED_ALIKE, K1, B
from rulebot.index.reader import STORED_LENGTHS, IndexReader

RECENT_BLOCKS = 2_000
"""How many posting blocks (of 128 postings) the searcher keeps unpacked for their positions: ~12 MB at most."""
RECENT_FREQUENCIES = 100_000
"""How many terms' document frequencies (in the fields analysed alike) the searcher keeps: a few MB at most."""
RECENT_POSTINGS = 1_000_000
"""How many term scores (postings) the searcher keeps from recent questions: 12 MB at most.
The commonest words of a large corpus come back in most questions."""


class Clause(NamedTuple):
    """Words to find in one field, weighted."""

    field: str
    words: tuple[str, ...]
    """Analysed terms: one, or a phrase."""
    weight: float = 1.0
    slop: int = 1
    """For a phrase: how far apart its words may be."""
    within: frozenset[int] | None = None
    """Only these documents may match it (a synonym of some games only, in theirs); None: any."""


Unit = list[list[Clause]]
"""What one unit of a question may match: per field, alternatives (the best one counts); fields add up."""


class _Term:
    """A term's scores as read, in the documents that hold it, weighted: no dict is made of them."""

    __slots__ = ("ids", "top", "values", "weight")

    def __init__(self, ids: array[int], values: array[float], top: float, weight: float):
        self.ids, self.values, self.weight = ids, values, weight
        self.top = top * weight
        """The highest of the scores."""

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, docnum: int) -> bool:
        at = bisect_left(self.ids, docnum)  # docnums are in order
        return at < len(self.ids) and self.ids[at] == docnum

    def items(self) -> Iterable[tuple[int, float]]:
        return zip(self.ids, self.values if self.weight == 1.0 else map(self.weight.__mul__, self.values))


Part = dict[int, float] | _Term
"""The scores one field of a unit gives the documents it matches."""


class Scores(NamedTuple):
    """The documents some clause of a question matches, with their scores."""

    totals: dict[int, float]
    by_unit: list[list[Part]]
    """Per unit of the question, per field: the scores of the documents it matches there."""

    def units_matched(self, docnum: int) -> int:
        """How many of the question's units a document matches."""
        return sum(1 for fields in self.by_unit if any(docnum in scores for scores in fields))

    def units_absent(self, eligible: Container[int] | None) -> list[int]:
        """The places of the question's units that match no document (of the eligible ones, when given)."""
        return [at for at, fields in enumerate(self.by_unit) if not any(_holds_any(part, eligible) for part in fields)]


def _holds_any(part: Part, eligible: Container[int] | None) -> bool:
    """Whether a unit's field matches a document (an eligible one, when given)."""
    docnums = part.ids if isinstance(part, _Term) else part
    return any(True for _ in docnums) if eligible is None else any(d in eligible for d in docnums)


class BM25F:
    """Scores clauses over a built index (all its segments)."""

    def __init__(self, reader: IndexReader):
        self.reader = reader
        self._recent = _Recent(RECENT_POSTINGS, _cost)
        """The scores of terms and phrases met lately: the same words come back question after question."""
        self._recent_blocks: _Recent[Any] = _Recent(RECENT_BLOCKS)
        self._frequencies: _Recent[int] = _Recent(RECENT_FREQUENCIES)
        """Each term's frequency where it is highest among the fields analysed alike: the same for each of them, and a
        question's words are read in several."""
        """Posting blocks unpacked lately for their positions."""

    def score(self, units: Iterable[Unit], best: int | None = None, eligible: Container[int] | None = None) -> Scores:
        """Every document any clause matches, with its score: the sum over units of each field's best alternative.

        With `best`, documents that cannot be among the `best` highest scores (of the `eligible` ones, when
        given) may be left out of the totals: every one that can is there, however many tie, with the same total."""
        found: list[list[Part]] = []
        for unit in units:
            fields: list[Part] = []
            for alternatives in unit:
                if len(alternatives) == 1 and len(alternatives[0].words) == 1 and alternatives[0].within is None:
                    clause = alternatives[0]
                    fields.append(_Term(*self._term(clause.field, clause.words[0]), clause.weight))
                    continue
                scores = sorted((self._scoped_scores(clause) for clause in alternatives), key=len, reverse=True)
                highest = scores[0]
                for other in scores[1:]:
                    for docnum, value in other.items():
                        if value > highest.get(docnum, 0.0):
                            highest[docnum] = value
                fields.append(highest)
            found.append(fields)
        return Scores(_totals([part for fields in found for part in fields if part], best, eligible), found)

    def _scoped_scores(self, clause: Clause) -> dict[int, float]:
        """A clause's scores in the documents it may match (see Clause.within)."""
        scores = self.clause_scores(clause)
        if clause.within is None:
            return scores
        return {docnum: value for docnum, value in scores.items() if docnum in clause.within}

    def clause_scores(self, clause: Clause, among: set[int] | None = None) -> dict[int, float]:
        """BM25F score of one clause in each document it matches (of those `among`, when given): a new dict."""
        if len(clause.words) > 1:
            if among is None:  # a synonym's phrase: the same ones come back question after question
                ids, values, _top = self._kept((clause.field, clause.words, clause.slop), lambda: _arrays(self._phrase_scores(clause, None)))
                scores = dict(zip(ids, values))
            else:
                scores = self._phrase_scores(clause, among)
            if clause.weight != 1.0:
                return {docnum: value * clause.weight for docnum, value in scores.items()}
            return scores
        if among is not None:
            scores = self._term_among(clause.field, clause.words[0], among)
            if clause.weight != 1.0:
                return {docnum: value * clause.weight for docnum, value in scores.items()}
            return scores
        ids, values, _top = self._term(clause.field, clause.words[0])
        if clause.weight != 1.0:
            return dict(zip(ids, map(clause.weight.__mul__, values)))
        return dict(zip(ids, values))

    def term_scores(self, field: str, text: str) -> dict[int, float]:
        """BM25F score of a term in each document whose field holds it."""
        ids, values, _top = self._term(field, text)
        return dict(zip(ids, values))

    def _term_among(self, field: str, text: str, among: set[int]) -> dict[int, float]:
        """BM25F score of a term in those of the given documents whose field holds it."""
        ids, values, _top = self._term(field, text)
        if len(among) * 16 > len(ids):
            return {docnum: value for docnum, value in zip(ids, values) if docnum in among}
        return dict(_looked_up(ids, values, among))

    def _term(self, field: str, text: str) -> Kept:
        """The documents whose field holds a term, the term's BM25F score in each, and the highest."""
        return self._kept((field, text), lambda: self._read_term(field, text))

    def _kept(self, key: tuple[Hashable, ...], make: Callable[[], Kept]) -> Kept:
        """The scores of a term or phrase, made or as kept from a recent question.

        Kept as two arrays, 12 bytes a posting (a dict takes ~90), and the
        highest score: a dict is made from them at C speed, far faster than
        reading the postings again."""
        return self._recent.get(key, make)

    def _read_term(self, field: str, text: str) -> Kept:
        docnums, scores = array("I"), array("d")
        postings = self.reader.postings(field, text)
        if not postings:
            return docnums, scores, 0.0
        # A term is as rare in a field as in the entries' texts of its analysis, where it is most frequent: a
        # word common in texts ("card") is no rarer for being in few titles (Whoosh's idf, of the term's
        # entries rather than of the field's).
        alike = ANALYSED_ALIKE[field]
        frequency = self._frequencies.get((alike, text), lambda: max(self.reader.doc_frequency(other, text) for other in alike))
        idf = log(self.reader.doc_count_all() / (frequency + 1)) + 1
        average = self.reader.avg_field_length(field) or 1
        k_fixed, k_length = K1 * (1 - B), K1 * B / average
        by_code = [k_fixed + k_length * length for length in STORED_LENGTHS]
        """The length part of the formula, for each length the index keeps."""
        codes = self.reader.length_codes(field)
        scale = idf * (K1 + 1)
        for block in postings.blocks():
            docnums.extend(block.docnums)
            scores.extend([scale * tf / (tf + by_code[codes[d]]) for d, tf in zip(block.docnums, block.weights)])
        return docnums, scores, max(scores, default=0.0)

    def docs(self, field: str, text: str) -> set[int]:
        """The documents whose field holds a term (for filters)."""
        return self.reader.postings(field, text).docnums()

    def _phrase_scores(self, clause: Clause, among: set[int] | None) -> dict[int, float]:
        if among is None:
            words = [self.term_scores(clause.field, word) for word in clause.words]
        else:
            words = [self._term_among(clause.field, word, among) for word in clause.words]
        candidates = set(words[0] if among is None else among).intersection(*words)
        if not candidates:
            return {}
        positions = [self._positions(clause.field, word, candidates) for word in clause.words]
        return {
            docnum: sum(w[docnum] for w in words)
            for docnum in candidates
            if _in_order([p[docnum] for p in positions], clause.slop)
        }

    def _positions(self, field: str, text: str, wanted: set[int]) -> dict[int, list[int]]:
        """Where a term occurs in a field of each wanted document: from posting blocks unpacked or as kept
        from a recent question (the blocks of common words come back)."""
        return self.reader.postings(field, text).positions(wanted, self._recent_blocks)

    def stored_length(self, docnum: int, field: str) -> int:
        """The length of a document's field as the index keeps it (an approximation, as BM25F reads it)."""
        return self.reader.field_length(docnum, field)


_V = TypeVar("_V")


class _Recent(Generic[_V]):
    """Values made lately, by key, least recently used first: kept up to a total cost (the latest one always)."""

    __slots__ = ("_cost", "_kept", "_limit", "spent")

    def __init__(self, limit: int, cost: Callable[[_V], int] = lambda _value: 1):
        self._kept: OrderedDict[Hashable, _V] = OrderedDict()
        self._limit, self._cost, self.spent = limit, cost, 0

    def __len__(self) -> int:
        return len(self._kept)

    def values(self) -> Iterable[_V]:
        return self._kept.values()

    def get(self, key: Hashable, make: Callable[[], _V]) -> _V:
        """The value kept for a key, else made (and kept, the least recent ones dropped to make room)."""
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        kept = self._kept[key] = make()
        self.spent += self._cost(kept)
        while self.spent > self._limit and len(self._kept) > 1:
            _, dropped = self._kept.popitem(last=False)
            self.spent -= self._cost(dropped)
        return kept


Kept = tuple["array[int]", "array[float]", float]
"""The scores of a term or phrase as kept: the documents in order, the score in each, the highest score."""


def _cost(kept: Kept) -> int:
    """What a kept term or phrase counts against RECENT_POSTINGS: its postings, and one for the entry itself
    (the words that match nothing come back too)."""
    return len(kept[0]) + 1


def _arrays(scores: dict[int, float]) -> Kept:
    """Scores as terms are kept."""
    ordered = sorted(scores)
    return array("I", ordered), array("d", map(scores.__getitem__, ordered)), max(scores.values(), default=0.0)


def _totals(parts: list[Part], best: int | None, eligible: Container[int] | None) -> dict[int, float]:
    """The sums of the parts' scores (see BM25F.score): the parts that can add the most first, each added in
    full until no document left out can reach the best; then only looked up in the documents that can.

    Each document's scores are added in the same order, the parts' order, whether in full or looked up: its
    total is the same to the last bit either way, so ties stay ties."""
    tops = [part.top if isinstance(part, _Term) else max(part.values()) for part in parts]
    order = sorted(range(len(parts)), key=tops.__getitem__, reverse=True)
    left = sum(tops)
    """What the parts left can add to a document, at most."""
    ceiling = 0.0
    """What the best-th highest sum so far can be, at most: it grows by a part's top at most."""
    totals: dict[int, float] = {}
    for at, number in enumerate(order):
        if best is not None and ceiling > left and len(totals) >= best:
            # The best-th highest sum so far of an eligible document: the best totals are at least this.
            cut = _kth_highest(totals.values() if eligible is None else [v for d, v in totals.items() if d in eligible], best)
            if cut > left:
                return _look_up(totals, [parts[n] for n in order[at:]], [tops[n] for n in order[at:]], best, cut, eligible)
            ceiling = cut
        part = parts[number]
        if not totals:
            totals = dict(part) if isinstance(part, dict) else dict(part.items())
        else:
            total = totals.get
            for docnum, value in part.items():
                totals[docnum] = total(docnum, 0.0) + value
        ceiling += tops[number]
        left -= tops[number]
    return totals


def _look_up(sums: dict[int, float], parts: list[Part], tops: list[float], best: int, cut: float, eligible: Container[int] | None) -> dict[int, float]:
    """The totals of the documents that may be among the best, from their sums so far: the parts left
    (highest top first) are looked up in those documents only, and fewer remain as the parts left can add less."""
    left = sum(tops)
    for number, (part, top) in enumerate(zip(parts, tops)):
        if number == 0 or len(sums) > 4 * best:  # many sums: the cut may be higher, and fewer can reach it
            if number:
                cut = max(cut, _kth_highest(sums.values(), best))
            # Rounding may make a total a little more than its sum so far and
            # what is left: one that ties the cut is kept, and a little more.
            reach = cut - left - 1e-9 * cut
            sums = {d: v for d, v in sums.items() if v >= reach and (eligible is None or d in eligible)}
            eligible = None  # every one kept is
        _add_found(sums, part)
        left -= top
    return sums


def _add_found(sums: dict[int, float], part: Part) -> None:
    """Add a part's scores to the sums of the documents it matches (no document is added to the sums)."""
    if isinstance(part, dict) and len(sums) < len(part):
        for docnum in sums:
            value = part.get(docnum)
            if value is not None:
                sums[docnum] += value
    elif isinstance(part, _Term) and len(sums) * 16 < len(part):
        weight = part.weight
        for docnum, value in _looked_up(part.ids, part.values, sums):
            sums[docnum] += value if weight == 1.0 else weight * value
    else:
        for docnum, value in part.items():
            if docnum in sums:
                sums[docnum] += value


def _looked_up(ids: array[int], values: array[float], wanted: Iterable[int]) -> Iterator[tuple[int, float]]:
    """(docnum, score) of each wanted document a term's postings hold: for a few documents among many
    postings, looked up one by one (docnums are in order) rather than read through."""
    size = len(ids)
    for docnum in wanted:
        at = bisect_left(ids, docnum)
        if at < size and ids[at] == docnum:
            yield docnum, values[at]


def _kth_highest(values: Collection[float], k: int) -> float:
    """The k-th highest of the values; 0 when there are fewer."""
    return heapq.nlargest(k, values)[-1] if len(values) >= k else 0.0


def _in_order(positions: list[list[int]], slop: int) -> bool:
    """True when the words occur in order, each 1 to `slop` positions after the one before (Whoosh's phrase rule)."""
    reached = set(positions[0])
    for following in positions[1:]:
        reached = {q for q in following if any(1 <= q - p <= slop for p in reached)}
        if not reached:
            return False
    return True
