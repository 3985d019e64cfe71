"""Whoosh's index files, as rulebot writes them: a segment, several times faster than Whoosh's writer.

rulebot.index.whoosh_format reads these files and holds their layout (the
field-length bytes, the posting blocks' tag); this module writes a segment
with the pinned Whoosh's own codec objects, given by rulebot.index.build,
and through some of their private names, as Whoosh's writer fills them in.
It never imports Whoosh either. tests/test_whoosh_format.py checks that
both writers make the same index.
"""

from __future__ import annotations

import pickle
import zlib
from array import array
from collections.abc import Callable, Iterable
from typing import Any

from rulebot.index.whoosh_format import INDEX_NAME, LENGTHS, POSTINGS_MAGIC, length_to_byte

BLOCK_PROTOCOL = 5
"""The pickle protocol of the posting blocks rulebot writes. Whoosh pickles its blocks with protocol 2,
which writes each encoded value (bytes) as a call to _codecs.encode; any protocol reads alike, Whoosh's
reader too, and from protocol 3 on bytes are written as they are: a block is a third smaller, and read
in half the time."""

Terms = Callable[[str], tuple[list[str], "list[int] | range"]]
"""The terms a field's analyzer makes of a value, and their positions, in order."""


def write_segment(storage: Any, codec: Any, fields: Any, documents: Iterable[dict[str, Any]], terms_of: Callable[[object], Terms]) -> Any:
    """Write documents as a new segment of a storage, with a schema's fields, the same as Whoosh's writer would; return the segment.

    Whoosh's writer passes each word through a chain of generators, keeps
    every posting as a tuple to sort (spilling sorted runs to disk past a
    memory limit), then reads each posting's field length back from disk to
    write it: most of a build's time went there. Here each field's analysis
    is `terms_of(field)` (rulebot.index.build analyses each distinct word
    once), postings are gathered by term as documents come (so already in
    order), and each term's postings are written a block at a time with
    Whoosh's codec (`codec`). tests/test_whoosh_format.py checks that both
    writers make the same index.
    """
    segment = codec.new_segment(storage, INDEX_NAME)
    perdoc = codec.per_document_writer(storage, segment)
    analysed = {name: terms_of(spec) for name, spec in fields.items() if spec.indexed}
    postings: dict[tuple[str, str], list[Any]] = {}  # (field, term): [docnum, frequency, encoded positions, docnum, ...]
    lengths: dict[str, list[int]] = {name: [] for name, spec in fields.items() if spec.scorable}  # by document
    lone: dict[str, dict[int, bytes]] = {name: {} for name in lengths}  # the encoding of each lone position, shared
    count = 0
    for docnum, document in enumerate(documents):
        perdoc.start_doc(docnum)
        for name, spec in fields.items():  # in name order, as Whoosh adds them
            value = document.get(name)
            length = 0
            if value is not None and spec.indexed:
                terms, places = analysed[name](value)
                if spec.scorable:
                    length = len(terms)
                    where_each: dict[str, list[int]] = {}
                    for position, term in zip(places, terms):
                        if term in where_each:
                            where_each[term].append(position)
                        else:
                            where_each[term] = [position]
                    for term, where in where_each.items():
                        if len(where) > 1:
                            encoded = spec.format.encode(where)
                        elif (encoded := lone[name].get(where[0])) is None:
                            encoded = lone[name][where[0]] = spec.format.encode(where)
                        if (found := postings.get((name, term))) is None:
                            postings[name, term] = [docnum, len(where), encoded]
                        else:
                            found += (docnum, len(where), encoded)
                else:
                    for term in dict.fromkeys(terms):
                        if (found := postings.get((name, term))) is None:
                            postings[name, term] = [docnum, 1, b""]
                        else:
                            found += (docnum, 1, b"")
            if spec.scorable:
                lengths[name].append(LENGTHS[length_to_byte(length)])  # as Whoosh reads it back
            if value is not None:
                perdoc.add_field(name, spec, value if spec.stored else None, length)
                if spec.column_type is not None:
                    perdoc.add_column_value(name, spec.column_type, spec.to_column_value(value))
        perdoc.finish_doc()
        count += 1
    perdoc.close()
    writer = codec.field_writer(storage, segment)
    current = None
    for name, term in sorted(postings):  # str order is the UTF-8 byte order Whoosh sorts terms in
        if name != current:
            if current is not None:
                writer.finish_field()
            writer.start_field(name, fields[name])
            current, spec, field_lengths = name, fields[name], lengths.get(name)
        writer.start_term(term.encode("utf-8"))
        found = postings[name, term]
        _write_postings(writer, spec.format, found[0::3], found[1::3], found[2::3], field_lengths)
        writer.finish_term()
    if current is not None:
        writer.finish_field()
    writer.close()
    segment.set_doc_count(count)
    segment.create_compound_file(storage)
    segment.compound = True
    return segment


def remove_scratch(storage: Any, index_name: str = INDEX_NAME) -> None:
    """Remove the scratch folder in which Whoosh writes a segment's columns before packing them."""
    storage.temp_storage(f"{index_name}.tmp").destroy()


class _Block:
    """A block of postings, with what Whoosh's term info adds up of each block (its W3TermInfo.add_block)."""

    def __init__(self, ids: list[int], weights: array[float], max_weight: float, sizes: list[int]):
        self.ids, self._weights, self._max_weight = ids, weights, max_weight
        self._min_length = min(sizes, default=None)
        self._max_length = max(sizes, default=0)

    def __len__(self) -> int:
        return len(self.ids)

    def min_id(self) -> int:
        return self.ids[0]

    def max_id(self) -> int:
        return self.ids[-1]

    def min_length(self) -> int | None:
        return self._min_length

    def max_length(self) -> int:
        return self._max_length

    def max_weight(self) -> float:
        return self._max_weight


def _write_postings(writer: Any, format_: Any, docnums: list[int], frequencies: list[int], encoded: list[bytes], lengths: list[int] | None) -> None:
    """Write a term's postings as Whoosh's W3PostingsWriter does (after its start_postings), but a block at a time.

    Its add_posting() checks and files each posting on its own, which was a
    good part of a build's time: here each block is made at once, and
    written as its _write_block() writes it (pickled with BLOCK_PROTOCOL).
    The private names are those of the pinned Whoosh: the tests compare the
    postings written with Whoosh's own, blocks of several included.
    """
    postings = writer._postwriter
    limit, level, boost = postings._blocklimit, writer._codec._compression, format_.field_boost
    fixed = format_.fixed_value_size()
    for start in range(0, len(docnums), limit):
        block = slice(start, start + limit)
        ids, frequency = docnums[block], frequencies[block]
        weights = array("f", [f * boost for f in frequency])
        values = [v for v in encoded[block] if v]
        sizes = [lengths[d] for d in ids] if lengths else []  # never 0: a posting has a word
        made = _Block(ids, weights, max(frequency) * boost, sizes)
        # A block of one posting (an id, a rare word: most terms) is left
        # uncompressed, as each block says: zlib would make it no shorter (its
        # header and checksum outweigh what it saves), and a call for each of
        # 100k such blocks at 100k entries was ~5% of writing a segment.
        # (Whoosh means to leave out pickles under 20 bytes, but a slip has it
        # compress every block.)
        _write_block(postings, made, values, fixed, level if len(ids) > 1 else 0, last=start + limit >= len(docnums))


def _write_block(postings: Any, block: _Block, values: list[bytes], fixed: int | None, level: int, last: bool) -> None:
    """Write a block as W3PostingsWriter._write_block does: the postings tag before the first block, then the block's
    size (negative for the last), its summary, and its docnum gaps, weights and values, as small as Whoosh makes them."""
    out = postings._postfile
    if not postings._blockcount:
        out.write(POSTINGS_MAGIC)
    postings._terminfo.add_block(block)
    ids, weights = block.ids, block._weights
    gaps = tuple(b - a for a, b in zip([0, *ids], ids))
    kept_weights: float | tuple[float, ...] | None
    if all(w == 1.0 for w in weights):
        kept_weights = None
    elif all(w == weights[0] for w in weights):
        kept_weights = weights[0]
    else:
        kept_weights = tuple(weights)
    kept_values = tuple(values) if fixed is None or fixed < 0 else None if fixed == 0 else b"".join(values)
    data = pickle.dumps((gaps, kept_weights, kept_values), BLOCK_PROTOCOL)
    if level:
        data = zlib.compress(data, level)
    summary = pickle.dumps((len(ids), ids[-1], block.max_weight(), level, length_to_byte(block.min_length()), length_to_byte(block.max_length())), 2)
    size = len(summary) + len(data)
    out.write_int(-size if last else size)
    out.write(summary)
    out.write(data)
    postings._blockcount += 1
