"""A built index, read for answers with no more of Whoosh than its file formats need.

Opening an index through Whoosh (its index, schema, codec, reading and
searching modules) was a third of a cold `rulebot ask`. rulebot scores
questions itself (rulebot.scoring), so all it reads are the files Whoosh 3
wrote: the table of contents (the segments, their document counts, deletions
and field lengths) and, in each segment, the term table, the postings and two
per-document columns (field lengths, stored fields). Whoosh's own readers
read the term table and the stored fields (whoosh.filedb, whoosh.columns:
cheap to import); the table of contents, the compound segment files and the
term infos are parsed here, laid out as Whoosh's writer lays them out.
tests/test_index_reader.py checks everything read against what Whoosh reads.
"""

from __future__ import annotations

import heapq
import io
import pickle
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from rulebot.whoosh_api import BufferFile, CompressedBytesColumn, OrderedHashReader, PickleColumn, StructFile

_TOC_CHECK = -12345
_TOC_VERSION = -111
"""Whoosh 2.7's table of contents (the only one rulebot writes)."""
_TOC_NUMBERS = struct.Struct("!ii")
_COMPOUND_HEADER = struct.Struct("!qi")
_TERM_INFO = struct.Struct("!BfIBBfII")
"""flags (1: postings inlined), total weight, document frequency, min and max length bytes, max weight, first and last docnum."""
_EXTENT = struct.Struct("!qi")
_FIELD_NUMBER = struct.Struct("!H")
_STORED = PickleColumn(CompressedBytesColumn())


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
        terms_name = f"{info.name}.trm"
        self._terms = OrderedHashReader(self._parts.open(terms_name), self._parts.size(terms_name))
        self._fields: dict[str, int] = self._terms.extras["fieldmap"]
        self._postings = self._parts.locate(f"{info.name}.pst")
        self._stored = None

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
        """A term's postings, as Whoosh wrote them (see rulebot.scoring)."""
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
            name = f"{self._name}._stored.col"
            self._stored = _STORED.reader(self._parts.open(name), 0, self._parts.size(name), self.doc_count)
        return self._stored[docnum] or {}


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


# -- the table of contents ---------------------------------------------------


class _Kept:
    """A Whoosh object in the table of contents: only its attributes are read."""


class _TocUnpickler(pickle.Unpickler):
    """Unpickles the segment list without Whoosh's classes, and nothing but what it may hold."""

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
        """Bytes of a file: one read, without a file object in between (postings are read this way)."""
        data = self._contents.get(name)
        if data is not None:
            return bytes(memoryview(data)[offset:offset + length])
        handle = self.handle(name)
        handle.seek(offset)
        return handle.read(length)

    def exists(self, name: str) -> bool:
        return name in self._contents or (self._folder is not None and (self._folder / name).is_file())

    def size(self, name: str) -> int:
        data = self._contents.get(name)
        return len(data) if data is not None else (self._folder / name).stat().st_size

    def whole(self, name: str) -> bytes:
        data = self._contents.get(name)
        return bytes(data) if data is not None else self._path(name).read_bytes()

    def open(self, name: str) -> StructFile:
        return self.part(name, 0, self.size(name))

    def part(self, name: str, offset: int, length: int) -> StructFile:
        """A file-like view of part of a file, as Whoosh's readers take it."""
        data = self._contents.get(name)
        if data is not None:
            return BufferFile(memoryview(data)[offset:offset + length])
        # Plain reads, no memory map: a mapped segment that is read through
        # stays resident, and `ask` would hold the whole index in memory.
        return StructFile(_Range(self, name, offset, length))

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
        header = files.part(name, 0, _COMPOUND_HEADER.size).read(_COMPOUND_HEADER.size)
        directory_offset, _ = _COMPOUND_HEADER.unpack(header)
        tail = files.part(name, directory_offset, files.size(name) - directory_offset)
        directory = tail.read_pickle()
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
        return self._files.part(self._name, offset, length).read(length)

    def open(self, name: str) -> StructFile:
        return self._files.part(self._name, *self._range(name))

    def _range(self, name: str) -> tuple[int, int]:
        try:
            return self._parts[name]
        except KeyError:
            raise IndexFormatError(f"segment file {self._name} lacks {name}") from None


class _Range(io.RawIOBase):
    """A read-only file of part of a file of the index (whose handle other ranges share: each read seeks first)."""

    def __init__(self, files: _Files, name: str, start: int, length: int):
        self._files, self._name = files, name
        self._start, self._length, self._position = start, length, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        size = max(0, min(len(buffer), self._length - self._position))
        handle = self._files.handle(self._name)
        handle.seek(self._start + self._position)
        data = handle.read(size)
        buffer[:len(data)] = data
        self._position += len(data)
        return len(data)

    def seek(self, position: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence]
        self._position = base + position
        return self._position

    def tell(self) -> int:
        return self._position
