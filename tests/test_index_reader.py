"""rulebot's reader of built indexes against what Whoosh reads from the same files."""

from __future__ import annotations

import io
import os
import pickle
import random
import struct
from pathlib import Path

import pytest

from rulebot.index.reader import IndexFormatError, IndexReader, _read_toc, _TocUnpickler, positions
from rulebot.index.whoosh_api import ID, NO_MERGE, STORED, TEXT, FileStorage, Schema, byte_to_length

WORDS = "alpha beta gamma delta card player turn spice coin deck trash draw épée".split()
FIELDS = ("title", "body")


def build(folder: Path, seed: int, *, segments: int, deletions: int):
    """A Whoosh index of random documents in several segments, some deleted."""
    rng = random.Random(seed)
    schema = Schema(id=ID(stored=True, unique=True), title=TEXT(field_boost=3.0), body=TEXT, data=STORED)
    index = FileStorage(str(folder)).create_index(schema)
    number = 0
    for _ in range(segments):
        writer = index.writer()
        for _ in range(rng.randint(20, 200)):
            body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 40)))
            writer.add_document(id=f"e{number}", title=" ".join(rng.sample(WORDS, 2)), body=body, data={"n": number})
            number += 1
        writer.commit(mergetype=NO_MERGE)
    if deletions:
        writer = index.writer()
        for victim in rng.sample(range(number), deletions):
            writer.delete_by_term("id", f"e{victim}")
        writer.commit(mergetype=NO_MERGE)
    return index


@pytest.mark.parametrize("seed, segments, deletions", [(1, 1, 0), (2, 3, 0), (3, 3, 25)])
def test_everything_read_is_what_whoosh_reads(tmp_path: Path, seed: int, segments: int, deletions: int):
    index = build(tmp_path, seed, segments=segments, deletions=deletions)
    own = IndexReader.open(tmp_path, "MAIN")
    with index.searcher() as searcher:
        reader = searcher.reader()
        assert len(own.segments) == segments
        assert own.doc_count_all() == reader.doc_count_all() and own.doc_count() == reader.doc_count()
        assert list(own.docnums()) == sorted(docnum for docnum, _ in reader.iter_docs())
        for docnum in range(reader.doc_count_all()):
            assert own.stored_fields(docnum) == reader.stored_fields(docnum)
        for field in (*FIELDS, "id"):
            assert own.lexicon(field) == list(reader.lexicon(field))
            for prefix in ("", "a", "d", "é", "zz"):
                assert own.expand_prefix(field, prefix) == list(reader.expand_prefix(field, prefix))
            for term in own.lexicon(field):
                assert own.doc_frequency(field, term.decode()) == reader.doc_frequency(field, term)
        for field in FIELDS:
            assert own.avg_field_length(field) == pytest.approx(searcher.avg_field_length(field))
            for segment, (leaf, _) in zip(own.segments, searcher.leaf_searchers()):
                lengths = segment.lengths(field)
                assert len(lengths) == segment.doc_count
                for docnum in range(segment.doc_count):
                    assert byte_to_length(lengths[docnum]) == (leaf.reader().doc_field_length(docnum, field, 0) or 0)
        matcher = reader.postings("body", "card")
        while matcher.is_active():
            assert positions(matcher.value()) == matcher.value_as("positions")
            matcher.next()
    own.close()


def test_files_given_in_memory_read_the_same(tmp_path: Path):
    build(tmp_path, 4, segments=2, deletions=5)
    contents = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    from_disk = IndexReader.open(tmp_path, "MAIN")
    in_memory = IndexReader.open(None, "MAIN", contents)
    for field in FIELDS:
        assert in_memory.lexicon(field) == from_disk.lexicon(field)
        assert [s.lengths(field) for s in in_memory.segments] == [s.lengths(field) for s in from_disk.segments]
    assert [in_memory.stored_fields(d) for d in in_memory.docnums()] == [from_disk.stored_fields(d) for d in from_disk.docnums()]
    from_disk.close()
    in_memory.close()


def test_a_closed_index_opens_its_files_again_when_read(tmp_path: Path):
    build(tmp_path, 5, segments=1, deletions=0)
    own = IndexReader.open(tmp_path, "MAIN")
    before = own.stored_fields(3)
    own.close()
    assert own.stored_fields(3) == before
    own.close()


def test_the_table_of_contents_holds_no_code(tmp_path: Path):
    """The segment list is unpickled with Whoosh's classes as plain records, and nothing else."""
    build(tmp_path, 6, segments=1, deletions=0)
    toc = next(tmp_path.glob("_MAIN_*.toc")).read_bytes()
    assert _read_toc(toc)[0].doc_count > 0
    for hostile in ([print], [os.system]):
        with pytest.raises(pickle.UnpicklingError):
            _TocUnpickler(io.BytesIO(pickle.dumps(hostile, protocol=2))).load()
    with pytest.raises(IndexFormatError):
        _read_toc(toc[:3] + struct.pack("!i", 1) + toc[7:])  # not Whoosh's check number


def test_an_index_without_a_table_of_contents_is_refused(tmp_path: Path):
    with pytest.raises(IndexFormatError):
        IndexReader.open(tmp_path, "MAIN")


@pytest.mark.parametrize("offsets_written", [False, True])
def test_stored_fields_of_many_documents(tmp_path: Path, offsets_written: bool):
    """Whoosh writes each value's offset too for columns of more than 32,768 documents: both layouts read alike."""
    from whoosh.columns import CompressedBytesColumn, PickleColumn
    from whoosh.filedb.filestore import FileStorage as Storage

    from rulebot.index.reader import _StoredColumn

    values = [None if n % 7 == 3 else {"id": f"e{n}", "n": n} for n in range(300)]
    storage = Storage(str(tmp_path))
    writer = PickleColumn(CompressedBytesColumn()).writer(storage.create_file("stored.col"))
    writer._child.cutoff = 100 if offsets_written else 10_000  # Whoosh's is 32,768 documents
    for docnum, value in enumerate(values):
        if value is not None:
            writer.add(docnum, value)
    writer.finish(len(values))
    writer._child._dbfile.close()
    data = (tmp_path / "stored.col").read_bytes()
    assert (data[-1:] == b"X") is offsets_written
    column = _StoredColumn(((lambda offset, length: data[offset:offset + length]), len(data)), len(values))
    assert [column[n] for n in range(len(values))] == [value or {} for value in values]
