"""A built index, read for answers without Whoosh: its files are parsed here.

Opening an index through Whoosh (its index, schema, codec, reading and
searching modules, and what they import) was most of a cold `rulebot ask`.
rulebot scores questions itself (rulebot.search.scoring), so all it reads are the
files Whoosh 3 wrote: the table of contents (the segments, their document
counts, deletions and field lengths) and, in each segment, the term table,
the postings and two per-document columns (field lengths, stored fields).
Each is parsed here as the pinned Whoosh-Reloaded 2.7.5 lays it out;
tests/test_index_reader.py checks everything read against what Whoosh reads.
"""

from __future__ import annotations

import hashlib
import heapq
import io
import pickle
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

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


class IndexFormatError(Exception):
    """The index files are not laid out as rulebot's Whoosh writes them."""


@dataclass(frozen=True)
class TermInfo:
    """What the term table says of a term in one segment."""

    doc_frequency: int
    """Documents that hold it, deleted ones included (as Whoosh counts)."""
    extent: tuple[int, int] | None
    """Where its postings are in the segment's postings file (offset, length)."""
    inlined: tuple | None = None
    """Or the postings themselves (docnums, weights, values), for a term of very few."""


class IndexReader:
    """The segments of a built index, with its statistics; documents are numbered across segments."""

    def __init__(self, segments: list[Segment], files: _Files):
        self.segments = segments
        self._files = files

    @classmethod
    def open(cls, folder: Path | None, index_name: str, contents: Mapping[str, bytes] | None = None) -> IndexReader:
        """Open the latest generation of an index: its files from `contents` when there, else from the folder."""
        files = _Files(folder, contents or {})
        generations = [int(name[len(index_name) + 2:-4]) for name in files.names()
                       if name.startswith(f"_{index_name}_") and name.endswith(".toc") and name[len(index_name) + 2:-4].isdigit()]
        if not generations:
            raise IndexFormatError("no table of contents")
        infos = _read_toc(files.whole(f"_{index_name}_{max(generations)}.toc"))
        segments, offset = [], 0
        try:
            for info in infos:
                segments.append(Segment(files, info, offset))
                offset += info.doc_count
        except BaseException:
            files.close()
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
        term = text.encode("utf-8")
        return sum(info.doc_frequency for s in self.segments if (info := s.term_info(field, term)) is not None)

    def expand_prefix(self, field: str, prefix: str) -> list[bytes]:
        """The field's terms that start with a prefix, in order, each once."""
        start = prefix.encode("utf-8")
        merged = heapq.merge(*(s.terms_from(field, start) for s in self.segments))
        return [term for term, _ in _groups(merged)]

    def lexicon(self, field: str) -> list[bytes]:
        """Every term of a field, in order."""
        return self.expand_prefix(field, "")

    def docnums(self) -> Iterator[int]:
        """Every live document, in order."""
        for s in self.segments:
            yield from (s.offset + d for d in range(s.doc_count) if d not in s.deleted)

    def stored_fields(self, docnum: int) -> dict:
        """The stored fields of a document."""
        for s in reversed(self.segments):
            if docnum >= s.offset:
                return s.stored_fields(docnum - s.offset)
        raise IndexError(docnum)


@dataclass(frozen=True)
class _SegmentInfo:
    """What the table of contents says of a segment."""

    name: str
    """The segment's file name stem: index name and segment id."""
    doc_count: int
    deleted: frozenset[int]
    field_lengths: dict[str, int]
    compound: bool


class Segment:
    """One segment: its terms, postings, field lengths and stored fields."""

    def __init__(self, files: _Files, info: _SegmentInfo, offset: int):
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
        self._stored: _StoredColumn | None = None

    def term_info(self, field: str, term: bytes) -> TermInfo | None:
        """What the term table says of a term, or None when the segment lacks it."""
        number = self._fields.get(field)
        if number is None:
            return None
        data = self._terms.get(_FIELD_NUMBER.pack(number) + term)
        return None if data is None else _term_info(data)

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
        """A term's postings, as Whoosh wrote them (see rulebot.search.scoring)."""
        name, start = self._postings
        offset, length = info.extent
        return self._files.read(name, start + offset, length)

    def lengths(self, field: str) -> bytes:
        """The length of a field in each document, one byte each (as Whoosh encodes them)."""
        name = f"{self._name}._{field}_len.col"
        raw = self._parts.whole(name) if self._parts.exists(name) else b""
        return raw + bytes(max(0, self.doc_count - len(raw)))

    def stored_fields(self, docnum: int) -> dict:
        if self._stored is None:
            self._stored = _StoredColumn(self._parts.reader(f"{self._name}._stored.col"), self.doc_count)
        return self._stored[docnum]


def positions(value: bytes) -> list[int]:
    """The positions of a term in a document, from its encoded posting value
    (Whoosh's Positions format: a frequency, then a pickle of position deltas)."""
    deltas = pickle.loads(value[4:] if value.endswith(b".") else value[4:] + b".")
    position, found = 0, []
    for delta in deltas:
        position += delta
        found.append(position)
    return found


def _term_info(data: bytes) -> TermInfo:
    flags, _weight, frequency, *_ = _TERM_INFO.unpack_from(data)
    if flags:
        return TermInfo(frequency, None, pickle.loads(data[_TERM_INFO.size:]))
    return TermInfo(frequency, _EXTENT.unpack_from(data, _TERM_INFO.size))


def _groups(merged: Iterator[tuple[bytes, None]]) -> Iterator[tuple[bytes, None]]:
    last = None
    for item in merged:
        if item[0] != last:
            last = item[0]
            yield item


# -- the term table and the stored fields --------------------------------------

Read = Callable[[int, int], bytes]
"""Bytes of one file of a segment: (offset, length)."""


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
        self.extras: dict = _TocUnpickler(tail).load()
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


class _StoredColumn:
    """A segment's stored fields: Whoosh's column of pickled, deflated values, one per document.

    The values one after the other, then each one's length (an array), then,
    for columns of many documents, each one's offset (an array) and a
    marker; the last bytes name the arrays' type codes.
    """

    def __init__(self, reader: tuple[Read, int], doc_count: int):
        self._read, size = reader
        last = size - 1
        code = chr(self._read(last, 1)[0])
        self._offsets: array | None = None
        if code == "X":  # offsets were written too
            codes = self._read(last - 2, 2).decode("ascii")
            code, offsets_code = codes[0], codes[1]
            start = last - 2 - doc_count * array(offsets_code).itemsize
            self._offsets = _unpack_array(offsets_code, self._read(start, doc_count * array(offsets_code).itemsize))
            last = start
        width = array(code).itemsize
        self._lengths = _unpack_array(code, self._read(last - width * doc_count, width * doc_count))
        if self._offsets is None:
            self._offsets = array("q", [0])
            self._offsets.extend(accumulate(self._lengths))

    def __getitem__(self, docnum: int) -> dict:
        length = self._lengths[docnum]
        if not length:
            return {}
        return pickle.loads(zlib.decompress(self._read(self._offsets[docnum], length))) or {}


def _unpack_array(code: str, data: bytes) -> array:
    """An array of numbers as Whoosh writes them: big-endian."""
    numbers = array(code)
    numbers.frombytes(data)
    if sys.byteorder == "little":
        numbers.byteswap()
    return numbers


# -- the table of contents ---------------------------------------------------


class _Kept:
    """A Whoosh object in the table of contents: only its attributes are read."""


class _TocUnpickler(pickle.Unpickler):
    """Unpickles what Whoosh pickles in its files (the segment list, a term table's extras, a compound
    file's directory) without Whoosh's classes, and nothing but what these may hold."""

    _PLAIN = {("collections", "defaultdict"), ("builtins", "int"), ("builtins", "set"), ("builtins", "frozenset")}

    def find_class(self, module: str, name: str):
        if module == "whoosh" or module.startswith("whoosh."):
            return _Kept
        if (module, name) in self._PLAIN:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"unexpected {module}.{name}")


def _read_toc(data: bytes) -> list[_SegmentInfo]:
    """The segments a table of contents lists (its pickled schema is skipped)."""
    position = 0
    sizes = []
    for _ in range(3):
        size, position = _varint(data, position)
        sizes.append(size)
    check, version = _TOC_NUMBERS.unpack_from(data, position)
    if sizes != [4, 8, 4] or check != _TOC_CHECK or version != _TOC_VERSION:
        raise IndexFormatError("unknown table of contents")
    position += _TOC_NUMBERS.size
    for _ in range(3):  # Whoosh's version
        _, position = _varint(data, position)
    schema_length, position = _varint(data, position)
    position += schema_length + _TOC_NUMBERS.size  # the schema, the generation, an unused number
    segments = _TocUnpickler(io.BytesIO(data[position:])).load()
    try:
        return [
            _SegmentInfo(
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


# -- files -------------------------------------------------------------------


class _Files:
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
        if self._folder is None:
            raise FileNotFoundError(name)
        return self._folder / name

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()


class _Compound:
    """The files packed into one compound segment file (offset and length of each, in a pickled directory at its end)."""

    def __init__(self, files: _Files, name: str):
        self._files = files
        self._name = name
        directory_offset, _ = _COMPOUND_HEADER.unpack(files.read(name, 0, _COMPOUND_HEADER.size))
        directory = _TocUnpickler(io.BytesIO(files.read(name, directory_offset, files.size(name) - directory_offset))).load()
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
