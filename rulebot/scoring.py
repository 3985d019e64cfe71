"""BM25F scores of a question's clauses, summed term at a time.

Whoosh scores a query by walking a tree of matchers one document at a time.
For rulebot's wide disjunctions (every unit of a question, in five fields,
with its synonyms and close spellings) that walk costs far more than reading
the postings, and Whoosh's DisjunctionMax gives a document that only some
alternatives match the score another document has (its max() reads
sub-matchers that sit on other documents).

Here each term's postings are read block by block and its scores added up
in a dict: the same BM25F formula and statistics as Whoosh's (B 0.75,
K1 1.2; field boosts are in the posting weights), the true maximum among a
unit's alternatives in a field, and which units each document matches, at
no extra cost. A phrase is looked for only where all its words are, from
their positions, by Whoosh's rule (each word 1 to `slop` places after the one
before), and scored as the sum of its words, as Whoosh scores it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from math import log

from rulebot.whoosh_api import LENGTHS_COLUMN, Searcher, TermNotFound, byte_to_length, length_field

B = 0.75
K1 = 1.2
RECENT_POSTINGS = 200_000
"""How many term scores (postings) the searcher keeps from recent questions: a few MB at most."""
_LENGTH = [byte_to_length(b) for b in range(256)]
"""Whoosh stores a field's length in a byte; this decodes it."""


@dataclass(frozen=True)
class Clause:
    """Words to find in one field, weighted."""

    field: str
    words: tuple[str, ...]
    """Analysed terms: one, or a phrase."""
    weight: float = 1.0
    slop: int = 1
    """For a phrase: how far apart its words may be."""


Unit = list[list[Clause]]
"""What one unit of a question may match: per field, alternatives (the best one counts); fields add up."""


class BM25F:
    """Scores clauses over one Whoosh searcher (all its segments)."""

    def __init__(self, searcher: Searcher):
        self.searcher = searcher
        self.leaves = [(leaf, leaf.reader(), offset) for leaf, offset in searcher.leaf_searchers()]
        self._lengths: dict[tuple[int, str], bytes | None] = {}
        self._recent: OrderedDict[tuple[str, str], dict[int, float]] = OrderedDict()
        """The scores of terms met lately, least recent first: the same words come back question after question."""
        self._recent_postings = 0

    def score(self, units: Iterable[Unit]) -> tuple[dict[int, float], dict[int, int]]:
        """Every document any clause matches: its score (the sum over units of each
        field's best alternative), and which units it matches (bit i: unit i)."""
        totals: dict[int, float] = {}
        matched: dict[int, int] = {}
        for number, unit in enumerate(units):
            bit = 1 << number
            for alternatives in unit:
                if len(alternatives) == 1:
                    best = self.clause_scores(alternatives[0])
                else:
                    best = {}
                    for clause in alternatives:
                        for docnum, value in self.clause_scores(clause).items():
                            if value > best.get(docnum, 0.0):
                                best[docnum] = value
                total = totals.get
                for docnum, value in best.items():
                    totals[docnum] = total(docnum, 0.0) + value
                units_of = matched.get
                for docnum in best:
                    matched[docnum] = units_of(docnum, 0) | bit
        return totals, matched

    def clause_scores(self, clause: Clause, among: set[int] | None = None) -> dict[int, float]:
        """BM25F score of one clause in each document it matches (of those `among`, when given)."""
        if len(clause.words) == 1:
            scores = self.term_scores(clause.field, clause.words[0])
            if among is not None:
                scores = {docnum: value for docnum, value in scores.items() if docnum in among}
        else:
            scores = self._phrase_scores(clause, among)
        if clause.weight != 1.0:
            return {docnum: value * clause.weight for docnum, value in scores.items()}
        return scores

    def term_scores(self, field: str, text: str) -> dict[int, float]:
        """BM25F score of a term in each document whose field holds it (do not change the dict)."""
        key = (field, text)
        scores = self._recent.get(key)
        if scores is not None:
            self._recent.move_to_end(key)
            return scores
        scores = self._read_term(field, text)
        self._recent[key] = scores
        self._recent_postings += len(scores)
        while self._recent_postings > RECENT_POSTINGS and len(self._recent) > 1:
            _, dropped = self._recent.popitem(last=False)
            self._recent_postings -= len(dropped)
        return scores

    def _read_term(self, field: str, text: str) -> dict[int, float]:
        scores: dict[int, float] = {}
        found = self._term_infos(field, text)
        if not found:
            return scores
        frequency = sum(info.doc_frequency() for _, info in found)
        idf = log(self.searcher.doc_count_all() / (frequency + 1)) + 1  # Whoosh's idf
        average = self.searcher.avg_field_length(field) or 1
        k_fixed, k_length = K1 * (1 - B), K1 * B / average
        for number, info in found:
            _leaf, reader, offset = self.leaves[number]
            lengths = self._field_lengths(number, reader, field)
            for docnum, tf in _postings(reader, field, text, info):
                length = _LENGTH[lengths[docnum]] if lengths is not None else reader.doc_field_length(docnum, field, 1)
                scores[offset + docnum] = idf * tf * (K1 + 1) / (tf + k_fixed + k_length * length)
        return scores

    def _term_infos(self, field: str, text: str) -> list[tuple[int, object]]:
        """(segment number, Whoosh term info) of each segment that has the term: one look-up each."""
        found = []
        for number, (_leaf, reader, _offset) in enumerate(self.leaves):
            try:
                found.append((number, reader.term_info(field, text)))
            except TermNotFound:
                continue
        return found

    def docs(self, field: str, text: str) -> set[int]:
        """The documents whose field holds a term (for filters)."""
        found: set[int] = set()
        for number, info in self._term_infos(field, text):
            _leaf, reader, offset = self.leaves[number]
            found.update(offset + docnum for docnum, _ in _postings(reader, field, text, info))
        return found

    def _phrase_scores(self, clause: Clause, among: set[int] | None) -> dict[int, float]:
        words = [self.term_scores(clause.field, word) for word in clause.words]
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
        """Where a term occurs in a field of each wanted document."""
        decode = self.searcher.schema[field].format.decode_positions
        found: dict[int, list[int]] = {}
        for number, info in self._term_infos(field, text):
            _leaf, reader, offset = self.leaves[number]
            local = {d - offset for d in wanted}
            for docnum, value in _values(reader, field, text, info, local):
                found[offset + docnum] = decode(value)
        return found

    def _field_lengths(self, number: int, reader, field: str) -> bytes | None:
        """A segment's encoded lengths of a field, one byte per document (None: ask Whoosh per document)."""
        key = (number, field)
        if key not in self._lengths:
            self._lengths[key] = _length_bytes(reader, field)
        return self._lengths[key]


def _block_matcher(reader, field: str, text: str, info):
    """Whoosh 3's block postings of a term, straight from the term info already
    looked up (reader.postings() would look the term up again); None where the
    postings are not in blocks (a lone posting kept in the term table)."""
    try:
        terms = reader._terms
        matcher = terms._codec.postings_reader(terms._postfile, info, reader.schema[field].format, term=(field, text))
    except AttributeError:
        return None
    return matcher if hasattr(matcher, "_read_values") else None


def _one_by_one(reader, field: str, text: str) -> Iterable:
    """The postings matcher of a term that leaves deleted documents out, stepped through."""
    matcher = reader.postings(field, text)
    while matcher.is_active():
        yield matcher
        matcher.next()


def _postings(reader, field: str, text: str, info) -> Iterable[tuple[int, float]]:
    """(docnum, weight) of each posting of a term in a segment, without deleted documents."""
    matcher = _block_matcher(reader, field, text, info)
    if matcher is None:
        yield from ((m.id(), m.weight()) for m in _one_by_one(reader, field, text))
        return
    # Blocks of ids and weights read whole: several times faster than
    # stepping through the matcher.
    deleted = reader.deleted_docs_set if reader.has_deletions() else frozenset()
    while matcher.is_active():
        matcher._read_ids()
        matcher._read_weights()
        if deleted:
            yield from ((d, w) for d, w in zip(matcher._ids, matcher._weights) if d not in deleted)
        else:
            yield from zip(matcher._ids, matcher._weights)
        matcher._next_block()


def _values(reader, field: str, text: str, info, wanted: set[int]) -> Iterable[tuple[int, bytes]]:
    """(docnum, encoded positions) of the postings of a term in the wanted documents of a segment."""
    matcher = _block_matcher(reader, field, text, info)
    if matcher is None:
        yield from ((m.id(), m.value()) for m in _one_by_one(reader, field, text) if m.id() in wanted)
        return
    # Only the blocks that hold a wanted document are decoded (the callers
    # never ask for a deleted one).
    while matcher.is_active():
        matcher._read_ids()
        ids = matcher._ids
        if not wanted.isdisjoint(ids):
            matcher._read_values()
            values = matcher._values
            yield from ((d, values[i]) for i, d in enumerate(ids) if d in wanted)
        matcher._next_block()


def _in_order(positions: list[list[int]], slop: int) -> bool:
    """True when the words occur in order, each 1 to `slop` positions after the one before (Whoosh's phrase rule)."""
    reached = set(positions[0])
    for following in positions[1:]:
        reached = {q for q in following if any(1 <= q - p <= slop for p in reached)}
        if not reached:
            return False
    return True


def _length_bytes(reader, field: str) -> bytes | None:
    """The raw length column of a field in a segment, or None if it cannot be read whole."""
    try:
        column = reader._perdoc._cached_reader(length_field(field), LENGTHS_COLUMN)
    except AttributeError:
        return None
    if column is None:
        return None
    try:
        raw = column._dbfile.get(column._basepos, column._count)
    except AttributeError:
        return None
    return bytes(raw) + bytes(max(0, reader.doc_count_all() - len(raw)))
