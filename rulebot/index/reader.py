"""A built index, read for answers without Whoosh.

Opening an index through Whoosh (its index, schema, codec, reading and
searching modules, and what they import) was most of a cold `rulebot ask`.
rulebot scores questions itself (rulebot.search.scoring), so all it reads are
the segments the table of contents lists, each parsed by
rulebot.index.whoosh_format, and each entry's payload: rulebot's own JSON,
which the index keeps in a column of its own (PAYLOAD_FIELD).

This is what the layers above see of an index: documents numbered across
segments, a term's postings as plain numbers (TermPostings), a block at a
time, and each document's field lengths as the index keeps them
(length_codes, STORED_LENGTHS). How Whoosh lays them out stays in
rulebot.index.whoosh_format.
"""

from __future__ import annotations

import heapq
import io
import json
import pickle
import struct
import zlib
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

from rulebot.index.whoosh_format import (
    INDEX_NAME,
    LENGTHS,
    Files,
    IndexFormatError,
    Read,
    Segment,
    TermInfo,
    Unpack,
    latest_toc,
    positions,
    read_toc,
)

if TYPE_CHECKING:
    from rulebot.index.payload import StoredEntry

STORED_LENGTHS: tuple[int, ...] = LENGTHS
"""The 256 lengths the index can keep a field's length as, ascending (it keeps the first that is as long
or longer); a document's length code (IndexReader.length_codes) is an index into them. A scorer works out
what it needs of each once, not of every posting; the site's search rounds lengths with them as the index does."""
PAYLOAD_FIELD = "data"
"""The field whose column holds each entry's payload (rulebot.index.payload.entry_payload) as JSON."""
TRANSLATED_TERMINAL: Final = "translated_terminal"
"""The payload key of the texts of its translations rendered for the terminal, by language (for the printer only)."""


_PAYLOADS = json.JSONDecoder()
"""Decodes payloads: raw_decode() skips the white space json.loads allows around a value, which payloads never have."""


def encode_payload(payload: StoredEntry) -> bytes:
    """A payload as the index keeps it: compact JSON, in UTF-8."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


DAMAGE = (
    zlib.error, struct.error, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, KeyError, IndexError, OverflowError,
)
"""What reading damaged index files raises, deep in the parsing of their layout (a cut pickle, a bad deflate
stream, a short record, undecodable text): the reader tells each as an IndexFormatError. Their checksums keep
damaged files from being opened (rulebot.index.sealed); files given as bytes have none."""


def _damaged(what: str, exc: BaseException) -> IndexFormatError:
    # On one line: an unpickler's message may hold a line break, and the error is one line of `rulebot` output.
    return IndexFormatError(f"damaged {what} ({type(exc).__name__}: {' '.join(str(exc).split())})"[:300])


class IndexReader:
    """The segments of a built index, with its statistics; documents are numbered across segments.

    Damaged files are an IndexFormatError wherever they are read (DAMAGE); a document number out of range is an
    IndexError."""

    def __init__(self, segments: list[Segment], files: _Files):
        self.segments = segments
        """Whoosh's segments, as rulebot.index.whoosh_format reads them: for rulebot.index only."""
        self._files = files
        self._length_codes: dict[str, bytes] = {}

    @classmethod
    def open(cls, folder: Path | None, index_name: str = INDEX_NAME, contents: Mapping[str, bytes] | None = None) -> IndexReader:
        """Open the latest generation of an index: its files from `contents` when there, else from the folder."""
        files = _Files(folder, contents or {})
        toc = latest_toc(files.names(), index_name)
        if toc is None:
            raise IndexFormatError("no table of contents")
        try:
            infos = read_toc(files.whole(toc))
        except DAMAGE as exc:
            raise _damaged("table of contents", exc) from exc
        segments, offset = [], 0
        try:
            for info in infos:
                segments.append(Segment(files, info, offset))
                offset += info.doc_count
        except BaseException as exc:
            files.close()
            if isinstance(exc, DAMAGE):
                raise _damaged("segment", exc) from exc
            raise
        return cls(segments, files)

    def close(self) -> None:
        """Close the index files."""
        self._files.close()

    def doc_count_all(self) -> int:
        """Documents in all segments, deleted ones included."""
        return sum(s.doc_count for s in self.segments)

    def doc_count(self) -> int:
        """Documents not deleted."""
        return sum(s.doc_count - len(s.deleted) for s in self.segments)

    def avg_field_length(self, field: str) -> float:
        """Terms in a field per document, deleted ones included (as Whoosh's scorer reckons it)."""
        return sum(s.field_lengths.get(field, 0) for s in self.segments) / (self.doc_count_all() or 1)

    def doc_frequency(self, field: str, text: str) -> int:
        """Documents whose field holds a term, deleted ones included (as Whoosh counts)."""
        return self.postings(field, text).doc_frequency

    def postings(self, field: str, text: str) -> TermPostings:
        """A term's postings in a field (looked up in each segment now, read when asked)."""
        term = text.encode("utf-8")
        found = []
        try:
            for number, segment in enumerate(self.segments):
                info = segment.term_info(field, term)
                if info is not None:
                    found.append((number, info))
        except DAMAGE as exc:
            raise _damaged("term table", exc) from exc
        return TermPostings(self, found)

    def field_length(self, docnum: int, field: str) -> int:
        """The length of a document's field as the index keeps it (an approximation, as BM25F reads it)."""
        # Checked: a negative number would count from the end of the lengths, another document's.
        return STORED_LENGTHS[self.length_codes(field)[self._checked(docnum)]]

    def _checked(self, docnum: int) -> int:
        """A document number of this index (deleted ones included); IndexError for any other."""
        if not 0 <= docnum < self.doc_count_all():
            raise IndexError(f"no document {docnum} in an index of {self.doc_count_all()}")
        return docnum

    def length_codes(self, field: str) -> bytes:
        """The length code of a field in each document, by docnum (deleted ones included): an index into
        STORED_LENGTHS. One byte each, read once: a scorer looks each posting's up as it goes."""
        codes = self._length_codes.get(field)
        if codes is None:
            try:
                codes = self._length_codes[field] = b"".join(s.lengths(field) for s in self.segments)
            except DAMAGE as exc:
                raise _damaged("field lengths", exc) from exc
        return codes

    def expand_prefix(self, field: str, prefix: str) -> list[bytes]:
        """The field's terms that start with a prefix, in order, each once."""
        start = prefix.encode("utf-8")
        merged = heapq.merge(*(s.terms_from(field, start) for s in self.segments))
        try:
            return [term for term, _ in _groups(merged)]
        except DAMAGE as exc:
            raise _damaged("term table", exc) from exc

    def lexicon(self, field: str) -> list[bytes]:
        """Every term of a field, in order."""
        return self.expand_prefix(field, "")

    def docnums(self) -> Iterator[int]:
        """Every live document, in order."""
        for s in self.segments:
            yield from (s.offset + d for d in range(s.doc_count) if d not in s.deleted)

    def payload(self, docnum: int) -> StoredEntry:
        """The payload of a document's entry (a new dict each time)."""
        self._checked(docnum)
        for s in reversed(self.segments):
            if docnum >= s.offset:
                try:
                    # Decoded first: json.loads decodes bytes with an error handler that takes UTF-8's slow path.
                    payload: StoredEntry = _PAYLOADS.raw_decode(s.column(PAYLOAD_FIELD, docnum - s.offset).decode("utf-8"))[0]
                except DAMAGE as exc:
                    raise _damaged("payload", exc) from exc
                return payload
        raise IndexError(docnum)


class Postings(NamedTuple):
    """Some of a term's postings (a block of them), in document order."""

    docnums: Sequence[int]
    """The documents, numbered across segments; deleted ones left out."""
    weights: Iterable[float]
    """The term's weight in each: its frequency in the field times the field's boost (may be read once only)."""


class Kept(Protocol):
    """Where values made lately are kept by key (rulebot.search.scoring keeps posting blocks so)."""

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept for a key, else made (and kept)."""


class TermPostings:
    """A term's postings in one field of an index, read a block at a time when asked."""

    __slots__ = ("_found", "_reader", "doc_frequency")

    def __init__(self, reader: IndexReader, found: list[tuple[int, TermInfo]]):
        self._reader, self._found = reader, found
        self.doc_frequency = sum(info.doc_frequency for _, info in found)
        """Documents whose field holds the term, deleted ones included (as Whoosh counts, and its idf reads)."""

    def __bool__(self) -> bool:
        return bool(self._found)

    def blocks(self) -> Iterator[Postings]:
        """The postings, a block at a time, in document order."""
        for number, info in self._found:
            segment = self._reader.segments[number]
            offset, deleted = segment.offset, segment.deleted
            try:  # what the caller does with a block between two is not in here: a generator is resumed, not thrown into
                for _last, unpack in segment.blocks(info):
                    ids, weights, _values = unpack()
                    if deleted and not deleted.isdisjoint(ids):
                        kept = [(d, w) for d, w in zip(ids, weights) if d not in deleted]
                        ids, weights = [d for d, _ in kept], [w for _, w in kept]
                    yield Postings([offset + d for d in ids] if offset else ids, weights)
            except DAMAGE as exc:
                raise _damaged("postings", exc) from exc

    def docnums(self) -> set[int]:
        """The documents whose field holds the term."""
        found: set[int] = set()
        for block in self.blocks():
            found.update(block.docnums)
        return found

    def positions(self, wanted: Collection[int], kept: Kept | None = None) -> dict[int, list[int]]:
        """Where the term occurs in the field of each wanted document that holds it (none of them deleted).

        Only the blocks that can hold a wanted document are unpacked, each
        through `kept` when given: the blocks of common words come back
        question after question."""
        found: dict[int, list[int]] = {}
        for number, info in self._found:
            segment = self._reader.segments[number]
            local = {d - segment.offset for d in wanted}
            docnums, values = [], []
            try:
                for docnum, value in _values(segment, info, local, number, kept):
                    docnums.append(segment.offset + docnum)
                    values.append(value)
                found.update(zip(docnums, positions(values)))
            except DAMAGE as exc:
                raise _damaged("positions", exc) from exc
        return found


_Block = tuple[list[int], tuple[bytes, ...]]
"""A posting block of a field with positions, as kept: its docnums, and each one's encoded positions."""


def _values(segment: Segment, info: TermInfo, wanted: set[int], number: int, kept: Kept | None) -> Iterator[tuple[int, bytes]]:
    """(docnum, encoded positions) of the postings of a term in the wanted documents of a segment (the `number`-th)."""
    # A block holds the docnums after the previous block's last one, up to
    # its own: the blocks before the next wanted document are skipped.
    remaining = sorted(wanted)
    start = 0
    for last, unpack in segment.blocks(info):
        if start == len(remaining):
            return
        if remaining[start] > last:
            continue
        ids, values = _block(number, info.extent, last, unpack, kept)
        while start < len(remaining) and remaining[start] <= last:
            start += 1
        yield from ((d, values[i]) for i, d in enumerate(ids) if d in wanted)


def _block(number: int, extent: tuple[int, int] | None, last: int, unpack: Unpack, kept: Kept | None) -> _Block:
    """A posting block's docnums and encoded values, unpacked or as kept. Its weights are not kept:
    positions need none, and they may be a one-pass iterator."""

    def ids_and_values() -> _Block:
        ids, _weights, values = unpack()
        assert values is not None, "a field with positions has values"
        return ids, values

    if kept is None or extent is None:  # postings kept in the term table: nothing to read, and no place to name them by
        return ids_and_values()
    block: _Block = kept.get((number, extent, last), ids_and_values)
    return block


def _groups(merged: Iterator[tuple[bytes, None]]) -> Iterator[tuple[bytes, None]]:
    last = None
    for item in merged:
        if item[0] != last:
            last = item[0]
            yield item


class _Files(Files):
    """The files of an index: those given in memory, the others read from its folder as needed."""

    def __init__(self, folder: Path | None, contents: Mapping[str, bytes]):
        self._folder = folder
        self._contents = contents
        self._handles: dict[str, io.BufferedReader] = {}

    def names(self) -> list[str]:
        on_disk = [p.name for p in self._folder.iterdir()] if self._folder is not None else []
        return sorted(set(self._contents) | set(on_disk))

    def locate(self, name: str) -> tuple[str, int]:
        """The file that holds a file's bytes, and where they start in it."""
        return name, 0

    def read(self, name: str, offset: int, length: int) -> bytes:
        """Bytes of a file, in one read. Plain reads, no memory map: a mapped
        file that is read through stays resident, and `ask` would hold the
        whole index in memory."""
        data = self._contents.get(name)
        if data is not None:
            return bytes(memoryview(data)[offset:offset + length])
        handle = self.handle(name)
        handle.seek(offset)
        return handle.read(length)

    def reader(self, name: str) -> tuple[Read, int]:
        """A way to read a file's bytes, and its size."""
        return (lambda offset, length: self.read(name, offset, length)), self.size(name)

    def exists(self, name: str) -> bool:
        return name in self._contents or (self._folder is not None and (self._folder / name).is_file())

    def size(self, name: str) -> int:
        data = self._contents.get(name)
        return len(data) if data is not None else self._path(name).stat().st_size

    def whole(self, name: str) -> bytes:
        data = self._contents.get(name)
        return bytes(data) if data is not None else self._path(name).read_bytes()

    def handle(self, name: str) -> io.BufferedReader:
        """The open file of that name (opened again if the index was closed and is read again)."""
        handle = self._handles.get(name)
        if handle is None:
            handle = self._handles[name] = self._path(name).open("rb")
        return handle

    def _path(self, name: str) -> Path:
        if self._folder is None:  # an index given as bytes alone: a file it names is not among them
            raise IndexFormatError(f"no file {name} in the index")
        return self._folder / name

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
