"""The index lifecycle: first use, change detection, damage, read-only caches, concurrency."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL

from rulebot.index import cache as index_module
from rulebot.index import sealed
from rulebot.index.cache import open_index
from rulebot.index.reader import IndexReader
from rulebot.index.sealed import META_FILE
from rulebot.index.update import MERGE_UPDATES_FROM
from rulebot.index.whoosh_format import IndexFormatError
from rulebot.search.ranking import Searcher
from rulebot.search.scoring import BM25F


def top_id(opened, question: str) -> str:
    with Searcher(opened) as searcher:
        return searcher.ask(question).results[0].id


class TestFirstUse:
    def test_builds_then_reuses(self, fresh_cache: Path):
        """The first open builds the index in the cache; the second reuses it."""
        first = open_index([MINIMAL])
        assert first.built and first.path is not None and first.path.is_relative_to(fresh_cache)
        second = open_index([MINIMAL])
        assert not second.built and second.path == first.path

    def test_progress_is_reported(self, fresh_cache: Path):
        """A build reports its progress, ending at the entry count."""
        seen = []
        open_index([MINIMAL], progress=lambda done, total: seen.append((done, total)))
        assert seen[-1] == (6, 6)

    def test_rebuild_replaces(self, fresh_cache: Path):
        """--rebuild builds a new index even when one is up to date, and it works."""
        open_index([MINIMAL])
        again = open_index([MINIMAL], rebuild=True)
        assert again.built
        assert top_id(again, "ferry gull") == "lh-ferry-gull"

    def test_no_leftover_build_folders(self, fresh_cache: Path):
        """After a build, only the finished index folder remains (and the corpus files' stamps)."""
        opened = open_index([MINIMAL])
        names = {p.name for p in opened.path.parent.iterdir()}
        assert opened.path.name in names and names <= {opened.path.name, index_module.STAMPS_FILE, index_module.PARSED_DIR}


class TestChanges:
    def test_edit_triggers_rebuild(self, fresh_cache: Path, minimal_copy: Path):
        """Editing an entry rebuilds the index, and answers follow the edit."""
        open_index([minimal_copy])
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("Ferry Gull", "Harbor Heron"), encoding="utf-8")
        opened = open_index([minimal_copy])
        assert opened.built
        assert top_id(opened, "harbor heron") == "lh-ferry-gull"

    def test_other_everyday_words_rebuild(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
        """The everyday words every game has are built into the index (its synonym tables): a release with other
        ones builds it again."""
        from rulebot.language import everyday

        open_index([MINIMAL])
        monkeypatch.setattr(everyday, "digest", lambda: "another release")
        assert open_index([MINIMAL]).built

    def test_old_build_is_pruned(self, fresh_cache: Path, minimal_copy: Path):
        """The index of the previous corpus content is removed once a new one is built."""
        first = open_index([minimal_copy])
        (minimal_copy / "lantern-harbor" / "rulebook.md").write_text(
            (minimal_copy / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8") + "\nMore text.\n",
            encoding="utf-8",
        )
        second = open_index([minimal_copy])
        assert second.path != first.path and not first.path.exists()


class TestDamage:
    # Whoosh leaves a damaged segment's file handle to the garbage collector.
    @pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
    @pytest.mark.parametrize("damage", ["truncate", "zero", "delete-segment", "garble-meta", "delete-meta"])
    def test_damaged_index_is_rebuilt_with_a_warning(self, fresh_cache: Path, damage: str):
        """A damaged index is detected on opening and rebuilt, with a warning."""
        opened = open_index([MINIMAL])
        folder = opened.path
        segment = max((p for p in folder.iterdir() if p.suffix == ".seg"), key=lambda p: p.stat().st_size)
        if damage == "truncate":
            segment.write_bytes(segment.read_bytes()[: segment.stat().st_size // 2])
        elif damage == "zero":
            segment.write_bytes(b"\0" * segment.stat().st_size)
        elif damage == "delete-segment":
            segment.unlink()
        elif damage == "garble-meta":
            (folder / META_FILE).write_text("{not json", encoding="utf-8")
        else:
            (folder / META_FILE).unlink()
        warnings: list[str] = []
        again = open_index([MINIMAL], warn=warnings.append)
        assert again.built
        assert top_id(again, "lantern keeper") == "lh-lantern-keeper"
        if damage != "zero":  # same size, so only a failing search can reveal zeroed bytes
            assert warnings and "damaged" in warnings[0]

    def test_read_only_cache_falls_back_to_memory(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """When the cache cannot be written, the index is built in memory with a warning."""
        if os.geteuid() == 0:
            blocker = tmp_path / "file"
            blocker.write_text("not a folder")
            monkeypatch.setenv("RULEBOT_CACHE_DIR", str(blocker / "cache"))  # root ignores modes
        else:
            cache = tmp_path / "ro"
            cache.mkdir(mode=0o500)
            monkeypatch.setenv("RULEBOT_CACHE_DIR", str(cache))
        warnings: list[str] = []
        opened = open_index([MINIMAL], warn=warnings.append)
        assert opened.path is None
        assert "in-memory" in warnings[0]
        assert top_id(opened, "ferry gull") == "lh-ferry-gull"


class TestWhooshRelease:
    """An index records the Whoosh release that wrote it (its table of contents, and rulebot's metadata): rulebot
    reads the files of its pinned release only."""

    @staticmethod
    def written_by(folder: Path, release: tuple[int, int, int], *, toc: bool = True, meta: bool = True) -> None:
        """Make a built index look written by another Whoosh release, its checksums kept right."""
        import hashlib

        from test_whoosh_format import toc_of_release

        recorded = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        if toc:
            path = max(folder.glob("_MAIN_*.toc"))
            path.write_bytes(toc_of_release(path.read_bytes(), release))
            recorded["sha256"][path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        if meta:
            recorded["whoosh"] = ".".join(map(str, release))
        (folder / META_FILE).write_text(json.dumps(recorded), encoding="utf-8")
        (folder / sealed.VERIFIED_FILE).unlink()

    @pytest.mark.parametrize("where", ["both", "toc"])
    def test_an_index_of_another_whoosh_is_rebuilt_with_a_warning(self, fresh_cache: Path, where: str):
        folder = open_index([MINIMAL]).path
        self.written_by(folder, (2, 7, 4), meta=where == "both")
        warnings: list[str] = []
        again = open_index([MINIMAL], warn=warnings.append)
        assert again.built and again.meta["whoosh"] == "2.7.5"
        assert top_id(again, "lantern keeper") == "lh-lantern-keeper"
        if where == "both":
            assert warnings == [f"the index at {folder} cannot be used (it was written by Whoosh 2.7.4, and rulebot reads Whoosh 2.7.5's files); rebuilding it"]
        else:  # the metadata says otherwise: damage
            assert len(warnings) == 1 and "is damaged" in warnings[0]

    def test_an_update_never_starts_from_an_index_of_another_whoosh(self, fresh_cache: Path, minimal_copy: Path):
        folder = open_index([minimal_copy]).path
        self.written_by(folder, (2, 7, 4))
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        opened = open_index([minimal_copy])
        assert opened.built and "updated" not in opened.meta
        assert top_id(opened, "stormy dock") == "lh-ferry-gull"

    def test_another_whoosh_installed_builds_nothing(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
        import whoosh

        from rulebot.errors import IndexBuildError

        monkeypatch.setattr(whoosh, "__version__", (2, 7, 6))
        with pytest.raises(IndexBuildError, match=r"^rulebot writes its index with Whoosh-Reloaded 2\.7\.5, and 2\.7\.6 is installed$"):
            open_index([MINIMAL])


def test_concurrent_first_use(fresh_cache: Path):
    """Six processes started at once on an empty cache all answer correctly."""
    env = dict(os.environ, RULEBOT_CACHE_DIR=str(fresh_cache))
    command = [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(MINIMAL), "ask", "--json", "ferry", "gull"]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(6)]
    outputs = [p.communicate(timeout=120) for p in processes]
    for process, (out, err) in zip(processes, outputs):
        assert process.returncode == 0, err
        assert json.loads(out)["results"][0]["id"] == "lh-ferry-gull"
    home = next((fresh_cache / "index").iterdir())
    assert len([p for p in home.iterdir() if not p.name.startswith(".")]) == 1


class TestUpdate:
    def test_one_edit_reindexes_only_that_entry(self, fresh_cache: Path, minimal_copy: Path):
        """Editing one entry's text re-indexes that entry alone, and answers follow the edit."""
        open_index([minimal_copy])
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        opened = open_index([minimal_copy])
        assert opened.meta["updated"] == {"changed": 1, "removed": 0}
        assert top_id(opened, "stormy dock") == "lh-ferry-gull"

    def test_entries_stay_in_corpus_order_after_an_update(self, fresh_cache: Path, minimal_copy: Path):
        """An entry re-indexed by an update is listed where the corpus has it (`rulebot list`, Library.rulings), not
        last, where the update wrote it."""
        from rulebot.search.ranking import Searcher

        with Searcher(open_index([minimal_copy])) as searcher:
            before = [p["id"] for p in searcher.entries()]
        assert before.index("lh-ferry-gull") < len(before) - 1  # (not last already: else the test could not fail)
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        opened = open_index([minimal_copy])
        assert opened.meta["updated"] == {"changed": 1, "removed": 0}
        with Searcher(opened) as searcher:
            assert [p["id"] for p in searcher.entries()] == before
            assert [p["id"] for p in searcher.entries(game="lantern-harbor")] == [i for i in before if i.startswith("lh-")]

    def test_the_next_ask_after_an_update_hashes_nothing(self, fresh_cache: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """An update links the earlier build's files, and removing that build moves their change times: the stamps are
        recorded after it, so the next `ask` trusts them rather than hashing the whole index again."""
        open_index([minimal_copy]).index.close()
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        assert open_index([minimal_copy]).meta["updated"]["changed"] == 1
        hashed: list[str] = []
        monkeypatch.setattr(sealed, "sha256", lambda path: hashed.append(path.name) or "")
        monkeypatch.setattr(sealed, "sha256_of", lambda data: hashed.append("bytes") or "")
        again = open_index([minimal_copy])
        assert not again.built and hashed == []
        assert top_id(again, "stormy dock") == "lh-ferry-gull"

    def test_many_updates_keep_few_segments(self, fresh_cache: Path, minimal_copy: Path):
        """Each update adds a segment, and every search opens them all: past a few, they are merged, and the merged
        index answers as the edits say (old text gone, new text found, no entry twice)."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        original = rules.read_text(encoding="utf-8")
        open_index([minimal_copy]).index.close()
        words = "quartz garnet jasper topaz onyx beryl cobalt zircon pyrite galena mica gypsum fluorite agate basalt slate".split()
        assert len(words) >= 2 * MERGE_UPDATES_FROM
        for word in words:
            rules.write_text(original.replace("even an occupied one", f"even a {word} one"), encoding="utf-8")
            opened = open_index([minimal_copy])
            assert opened.meta["updated"] == {"changed": 1, "removed": 0}
            assert len([p for p in opened.path.iterdir() if p.suffix == ".seg"]) <= MERGE_UPDATES_FROM
            opened.index.close()
        assert opened.index.doc_count() == 6
        with Searcher(open_index([minimal_copy])) as searcher:
            assert [h.id for h in searcher.ask(words[-1]).results] == ["lh-ferry-gull"]
            assert [h.id for h in searcher.ask(words[0]).results] == []
            assert [h.id for h in searcher.ask("ferry gull").results].count("lh-ferry-gull") == 1

    def test_an_update_hashes_only_the_files_it_wrote(self, fresh_cache: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """The earlier build's files, linked into the update, were just verified: their checksums are carried over."""
        first = open_index([minimal_copy])
        first.index.close()
        earlier = json.loads((first.path / META_FILE).read_text(encoding="utf-8"))["sha256"]
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        real = sealed.sha256
        hashed: list[str] = []
        monkeypatch.setattr(sealed, "sha256", lambda path: hashed.append(path.name) or real(path))
        opened = open_index([minimal_copy])
        assert opened.meta["updated"]["changed"] == 1
        linked = {name for name in earlier if not sealed.written_when_sealed(name)}  # the digests and synonyms are written anew
        assert hashed and not set(hashed) & linked
        assert set(opened.meta["sha256"]) - set(hashed) <= linked

    def test_removed_entry_is_gone(self, fresh_cache: Path, minimal_copy: Path):
        """An entry deleted from the corpus is deleted from the updated index."""
        open_index([minimal_copy])
        faq = minimal_copy / "lantern-harbor" / "tides-faq.md"
        text = faq.read_text(encoding="utf-8")
        faq.write_text(text[: text.index("## lh-tides-whirlpool")], encoding="utf-8")
        opened = open_index([minimal_copy])
        assert opened.meta["updated"]["removed"] == 1
        assert opened.index.doc_count() == 5
        with Searcher(opened) as searcher:
            assert "lh-tides-whirlpool" not in [h.id for h in searcher.ask("whirlpool cargo").results]

    def test_rebuild_ignores_the_earlier_build(self, fresh_cache: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """--rebuild always indexes every entry afresh, from every file parsed afresh."""
        from rulebot.corpus import load as corpus

        open_index([minimal_copy])
        parsed: list[str] = []
        real = corpus.parse_file
        monkeypatch.setattr(corpus, "parse_file", lambda path, *args: parsed.append(path.name) or real(path, *args))
        assert "updated" not in open_index([minimal_copy], rebuild=True).meta
        assert sorted(parsed) == ["rulebook.md", "tides-faq.md"]


class TestReaderOfBytes:
    """An index read from bytes (IndexReader.open(contents=...)), which no checksum vouches for: damaged bytes
    are an IndexFormatError wherever they are read, never a raw zlib, struct or pickle error; a document number
    out of range is an IndexError."""

    @staticmethod
    def contents() -> dict[str, bytes]:
        folder = open_index([MINIMAL]).path
        assert folder is not None
        return {p.name: p.read_bytes() for p in folder.iterdir() if p.name.startswith("_MAIN_") or p.name.startswith("MAIN_")}

    @staticmethod
    def read_all(reader: IndexReader) -> None:
        """Everything an answer reads: the terms, every term's postings and positions, every payload, every field's lengths."""
        for field in ("names", "title", "body", "aliases", "id", "game"):
            for term in reader.lexicon(field):
                postings = reader.postings(field, term.decode("utf-8", "replace"))  # a flipped bit may leave a term no UTF-8
                for block in postings.blocks():
                    list(block.weights)
                if field != "id" and field != "game":  # fields with positions
                    postings.positions(set(range(reader.doc_count_all())))
            for docnum in range(reader.doc_count_all()):
                reader.field_length(docnum, field)
        for docnum in reader.docnums():
            reader.payload(docnum)

    def test_sound_bytes_read_whole(self, fresh_cache: Path):
        reader = IndexReader.open(None, "MAIN", self.contents())
        self.read_all(reader)
        assert reader.doc_count() == 6

    @pytest.mark.parametrize(
        "damage",
        ["table of contents cut", "segment cut", "segment's end zeroed", "segment missing", *[f"bits flipped {n}" for n in range(12)]],
    )
    def test_damaged_bytes_are_an_index_format_error(self, fresh_cache: Path, damage: str):
        contents = self.contents()
        (toc,) = [name for name in contents if name.endswith(".toc")]
        (segment,) = [name for name in contents if name.endswith(".seg")]
        data = bytearray(contents[segment])
        if damage == "table of contents cut":
            contents[toc] = contents[toc][: len(contents[toc]) * 3 // 4]
        elif damage == "segment cut":
            contents[segment] = bytes(data[: len(data) * 3 // 4])
        elif damage == "segment's end zeroed":
            contents[segment] = bytes(data[:-200]) + bytes(200)
        elif damage == "segment missing":
            del contents[segment]
        else:
            rng = random.Random(damage)
            for _ in range(4):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            contents[segment] = bytes(data)
        try:
            self.read_all(IndexReader.open(None, "MAIN", contents))
        except IndexFormatError as exc:
            assert str(exc)  # a message of its own, one line
            assert "\n" not in str(exc)
        # (a flip in bytes no read looks at, or in a value's text, can leave the index readable: no error then)

    def test_a_damaged_block_whose_error_spans_lines_is_one_line(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
        """An unpickler's message can hold a line break ("... was encountered,\nbut no persistent_load ..."): which
        bytes a flipped bit lands in depends on how zlib deflated them, so it is made here, not left to chance."""
        import pickle

        from rulebot.index import whoosh_format

        def broken(_data: bytes):
            raise pickle.UnpicklingError("A load persistent id instruction was encountered,\nbut no persistent_load function was specified.")
            yield  # a generator, as posting_blocks is

        monkeypatch.setattr(whoosh_format, "posting_blocks", broken)
        with pytest.raises(IndexFormatError) as raised:
            self.read_all(IndexReader.open(None, "MAIN", self.contents()))
        assert str(raised.value).startswith("damaged postings (UnpicklingError: A load persistent id instruction was encountered, but")
        assert "\n" not in str(raised.value)

    def test_a_document_number_out_of_range_is_an_index_error(self, fresh_cache: Path):
        """A negative number no longer counts from the end (another document's length), in the reader or the scorer."""
        reader = IndexReader.open(None, "MAIN", self.contents())
        count = reader.doc_count_all()
        for docnum in (-1, -count, count, count + 5):
            with pytest.raises(IndexError):
                reader.field_length(docnum, "body")
            with pytest.raises(IndexError):
                BM25F(reader).stored_length(docnum, "body")
            with pytest.raises(IndexError):
                reader.payload(docnum)
        assert reader.field_length(0, "body") == BM25F(reader).stored_length(0, "body")
