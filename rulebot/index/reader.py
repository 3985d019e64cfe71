"""A built index, read for answers without Whoosh.

Opening an index through Whoosh (its index, schema, codec, reading and
searching modules, and what they import) was most of a cold `rulebot ask`.
rulebot scores questions itself (rulebot.search.scoring), so all it reads are
the segments the table of contents lists, each parsed by
rulebot.index.whoosh_format, and each entry's payload: rulebot's own JSON,
which the index keeps in a column of its own (PAYLOAD_FIELD).
"""

from __future__ import annotations

import heapq
import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

from rulebot.index.whoosh_format import INDEX_NAME, Files, IndexFormatError, Read, Segment, latest_toc, read_toc

if TYPE_CHECKING:
    from rulebot.index.payload import StoredEntry

PAYLOAD_FIELD = "data"
"""The field whose column holds each entry's payload (rulebot.index.payload.entry_payload) as JSON."""
TRANSLATED_TERMINAL: Final = "translated_terminal"
"""The payload key of the texts of its translations rendered for the terminal, by language (for the printer only)."""


_PAYLOADS = json.JSONDecoder()
"""Decodes payloads: raw_decode() skips the white space json.loads allows around a value, which payloads never have."""


def encode_payload(payload: StoredEntry) -> bytes:
    """A payload as the index keeps it: compact JSON, in UTF-8."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class IndexReader:
    """The segments of a built index, with its statistics; documents are numbered across segments."""

    def __init__(self, segments: list[Segment], files: _Files):
        self.segments = segments
        self._files = files

    @classmethod
    def open(cls, folder: Path | None, index_name: str = INDEX_NAME, contents: Mapping[str, bytes] | None = None) -> IndexReader:
        """Open the latest generation of an index: its files from `contents` when there, else from the folder."""
        files = _Files(folder, contents or {})
        toc = latest_toc(files.names(), index_name)
        if toc is None:
            raise IndexFormatError("no table of contents")
        infos = read_toc(files.whole(toc))
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

    def payload(self, docnum: int) -> StoredEntry:
        """The payload of a document's entry (a new dict each time)."""
        for s in reversed(self.segments):
            if docnum >= s.offset:
                # Decoded first: json.loads decodes bytes with an error handler that takes UTF-8's slow path.
                payload: StoredEntry = _PAYLOADS.raw_decode(s.column(PAYLOAD_FIELD, docnum - s.offset).decode("utf-8"))[0]
                return payload
        raise IndexError(docnum)


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
        if self._folder is None:
            raise FileNotFoundError(name)
        return self._folder / name

    def close(self) -> None:
        for handle in self._handles.values():
            handle.close()
        self._handles.clear()
