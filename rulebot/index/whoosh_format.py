"""Whoosh's index files, as rulebot reads them: the module that knows their layout.

rulebot answers questions without Whoosh: rulebot.index.reader opens a built
index from the files themselves, through this module, and hands
rulebot.search.scoring plain postings. rulebot also writes its segments
itself (rulebot.index.whoosh_writing), several times faster than Whoosh's
writer. Both depend on how the pinned Whoosh-Reloaded (WHOOSH) lays out its
files, and on some of its private names: all of that is in these two
modules of rulebot.index, and nowhere else (an import-linter contract in
pyproject.toml keeps every other layer out). tests/test_whoosh_format.py
checks each part against Whoosh's own reader and writer.

It never imports Whoosh: answering a question loads none of it.

An index is a table of contents (read_toc: the Whoosh release that wrote it,
then the segments) and its segments (Segment), each packed in a compound
file (_Compound): a term table (_TermTable), the postings (posting_blocks),
and per-document columns: field lengths (one byte each, LENGTHS) and
rulebot's payloads (_BytesColumn, rulebot.index.reader decodes them).
Whoosh pickles its own structures (the segment list, a term table's extras,
a compound file's directory, each posting block and its summary, the
positions in a posting): they are all read by one restricted unpickler,
which makes nothing but plain values (_Unpickler).
"""

from __future__ import annotations

import hashlib
import io
import pickle
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import accumulate, repeat
from typing import Any, ClassVar, NamedTuple

WHOOSH = (2, 7, 5)
"""The Whoosh-Reloaded release whose files this module reads and writes (pyproject.toml pins it)."""
INDEX_NAME = "MAIN"
"""The name of the index within its storage (Whoosh's default)."""

_TOC_CHECK = -12345
_TOC_VERSION = -111
"""Whoosh 2.7's table of contents (the only one rulebot writes)."""
_TOC_NUMBERS = struct.Struct("!ii")
_COMPOUND_HEADER = struct.Struct("!qi")
_TERM_INFO = struct.Struct("!BfIBBfII")
"""flags (1: postings inlined), total weight, document frequency, min and max length bytes, max weight, first and last docnum."""
_EXTENT = struct.Struct("!qi")
_FIELD_NUMBER = struct.Struct("!H")
_INT = struct.Struct("!i")
_BLOCK_SIZE = struct.Struct("!i")
POSTINGS_MAGIC = b"W3Bl"
"""The tag a term's posting blocks start with."""
_POSITIONS_COUNT = 4
"""A posting's value in a field with positions: their count (an unsigned int), then a pickle of their gaps."""

LENGTHS = tuple(int(n) for n in """
    0 1 2 3 4 5 6 7 8 9 10 12 13 14 16 17 18 20 21 23 25 26 28 30 32 34 36 38 40 42 45 47 49 52 54 57
    60 63 66 69 72 75 79 82 86 89 93 97 101 106 110 114 119 124 129 134 139 145 150 156 162 169 175
    182 189 196 203 211 219 227 235 244 253 262 271 281 291 302 313 324 336 348 360 373 386 399 414
    428 443 459 475 491 508 526 544 563 583 603 623 645 667 690 714 738 763 789 816 844 873 903 933
    965 998 1032 1066 1103 1140 1178 1218 1259 1302 1345 1391 1438 1486 1536 1587 1641 1696 1753 1811
    1872 1935 1999 2066 2135 2207 2280 2356 2435 2516 2600 2687 2777 2869 2965 3063 3165 3271 3380
    3492 3608 3728 3852 3980 4112 4249 4390 4536 4686 4842 5002 5168 5340 5517 5700 5889 6084 6286
    6494 6709 6932 7161 7398 7643 7897 8158 8428 8707 8995 9293 9601 9918 10247 10586 10936 11298
    11671 12057 12456 12868 13294 13733 14187 14656 15141 15641 16159 16693 17244 17814 18403 19011
    19640 20289 20959 21652 22367 23106 23869 24658 25472 26314 27183 28081 29009 29967 30957 31979
    33035 34126 35254 36418 37620 38863 40146 41472 42841 44256 45717 47227 48786 50397 52061 53780
    55556 57390 59285 61242 63264 65352 67510 69739 72041 74419 76876 79414 82035 84743 87541 90430
    93416 96499 99684 102975 106374
""".split())
"""The length a field-length byte stands for (Whoosh stores each document's field length in one byte)."""


def release(numbers: tuple[int, ...]) -> str:
    """A Whoosh release as it is written: "2.7.5"."""
    return ".".join(map(str, numbers))


def length_to_byte(length: int | None) -> int:
    """The byte Whoosh stores for a field length: the first whose length is as long or longer."""
    return 0 if length is None else bisect_left(LENGTHS, length) if length < LENGTHS[-1] else 255


class IndexFormatError(Exception):
    """The index files are not laid out as the pinned Whoosh writes them."""


# -- pickles -------------------------------------------------------------------


class _Record:
    """A Whoosh object in a pickle (a segment in the table of contents): only its attributes are read."""


def _latin1(text: str, encoding: str) -> bytes:
    """Bytes as pickle's protocol 2 writes them: a call to _codecs.encode(text, 'latin1')."""
    if encoding != "latin1":
        raise pickle.UnpicklingError(f"unexpected encoding {encoding!r}")
    return text.encode("latin-1")


class _Unpickler(pickle.Unpickler):
    """Reads every pickle Whoosh writes in its files, making plain values only: numbers, strings,
    bytes, tuples, lists, dicts, sets, and Whoosh's objects as attribute records (_Record).
    Any other class or function in a pickle is refused."""

    _PLAIN: ClassVar[dict[tuple[str, str], Callable[..., object]]] = {
        ("collections", "defaultdict"): defaultdict,
        ("builtins", "int"): int,  # a defaultdict's factory
        ("builtins", "set"): set,
        ("builtins", "frozenset"): frozenset,
        ("_codecs", "encode"): _latin1,
    }

    def find_class(self, module: str, name: str) -> Callable[..., object]:
        if module == "whoosh" or module.startswith("whoosh."):
            return _Record
        found = self._PLAIN.get(("builtins" if module == "__builtin__" else module, name))
        if found is None:
            raise pickle.UnpicklingError(f"unexpected {module}.{name}")
        return found


def _unpickle(data: bytes) -> Any:
    """The value of one of Whoosh's pickles."""
    return _load(io.BytesIO(data))


def _load(stream: io.BytesIO) -> Any:
    """The value of the pickle a stream of bytes in memory holds. A damaged length in it may ask for more memory
    than there is (a list of billions of items): the pickle is damaged, as when it is cut short."""
    try:
        return _Unpickler(stream).load()
    except MemoryError:
        raise pickle.UnpicklingError("a length beyond its bytes") from None


# -- the table of contents -------------------------------------------------------


class SegmentInfo(NamedTuple):
    """What the table of contents says of a segment."""

    name: str
    """The segment's file name stem: index name and segment id."""
    doc_count: int
    deleted: frozenset[int]
    field_lengths: dict[str, int]
    compound: bool


def latest_toc(names: Iterable[str], index_name: str = INDEX_NAME) -> str | None:
    """The file name of the latest table of contents among an index's files (Whoosh writes one per generation)."""
    start, end = f"_{index_name}_", ".toc"
    generations = [int(n[len(start):-len(end)]) for n in names if n.startswith(start) and n.endswith(end) and n[len(start):-len(end)].isdigit()]
    return f"{start}{max(generations)}{end}" if generations else None


def read_toc(data: bytes) -> list[SegmentInfo]:
    """The segments a table of contents lists (its pickled schema is skipped), if the pinned Whoosh wrote it."""
    position = 0
    sizes = []
    for _ in range(3):
        size, position = _varint(data, position)
        sizes.append(size)
    check, version = _TOC_NUMBERS.unpack_from(data, position)
    if sizes != [4, 8, 4] or check != _TOC_CHECK or version != _TOC_VERSION:
        raise IndexFormatError("unknown table of contents")
    position += _TOC_NUMBERS.size
    written = []
    for _ in range(3):
        number, position = _varint(data, position)
        written.append(number)
    if tuple(written) != WHOOSH:
        raise IndexFormatError(f"written by Whoosh {release(tuple(written))}, not {release(WHOOSH)}")
    schema_length, position = _varint(data, position)
    position += schema_length + _TOC_NUMBERS.size  # the schema, the generation, an unused number
    segments = _unpickle(data[position:])
    try:
        return [
            SegmentInfo(
                name=f"{s.indexname}_{s.segid}",
                doc_count=s._doccount,
                deleted=frozenset(s._deleted or ()),
                field_lengths=dict(s._fieldlengths),
                compound=bool(s.compound),
            )
            for s in segments
        ]
    except (AttributeError, TypeError) as exc:
        raise IndexFormatError(f"unknown segment list ({exc})") from exc


def _varint(data: bytes, position: int) -> tuple[int, int]:
    """Whoosh's variable-length unsigned integer: 7 bits a byte, lowest first."""
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, position
        shift += 7


# -- a segment ---------------------------------------------------------------------

Read = Callable[[int, int], bytes]
"""Bytes of one file of a segment: (offset, length)."""


class Files:
    """The files of an index, as segments read them (rulebot.index.reader keeps them in memory or reads them from disk).

    A compound segment file's parts (_Compound) are read the same way, but for `read`.
    """

    def read(self, name: str, offset: int, length: int) -> bytes:
        """Bytes of a file."""
        raise NotImplementedError

    def reader(self, name: str) -> tuple[Read, int]:
        """A way to read a file's bytes, and its size."""
        raise NotImplementedError

    def exists(self, name: str) -> bool:
        raise NotImplementedError

    def size(self, name: str) -> int:
        raise NotImplementedError

    def whole(self, name: str) -> bytes:
        raise NotImplementedError

    def locate(self, name: str) -> tuple[str, int]:
        """The file that holds a file's bytes, and where they start in it."""
        raise NotImplementedError


class TermInfo(NamedTuple):
    """What the term table says of a term in one segment."""

    doc_frequency: int
    """Documents that hold it, deleted ones included (as Whoosh counts)."""
    extent: tuple[int, int] | None
    """Where its postings are in the segment's postings file (offset, length)."""
    inlined: tuple[Sequence[int], Iterable[float], tuple[bytes, ...] | None] | None = None
    """Or the postings themselves (docnums, weights, values), for a term of very few."""


Unpack = Callable[[], tuple[list[int], Iterable[float], tuple[bytes, ...] | None]]
"""Unpacks a posting block: its docnums, weights (term frequency times field boost) and encoded values."""


class Segment:
    """One segment: its terms, postings, field lengths and columns; documents numbered from `offset` in the index."""

    def __init__(self, files: Files, info: SegmentInfo, offset: int):
        self.offset = offset
        """The number of its first document in the index."""
        self.doc_count = info.doc_count
        self.deleted = info.deleted
        self.field_lengths = info.field_lengths
        self._name = info.name
        self._files = files
        self._parts = _Compound(files, f"{info.name}.seg") if info.compound else files
        self._terms = _TermTable(self._parts.reader(f"{info.name}.trm"))
        self._fields: dict[str, int] = self._terms.extras["fieldmap"]
        self._postings = self._parts.locate(f"{info.name}.pst")
        self._columns: dict[str, _BytesColumn] = {}

    def term_info(self, field: str, term: bytes) -> TermInfo | None:
        """What the term table says of a term, or None when the segment lacks it."""
        number = self._fields.get(field)
        if number is None:
            return None
        data = self._terms.get(_FIELD_NUMBER.pack(number) + term)
        if data is None:
            return None
        flags, _weight, frequency, *_ = _TERM_INFO.unpack_from(data)
        if flags:
            return TermInfo(frequency, None, _unpickle(data[_TERM_INFO.size:]))
        return TermInfo(frequency, _EXTENT.unpack_from(data, _TERM_INFO.size))

    def terms_from(self, field: str, prefix: bytes) -> Iterator[tuple[bytes, None]]:
        """The field's terms that start with a prefix, in order (paired for merging)."""
        number = self._fields.get(field)
        if number is None:
            return
        start = _FIELD_NUMBER.pack(number) + prefix
        for key in self._terms.keys_from(start):
            if not key.startswith(start):
                return
            yield key[_FIELD_NUMBER.size:], None

    def postings(self, info: TermInfo) -> bytes:
        """A term's postings, as Whoosh wrote them (see posting_blocks)."""
        name, start = self._postings
        assert info.extent is not None, "postings inlined in the term table"
        offset, length = info.extent
        return self._files.read(name, start + offset, length)

    def blocks(self, info: TermInfo) -> Iterator[tuple[int, Unpack]]:
        """(last docnum, unpack) of each block of a term's postings: a block is unpacked only when asked."""
        if info.inlined is not None:
            # A term of very few postings keeps them in the term table, docnums as they are.
            ids, weights, kept = info.inlined
            yield (ids[-1] if ids else -1), lambda: (list(ids), weights, kept)
            return
        yield from posting_blocks(self.postings(info))

    def lengths(self, field: str) -> bytes:
        """The length of a field in each document, one byte each (see LENGTHS)."""
        name = f"{self._name}._{field}_len.col"
        raw = self._parts.whole(name) if self._parts.exists(name) else b""
        return raw[:self.doc_count] + bytes(max(0, self.doc_count - len(raw)))

    def column(self, field: str, docnum: int) -> bytes:
        """A document's value in a field's column of compressed bytes (Whoosh's CompressedBytesColumn), b"" if none."""
        column = self._columns.get(field)
        if column is None:
            column = self._columns[field] = _BytesColumn(self._parts.reader(f"{self._name}.{field}.col"), self.doc_count)
        return column[docnum]


class _TermTable:
    """A segment's term table: Whoosh's ordered hash file of (field number + term) keys to term infos.

    The file: a header (magic, hash type, two unused ints), the key-value
    records (two ints, key and value lengths, then both), 256 hash tables of
    (hash, record position) slots, their directory, a pickle of extras (the
    field numbers), its length; and after the extras, the position of every
    record in key order, for look-ups by prefix.
    """

    _MAGIC = b"HSH3"
    _LENGTHS = struct.Struct("!ii")
    _SLOT = struct.Struct("!Iq")
    _DIRECTORY = struct.Struct("!" + "qi" * 256)

    def __init__(self, reader: tuple[Read, int]):
        self._read, size = reader
        header = self._read(0, 5)
        if header[:4] != self._MAGIC or header[4] != 0:  # hash type 0: md5
            raise IndexFormatError("unknown term table")
        extras_end = size - _INT.size
        extras_start = extras_end - _INT.unpack(self._read(extras_end, _INT.size))[0]
        tail = io.BytesIO(self._read(extras_start, extras_end - extras_start))
        self.extras: dict[str, Any] = _load(tail)
        directory = self._DIRECTORY.unpack(self._read(extras_start - self._DIRECTORY.size, self._DIRECTORY.size))
        self._tables = list(zip(directory[0::2], directory[1::2]))  # (position, slots)
        # The positions of the records in key order follow the extras' pickle.
        self._order_start = extras_start + tail.tell()
        self._order_code: str = self.extras["indextype"]
        self._order_width = array(self._order_code).itemsize
        self._order_count: int = self.extras["indexlen"]

    def get(self, key: bytes) -> bytes | None:
        """The value of a key, or None."""
        digest = int.from_bytes(hashlib.md5(key, usedforsecurity=False).digest()[-4:], "big")
        start, slots = self._tables[digest & 255]
        if not slots:
            return None
        slot = (digest >> 8) % slots
        for _ in range(slots):
            slot_hash, position = self._SLOT.unpack(self._read(start + slot * self._SLOT.size, self._SLOT.size))
            if not position:
                return None
            if slot_hash == digest:
                key_length, value_length = self._LENGTHS.unpack(self._read(position, self._LENGTHS.size))
                if key_length == len(key):
                    record = self._read(position + self._LENGTHS.size, key_length + value_length)
                    if record[:key_length] == key:
                        return record[key_length:]
            slot = (slot + 1) % slots
        return None

    def keys_from(self, start: bytes) -> Iterator[bytes]:
        """The keys from the first one equal to or after `start`, in order."""
        low, high = 0, self._order_count
        while low < high:
            middle = (low + high) // 2
            if self._key_at(self._position(middle)) < start:
                low = middle + 1
            else:
                high = middle
        for number in range(low, self._order_count):
            yield self._key_at(self._position(number))

    def _position(self, number: int) -> int:
        width = self._order_width
        return _unpack_array(self._order_code, self._read(self._order_start + number * width, width))[0]

    def _key_at(self, position: int) -> bytes:
        key_length, _ = self._LENGTHS.unpack(self._read(position, self._LENGTHS.size))
        return self._read(position + self._LENGTHS.size, key_length)


class _BytesColumn:
    """A segment's column of compressed bytes, one value per document (Whoosh's CompressedBytesColumn).

    The deflated values one after the other, then each one's length (an
    array), then, for columns of many documents, each one's offset (an
    array) and a marker; the last bytes name the arrays' type codes.
    """

    def __init__(self, reader: tuple[Read, int], doc_count: int):
        self._read, size = reader
        last = size - 1
        code = chr(self._read(last, 1)[0])
        offsets: array[int] | None = None
        if code == "X":  # offsets were written too
            codes = self._read(last - 2, 2).decode("ascii")
            code, offsets_code = codes[0], codes[1]
            start = last - 2 - doc_count * array(offsets_code).itemsize
            offsets = _unpack_array(offsets_code, self._read(start, doc_count * array(offsets_code).itemsize))
            last = start
        width = array(code).itemsize
        self._lengths = _unpack_array(code, self._read(last - width * doc_count, width * doc_count))
        if offsets is None:
            offsets = array("q", [0])
            offsets.extend(accumulate(self._lengths))
        self._offsets = offsets

    def __getitem__(self, docnum: int) -> bytes:
        length = self._lengths[docnum]
        return zlib.decompress(self._read(self._offsets[docnum], length)) if length else b""


class _Compound:
    """The files packed into one compound segment file (offset and length of each, in a pickled directory at its end)."""

    def __init__(self, files: Files, name: str):
        self._files = files
        self._name = name
        directory_offset, _ = _COMPOUND_HEADER.unpack(files.read(name, 0, _COMPOUND_HEADER.size))
        directory = _unpickle(files.read(name, directory_offset, files.size(name) - directory_offset))
        self._parts = {part: (info["offset"], info["length"]) for part, info in directory.items()}

    def locate(self, name: str) -> tuple[str, int]:
        """The compound file, and where the file's bytes start in it."""
        return self._name, self._range(name)[0]

    def exists(self, name: str) -> bool:
        return name in self._parts

    def size(self, name: str) -> int:
        return self._range(name)[1]

    def whole(self, name: str) -> bytes:
        offset, length = self._range(name)
        return self._files.read(self._name, offset, length)

    def reader(self, name: str) -> tuple[Read, int]:
        """A way to read a packed file's bytes, and its size."""
        start, size = self._range(name)
        return (lambda offset, length: self._files.read(self._name, start + offset, length)), size

    def _range(self, name: str) -> tuple[int, int]:
        try:
            return self._parts[name]
        except KeyError:
            raise IndexFormatError(f"segment file {self._name} lacks {name}") from None


def _unpack_array(code: str, data: bytes) -> array[int]:
    """An array of numbers as Whoosh writes them: big-endian."""
    numbers = array(code)
    numbers.frombytes(data)
    if sys.byteorder == "little":
        numbers.byteswap()
    return numbers


# -- postings ----------------------------------------------------------------------


def posting_blocks(data: bytes) -> Iterator[tuple[int, Unpack]]:
    """(last docnum, unpack) of each posting block of a term, as Whoosh 3 writes them (see Segment.blocks).

    A term's postings start with a tag; each block is then its size (a signed
    int, negative for the last), a pickled summary (count, last docnum, max
    weight, zlib level, min and max length bytes), then the pickle of its
    docnum gaps, weights and encoded values (deflated, at that level)."""
    if data[:4] != POSTINGS_MAGIC:
        raise IndexFormatError("damaged postings: no block header")
    stream = io.BytesIO(data)  # shares the bytes: no block is copied to read its summary
    summaries = _Unpickler(stream)
    position = 4
    while True:
        (size,) = _BLOCK_SIZE.unpack_from(data, position)
        position += _BLOCK_SIZE.size
        end = position + abs(size)
        stream.seek(position)
        try:
            _count, last, _max_weight, level, _min_length, _max_length = summaries.load()
        except MemoryError:  # (see _load)
            raise pickle.UnpicklingError("a length beyond its bytes") from None
        start = stream.tell()
        if start > end:
            raise IndexFormatError("damaged postings: a block's summary runs past its end")
        yield last, partial(_unpack, data[start:end], level)
        if size < 0:
            return
        position = end


def _unpack(packed: bytes, level: int) -> tuple[list[int], Iterable[float], tuple[bytes, ...] | None]:
    """A block's docnums, weights and encoded values."""
    deltas, weights, encoded = _unpickle(zlib.decompress(packed) if level else packed)
    if weights is None or isinstance(weights, float):
        # Whoosh writes one weight for a block whose weights are all equal (None: all 1.0).
        weights = repeat(1.0 if weights is None else weights, len(deltas))
    return list(accumulate(deltas)), weights, encoded


def positions(values: list[bytes]) -> list[list[int]]:
    """The positions of a term in each of some documents, from their encoded posting values (as a field
    with positions encodes them: a count, then a pickle of their gaps), all read by one unpickler."""
    pickles = b"".join(v[_POSITIONS_COUNT:] if v.endswith(b".") else v[_POSITIONS_COUNT:] + b"." for v in values)
    # A buffered stream lets the unpickler read ahead, as fast as from bytes.
    unpickler = _Unpickler(io.BufferedReader(io.BytesIO(pickles)))
    try:
        return [list(accumulate(unpickler.load())) for _ in values]
    except MemoryError:  # (see _load)
        raise pickle.UnpicklingError("a length beyond its bytes") from None
