"""rulebot.index.whoosh_format and whoosh_writing against Whoosh's own reader and writer.

Everything rulebot reads of an index without Whoosh (the table of contents,
term tables, postings, columns) is read here from indexes Whoosh wrote, and
compared with what Whoosh reads; every segment rulebot writes itself is
compared with the one Whoosh's writer makes of the same documents. A new
Whoosh release is checked here.
"""

from __future__ import annotations

import io
import os
import pickle
import random
import struct
import zlib
from pathlib import Path

import pytest
import whoosh
from conftest import MINIMAL
from test_index_faults import write_synthetic_corpus
from whoosh.columns import CompressedBytesColumn
from whoosh.fields import COLUMN, ID, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.formats import Positions
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import NO_MERGE

from rulebot.corpus.load import load
from rulebot.index import whoosh_format, whoosh_writing
from rulebot.index.build import documents, write_index
from rulebot.index.reader import IndexReader
from rulebot.index.schema import schema
from rulebot.index.whoosh_format import IndexFormatError, latest_toc, positions, read_toc
from rulebot.places import shipped_corpus_dir

WORDS = "alpha beta gamma delta card player turn spice coin deck trash draw épée".split()
FIELDS = ("title", "body")


def test_the_pinned_whoosh_is_the_one_installed():
    """The release the formats are read and written for is the one installed (pyproject.toml pins it)."""
    assert tuple(whoosh.__version__[:3]) == whoosh_format.WHOOSH


# -- reading: indexes Whoosh wrote ---------------------------------------------------


def build(folder: Path, seed: int, *, segments: int, deletions: int):
    """A Whoosh index of random documents in several segments, some deleted."""
    rng = random.Random(seed)
    fields = Schema(id=ID(stored=True, unique=True), title=TEXT(field_boost=3.0), body=TEXT, kept=STORED,
                    data=COLUMN(CompressedBytesColumn()))
    index = FileStorage(str(folder)).create_index(fields)
    number = 0
    for _ in range(segments):
        writer = index.writer()
        for _ in range(rng.randint(20, 200)):
            body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 40)))
            data = rng.choice((b"", rng.randbytes(rng.randint(1, 300)), f'{{"n": {number}}}'.encode()))
            writer.add_document(id=f"e{number}", title=" ".join(rng.sample(WORDS, 2)), body=body, kept={"n": number}, data=data)
            number += 1
        writer.commit(mergetype=NO_MERGE)
    if deletions:
        writer = index.writer()
        for victim in rng.sample(range(number), deletions):
            writer.delete_by_term("id", f"e{victim}")
        writer.commit(mergetype=NO_MERGE)
    return index


def column(index: IndexReader, field: str, docnum: int) -> bytes:
    for segment in reversed(index.segments):
        if docnum >= segment.offset:
            return segment.column(field, docnum - segment.offset)
    raise IndexError(docnum)


@pytest.mark.parametrize("seed, segments, deletions", [(1, 1, 0), (2, 3, 0), (3, 3, 25)])
def test_everything_read_is_what_whoosh_reads(tmp_path: Path, seed: int, segments: int, deletions: int):
    index = build(tmp_path, seed, segments=segments, deletions=deletions)
    own = IndexReader.open(tmp_path)
    with index.searcher() as searcher:
        reader = searcher.reader()
        assert len(own.segments) == segments
        assert own.doc_count_all() == reader.doc_count_all() and own.doc_count() == reader.doc_count()
        assert list(own.docnums()) == sorted(docnum for docnum, _ in reader.iter_docs())
        data = reader.column_reader("data")
        for docnum in range(reader.doc_count_all()):
            assert column(own, "data", docnum) == data[docnum]
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
                    assert whoosh_format.LENGTHS[lengths[docnum]] == (leaf.reader().doc_field_length(docnum, field, 0) or 0)
        for segment, (leaf, _) in zip(own.segments, searcher.leaf_searchers()):
            for field, term in (("body", b"card"), ("id", b"e7"), ("title", "épée".encode())):
                info = segment.term_info(field, term)
                if info is None:
                    assert term not in set(leaf.reader().lexicon(field))
                    continue
                ids, weights, values = [], [], []
                for _last, unpack in segment.blocks(info):
                    block_ids, block_weights, block_values = unpack()
                    block_weights = list(block_weights)  # may be one weight repeated, readable once
                    kept = [n for n, d in enumerate(block_ids) if d not in segment.deleted]  # Whoosh's postings skip them
                    ids += [block_ids[n] for n in kept]
                    weights += [block_weights[n] for n in kept]
                    values += [block_values[n] for n in kept] if block_values else []
                assert ids == list(leaf.reader().postings(field, term).all_ids())
                assert weights == pytest.approx([weight for _, weight in leaf.reader().postings(field, term).items_as("weight")])
                if field != "id":
                    assert positions(values) == [p for _, p in leaf.reader().postings(field, term).items_as("positions")]
    own.close()


def test_lengths_bytes_are_whooshs():
    assert list(whoosh_format.LENGTHS) == [byte_to_length(b) for b in range(256)]
    for length in (None, 0, 1, 10, 11, 12, 999, 106373, 106374, 200000):
        assert whoosh_format.length_to_byte(length) == length_to_byte(length), length


def test_positions_are_whooshs():
    """Many posting values read at once, as Whoosh's Positions format decodes each."""
    rng = random.Random(4)
    lists = [sorted(rng.sample(range(500), rng.randint(1, 30))) for _ in range(300)]
    encoded = [Positions().encode(p) for p in lists]
    assert positions(encoded) == [Positions().decode_positions(v) for v in encoded] == lists
    assert positions([v[:-1] for v in encoded]) == lists  # without their last byte, as Whoosh also reads them
    assert positions([]) == []


def test_files_given_in_memory_read_the_same(tmp_path: Path):
    build(tmp_path, 4, segments=2, deletions=5)
    contents = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    from_disk = IndexReader.open(tmp_path)
    in_memory = IndexReader.open(None, contents=contents)
    for field in FIELDS:
        assert in_memory.lexicon(field) == from_disk.lexicon(field)
        assert [s.lengths(field) for s in in_memory.segments] == [s.lengths(field) for s in from_disk.segments]
    assert [column(in_memory, "data", d) for d in in_memory.docnums()] == [column(from_disk, "data", d) for d in from_disk.docnums()]
    from_disk.close()
    in_memory.close()


def test_a_closed_index_opens_its_files_again_when_read(tmp_path: Path):
    build(tmp_path, 5, segments=1, deletions=0)
    own = IndexReader.open(tmp_path)
    before = column(own, "data", 3)
    own.close()
    assert column(own, "data", 3) == before
    own.close()


@pytest.mark.parametrize("offsets_written", [False, True])
def test_columns_of_many_documents(tmp_path: Path, offsets_written: bool):
    """Whoosh writes each value's offset too for columns of more than 32,768 documents: both layouts read alike."""
    values = [b"" if n % 7 == 3 else f"entry {n}".encode() * (n % 5) for n in range(300)]
    storage = FileStorage(str(tmp_path))
    writer = CompressedBytesColumn().writer(storage.create_file("data.col"))
    writer.cutoff = 100 if offsets_written else 10_000  # Whoosh's is 32,768 documents
    for docnum, value in enumerate(values):
        if value:
            writer.add(docnum, value)
    writer.finish(len(values))
    writer._dbfile.close()
    data = (tmp_path / "data.col").read_bytes()
    assert (data[-1:] == b"X") is offsets_written
    read = whoosh_format._BytesColumn(((lambda offset, length: data[offset:offset + length]), len(data)), len(values))
    assert [read[n] for n in range(len(values))] == values


# -- the table of contents and the one unpickler ----------------------------------------


def test_the_table_of_contents_holds_no_code(tmp_path: Path):
    """The segment list is unpickled with Whoosh's classes as plain records, and nothing else."""
    build(tmp_path, 6, segments=1, deletions=0)
    toc = (tmp_path / latest_toc(p.name for p in tmp_path.iterdir())).read_bytes()
    assert read_toc(toc)[0].doc_count > 0
    with pytest.raises(IndexFormatError):
        read_toc(toc[:3] + struct.pack("!i", 1) + toc[7:])  # not Whoosh's check number


@pytest.mark.parametrize("hostile", [[print], [os.system], pickle.loads, [b"bytes" * 3]], ids=["print", "system", "loads", "bytes"])
def test_pickles_make_plain_values_only(hostile):
    """Whoosh's pickles are read by one unpickler that makes plain values (protocol 2's bytes too), and
    refuses any other class or function."""
    for protocol in (2, 5):
        data = pickle.dumps(hostile, protocol)
        if hostile == [b"bytes" * 3]:
            assert whoosh_format._unpickle(data) == hostile
        else:
            with pytest.raises(pickle.UnpicklingError):
                whoosh_format._unpickle(data)
    forged = b"\x80\x02c_codecs\nencode\nX\x03\x00\x00\x00abcX\x05\x00\x00\x00rot13\x86R."
    with pytest.raises(pickle.UnpicklingError, match="encoding"):
        whoosh_format._unpickle(forged)


def test_a_pickle_asking_for_more_memory_than_there_is_is_damaged():
    """A damaged length in a pickle (bytes of 2**56 - 1) asks for more memory than there is: a damaged pickle
    (which the reader tells as an IndexFormatError), not a MemoryError."""
    huge = b"\x80\x04\x8e\xff\xff\xff\xff\xff\xff\x00\x00."
    with pytest.raises(MemoryError):
        pickle.loads(huge)
    with pytest.raises(pickle.UnpicklingError, match="beyond"):
        whoosh_format._unpickle(huge)


def toc_of_release(toc: bytes, release: tuple[int, int, int]) -> bytes:
    """A table of contents as another Whoosh release would write it: its release numbers changed."""
    position = 3 + 8  # three one-byte sizes, the check and the version numbers
    return toc[:position] + bytes(release) + toc[position + 3:]


def test_a_table_of_contents_of_another_whoosh_is_refused(tmp_path: Path):
    build(tmp_path, 7, segments=1, deletions=0)
    toc = (tmp_path / latest_toc(p.name for p in tmp_path.iterdir())).read_bytes()
    assert read_toc(toc_of_release(toc, whoosh_format.WHOOSH)) == read_toc(toc)
    with pytest.raises(IndexFormatError, match=r"written by Whoosh 2\.7\.4, not 2\.7\.5"):
        read_toc(toc_of_release(toc, (2, 7, 4)))


def test_an_index_without_a_table_of_contents_is_refused(tmp_path: Path):
    with pytest.raises(IndexFormatError):
        IndexReader.open(tmp_path)


# -- postings ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0, 1])
def test_blocks_read_as_whoosh_reads_them(level: int):
    """A block's docnums, weights and values, from a pickle as Whoosh writes it (protocol 2) or as rulebot does:
    docnum gaps of every size, every kind of weights (one for all equal, None for all 1.0), values of any bytes."""
    rng = random.Random(8)
    for _ in range(300):
        count = rng.randint(1, 128)
        deltas = tuple(rng.choice((rng.randint(1, 255), rng.randint(256, 65535), rng.randint(65536, 2**31 - 1))) for _ in range(count))
        weights = rng.choice((None, rng.uniform(0.1, 9.0), tuple(rng.uniform(0.1, 9.0) for _ in range(count))))
        values = tuple(rng.randbytes(rng.randint(1, 12)) for _ in range(count))
        for protocol in (2, whoosh_writing.BLOCK_PROTOCOL):
            data = pickle.dumps((deltas, weights, values), protocol)
            ids, read_weights, read_values = whoosh_format._unpack(zlib.compress(data, level) if level else data, level)
            assert ids == [sum(deltas[:n + 1]) for n in range(count)]
            expected = [1.0] * count if weights is None else [weights] * count if isinstance(weights, float) else list(weights)
            assert list(read_weights) == expected and read_values == values


def test_damaged_postings_are_refused(tmp_path: Path):
    """Postings without their tag, or whose block size is shorter than the block's summary, are refused
    (an index's checksums catch damage first; this is what reading meets if they do not)."""
    (tmp_path / "index").mkdir()
    write_index(tmp_path / "index", load([write_synthetic_corpus(tmp_path / "corpus", entries=400)]), "fingerprint")
    own = IndexReader.open(tmp_path / "index")
    [segment] = own.segments
    data = segment.postings(segment.term_info("game", b"vornish"))
    assert len(list(whoosh_format.posting_blocks(data))) > 1  # the term's postings are a few blocks
    for damaged in (b"XXXX" + data[4:], data[:4] + struct.pack("!i", 3) + data[8:]):
        with pytest.raises(IndexFormatError, match="damaged postings"):
            list(whoosh_format.posting_blocks(damaged))
    own.close()


# -- writing: rulebot's segments against Whoosh's writer ---------------------------------


def content(index, totals: bool = True) -> dict:
    """What a search can read of an index: stored fields, payloads, field lengths, and each term's statistics and postings.

    Without `totals`, a term's total weight is left out: a sum of 32-bit
    floats, it differs in its last bits with the number of segments.
    """
    fields = schema()
    with index.reader() as reader:
        payloads = reader.column_reader("data")
        found: dict = {"stored": list(reader.all_stored_fields()), "data": [payloads[n] for n in range(reader.doc_count_all())]}
        for name in fields.scorable_names():
            # (a document without the field has length None or 0, as its segment has the field's lengths or not)
            found[name] = (reader.field_length(name), [reader.doc_field_length(n, name) or 0 for n in range(reader.doc_count_all())])
        for name, term in reader.all_terms():
            info = reader.term_info(name, term)
            found[name, term] = [
                info.weight() if totals else None,
                info.doc_frequency(), info.min_length(), info.max_length(), info.max_weight(), info.min_id(), info.max_id(),
                list(reader.postings(name, term).items_as("weight")),
                list(reader.postings(name, term).items_as("positions")) if fields[name].format.supports("positions") else None,
            ]
            postings = reader.postings(name, term)
            if totals:  # one segment: the first block's statistics too (what searches skip blocks by)
                found[name, term].append((postings.block_max_weight(), postings.block_min_length(), postings.block_max_length()))
    return found


def whoosh_built(corpus, folder: Path):
    """The index of a corpus as Whoosh's own writer makes it, from the same documents."""
    index = FileStorage(str(folder)).create_index(schema())
    writer = index.writer()
    for _, make in documents(corpus):
        writer.add_document(**make())
    writer.commit()
    return index


CORPORA = {
    "minimal": lambda folder: MINIMAL,
    "shipped": lambda folder: shipped_corpus_dir(),
    # sections shared by hundreds of entries: posting lists of several blocks, with positions and lengths
    "synthetic": lambda folder: write_synthetic_corpus(folder, entries=400),
}


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_same_index_as_whoosh_writes(corpus: str, tmp_path: Path):
    """Every stored field, payload, length, term statistic, posting and position is the one Whoosh's writer makes."""
    corpus = load([CORPORA[corpus](tmp_path / "corpus")])
    (tmp_path / "ours").mkdir()
    write_index(tmp_path / "ours", corpus, "fingerprint")
    ours = FileStorage(str(tmp_path / "ours")).open_index()
    (tmp_path / "whoosh").mkdir()
    assert content(ours) == content(whoosh_built(corpus, tmp_path / "whoosh"))


def test_posting_blocks_are_those_whoosh_writes(tmp_path: Path):
    """Each term's posting blocks, as stored, unpickle to Whoosh's writer's own: summaries, docnum gaps,
    weights (one for a block of equal frequencies, None for all 1.0, else each) and positions. (Not byte for
    byte: rulebot pickles blocks with a later protocol, and leaves a block of one posting uncompressed.)"""

    def blocks(segment, info) -> list:
        data = segment.postings(info)
        found, position = [], 4
        while True:
            (size,) = struct.unpack_from("!i", data, position)
            stream = io.BytesIO(data[position + 4:position + 4 + abs(size)])
            summary = pickle.load(stream)
            packed = stream.read()
            found.append((summary, pickle.loads(zlib.decompress(packed) if summary[3] else packed)))
            if size < 0:
                return found
            position += 4 + abs(size)

    corpus = load([write_synthetic_corpus(tmp_path / "corpus", entries=400)])
    (tmp_path / "ours").mkdir()
    (tmp_path / "whoosh").mkdir()
    write_index(tmp_path / "ours", corpus, "fingerprint")
    whoosh_built(corpus, tmp_path / "whoosh")
    ours, theirs = IndexReader.open(tmp_path / "ours"), IndexReader.open(tmp_path / "whoosh")
    try:
        [mine], [whooshs] = ours.segments, theirs.segments
        terms = several = lone = 0
        for field in (name for name, spec in schema().items() if spec.indexed):
            assert ours.lexicon(field) == theirs.lexicon(field)
            for term in ours.lexicon(field):
                a, b = mine.term_info(field, term), whooshs.term_info(field, term)
                assert a.inlined == b.inlined, (field, term)
                if a.extent is not None:
                    read, expected = blocks(mine, a), blocks(whooshs, b)
                    assert [data for _, data in read] == [data for _, data in expected], (field, term)
                    levels = [(summary[0], 0 if summary[0] == 1 else summary[3]) for summary, _ in expected]
                    assert [summary[:3] + summary[4:] for summary, _ in read] == [summary[:3] + summary[4:] for summary, _ in expected]
                    assert [(summary[0], summary[3]) for summary, _ in read] == levels
                    terms += 1
                    several += len(read) > 1
                    lone += levels == [(1, 0)]
        assert terms > 100 and several > 1 and 0 < lone < terms
    finally:
        ours.close()
        theirs.close()
