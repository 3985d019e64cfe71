"""The Whoosh index and its life in the user cache directory (its schema is in rulebot.index.schema).

An index is built for one exact corpus content (its fingerprint) into a
temporary folder beside its final place, and renamed into place only when
complete: readers never see a half-built index, and two processes that build
at once both end up using one of the complete results. A damaged index
(missing or truncated files, a file whose checksum changed, unreadable
segments) is detected on opening and rebuilt with a warning. When the cache
cannot be written, the index is built in memory instead.

Whoosh keeps its schema as a pickle, so rulebot only ever opens an index it
built itself, in its own cache directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebot import collector

from rulebot.language import analysis

from rulebot.corpus import files as corpus_files

from rulebot.language import quantities

from rulebot.index import segments

from rulebot.index import whoosh_api
from rulebot.places import display_path
from rulebot.errors import IndexBuildError, Problem, corpus_warning
from rulebot.index.reader import IndexReader
from rulebot.text import plural
from rulebot.places import user_dir

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (10 ms of a cold `ask`)
if TYPE_CHECKING:
    import threading

    from rulebot.corpus.model import Corpus, Entry
    from rulebot.index.whoosh_api import FileStorage, RamStorage

FORMAT = "17"
"""Bump when the schema or the stored payload changes: old indexes are then rebuilt."""

META_FILE = "rulebot-meta.json"
STAMPS_FILE = ".corpus-stamps.json"
"""Beside the builds: the size, time and hash of each corpus file when last read (see corpus_files.fingerprint)."""
PARSED_DIR = ".parsed"
"""Beside the builds: each entries file as last parsed (see corpus.ParsedFiles)."""
DIGESTS_FILE = "rulebot-digests.json"
"""A hash of each entry's document, kept apart from the metadata that every `ask` reads."""
VERIFIED_FILE = "rulebot-verified.json"
"""The stamp (size, times, inode) of each index file when its checksum was last verified (see _open_built)."""
ALL_GAMES = "*"
"""Key of the synonym table that merges every game's, in the index metadata."""
PARALLEL_FROM = 1000
"""From this many entries on, the index is built by two processes (a third faster at 1,000 entries)."""
MERGE_UPDATES_FROM = 8
"""An update merges the small segments that earlier updates added once there are this many (see _merge_updates)."""
IN_MEMORY_BYTES = 8 << 20
"""An index of at most this size is searched from memory (it is read whole anyway, to be checked)."""
STALE_SECONDS = 600
"""Leftover build folders older than this are removed; younger ones may be in use."""

Progress = Callable[[int, int], None]
Warn = Callable[[str], None]


def cache_root() -> Path:
    """Where indexes live: $RULEBOT_CACHE_DIR, else the user cache directory."""
    return user_dir("cache")


@dataclass
class OpenIndex:
    """An opened index with what rulebot stored beside it."""

    index: IndexReader
    """The index, open for reading."""
    meta: dict
    """The games' metadata and vocabulary, the fingerprint and the entry count."""
    path: Path | None
    """Its folder; None for an in-memory index."""
    built: bool = False
    """True when this call built it."""
    warnings: list[str] = field(default_factory=list)
    """What went wrong on the way and was worked around."""


def open_index(
    dirs: Iterable[Path],
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> OpenIndex:
    """Open the index of a corpus, building it first if it is missing, stale or damaged.

    The index holds the corpus's valid entries (see rulebot.corpus.load.load_usable),
    and the problems of the rest, told as one warning whenever it is opened.
    Raises CorpusError when the corpus has to be loaded and not one entry is valid.
    """
    warnings: list[str] = []

    def note(message: str) -> None:
        warnings.append(message)
        if warn is not None:
            warn(message)

    opened = _open_index([Path(d).resolve() for d in dirs], rebuild, progress, note)
    opened.warnings = warnings
    told = corpus_warning(
        [Problem(display_path(Path(path)), line, message) for path, line, message in opened.meta.get("problems", [])],
        opened.meta.get("left_out", []),
    )
    if told is not None:
        note(told)
    return opened


def _open_index(dirs: list[Path], rebuild: bool, progress: Progress | None, note: Warn) -> OpenIndex:
    home = cache_root() / "index" / _key(dirs)
    fingerprint = _fingerprint(dirs, home)
    target = home / fingerprint[:24]
    if not rebuild:
        opened, problem = _open_built(target, fingerprint)
        if problem is not None:
            # Another process may have swapped a new build in while this one was
            # checked (its files then seem missing or changed): look again.
            opened, problem = _open_built(target, fingerprint)
        if opened is not None:
            return OpenIndex(opened[0], opened[1], target)
        if problem is not None:
            note(f"the index at {target} is damaged ({problem}); rebuilding it")
            rebuild = True  # replace the damaged folder rather than reuse it
    # Building needs these; an `ask` of a built index does not load them.
    import shutil
    import tempfile

    from rulebot.corpus import load as corpus_module

    if rebuild:  # from nothing: the files are parsed afresh too
        shutil.rmtree(home / PARSED_DIR, ignore_errors=True)
    kept = corpus_module.ParsedFiles(home / PARSED_DIR)
    corpus = corpus_module.load_usable(dirs, parsed=kept)
    try:
        home.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix=".build-", dir=home))
    except OSError as exc:
        note(f"cannot write the index cache at {home} ({exc.strerror or exc}); using an in-memory index")
        return _build_in_memory(corpus, fingerprint, progress)
    try:
        base = None if rebuild else _latest_build(home, exclude=target)
        meta = update_index(workdir, base, corpus, fingerprint, progress) if base is not None else None
        if meta is None:
            _empty(workdir)
            meta = write_index(workdir, corpus, fingerprint, progress, meanwhile=kept.save)
        else:
            kept.save()
        _swap_in(workdir, target, replace=rebuild)
    except OSError as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        note(f"cannot write the index at {home} ({exc.strerror or exc}); using an in-memory index")
        return _build_in_memory(corpus, fingerprint, progress)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    _prune(home, keep=target)
    if meta is not None:
        # Just hashed by _seal, and written by this process alone. Pruning the
        # earlier build unlinked the names it shared with this one (an update
        # links its files), which moved their change times: the stamps are
        # taken now, or every next `ask` would hash the index again. (When
        # another process's build won the swap, its files have other names:
        # nothing is recorded, and the check below verifies it.)
        with contextlib.suppress(OSError):
            _record_verified(target, {name: _stamp_of(target / name) for name in meta["files"]})
    opened, problem = _open_built(target, fingerprint)
    if opened is None:
        raise IndexBuildError(f"the index just built at {target} cannot be opened ({problem})")
    return OpenIndex(opened[0], opened[1], target, built=meta is not None)


def write_index(folder: Path, corpus: Corpus, fingerprint: str, progress: Progress | None = None, meanwhile: Callable[[], None] | None = None) -> dict:
    """Write the index of a corpus into an empty folder, with its metadata file last.

    `meanwhile`: other work, done once, when a core is free (see _fill).
    """
    meta = _fill(whoosh_api.FileStorage(str(folder)), corpus, fingerprint, progress, meanwhile)
    _seal(folder, meta)
    return meta


def _seal(folder: Path, meta: dict, known: dict[str, str] | None = None) -> None:
    """Write the entry digests, record each file's size and hash, make them durable, then write the metadata file, last.

    Whoosh never flushes its files to disk: they are flushed here, so that an
    index whose metadata exists can no longer lose pages in a crash, and its
    files' stamps can vouch for their content (see _open_built and open_index).
    `known` holds the checksums of files already verified (an update's links
    to the earlier build), which are not read again.
    """
    digests = meta.pop("digests", None)
    if digests is not None:
        _write_json(folder / DIGESTS_FILE, digests)
    files = sorted(p for p in folder.iterdir() if not p.name.endswith("LOCK") and p.name not in (META_FILE, VERIFIED_FILE))
    meta["files"] = {p.name: p.stat().st_size for p in files}
    known = known or {}
    meta["sha256"] = {p.name: known.get(p.name) or _sha256(p) for p in files}
    for path in files:
        _fsync(path)
    with contextlib.suppress(OSError):  # not every system opens a folder to flush it (Windows)
        _fsync(folder)
    _write_json(folder / META_FILE, meta)


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _stamp_of(path: Path) -> list[int]:
    """What changes whenever a file is written, replaced or copied: size, modification and change times, inode."""
    info = path.stat()
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def _record_verified(folder: Path, stamps: dict[str, list[int]]) -> None:
    """Record the stamps the index's files had when their checksums were verified (taken before reading them)."""
    with contextlib.suppress(OSError):  # a read-only cache only costs checking the checksums again
        _write_json(folder / VERIFIED_FILE, stamps)


def _intact(folder: Path, meta: dict) -> bool:
    """True when every file of a sealed index still has its checksum (taken on trust when its stamp is unchanged)."""
    if _verified_unchanged(folder, meta):
        return True
    try:
        return all(_sha256(folder / name) == digest for name, digest in meta["sha256"].items())
    except (OSError, KeyError, AttributeError):
        return False


def _verified_unchanged(folder: Path, meta: dict) -> bool:
    """True when every index file still has the stamp it had when its checksum was verified.

    No write can leave all of a file's stamp as it was (its change time is
    set by the system), and the files were flushed to disk before the index
    was sealed: such files hold what their checksums were made of.
    """
    try:
        recorded = json.loads((folder / VERIFIED_FILE).read_text(encoding="utf-8"))
        return isinstance(recorded, dict) and recorded.keys() == meta["files"].keys() and all(
            recorded[name] == _stamp_of(folder / name) for name in recorded
        )
    except (OSError, ValueError):
        return False


def _memory_only() -> RamStorage:
    """A RamStorage whose scratch files stay in memory too.

    Whoosh's RamStorage writes a build's temporary files (sorted postings,
    columns) to the system temp folder: on a full disk the in-memory
    fallback would fail like the cache did.
    """

    class MemoryOnly(whoosh_api.RamStorage):
        def temp_storage(self, name: str | None = None) -> RamStorage:
            return MemoryOnly()

    return MemoryOnly()


def _build_in_memory(corpus: Corpus, fingerprint: str, progress: Progress | None) -> OpenIndex:
    storage = _memory_only()
    meta = _fill(storage, corpus, fingerprint, progress)
    return OpenIndex(IndexReader.open(None, INDEX_NAME, storage.files), meta, None, built=True)


def documents(corpus: Corpus, ids: Iterable[str] | None = None, terminal: bool = True) -> Iterator[tuple[str, Callable[[], dict]]]:
    """Each entry's (digest, document maker), in corpus order (or that of `ids`, when given).

    The digest covers everything the document is made from, so an update can
    skip an unchanged entry without paying for its rendering. Without
    `terminal`, the payload lacks the text rendered for the terminal (the
    site's search reads the rest).
    """
    modified_by = corpus.modified_by()
    referenced_by = corpus.referenced_by()
    for entry in corpus.entries.values() if ids is None else map(corpus.entries.__getitem__, ids):
        language = corpus.games[entry.game].language
        payload = entry_payload(corpus, entry, modified_by.get(entry.id, ()), referenced_by.get(entry.id, ()))
        yield _digest(language, payload), _maker(entry, language, payload, terminal)


def _maker(entry: Entry, language: str, payload: dict, terminal: bool = True) -> Callable[[], dict]:
    def make() -> dict:
        from rulebot.markdown import may_be_markup, to_terminal

        if terminal and may_be_markup(entry.text):  # a plain text (most) is made terminal text when shown, in microseconds
            payload["terminal"] = to_terminal(entry.text)
        payload["name_stems"] = [analysis.name_stems(name) for name in entry.names()]
        described = "\n".join([*entry.names(), entry.text])
        payload["counted"] = quantities.counted_stems(described)
        payload["player_counts"] = quantities.player_counts(described)
        return {
            "id": entry.id,
            "game": entry.game,
            "kind": entry.kind,
            "expansion": entry.expansion or "base",
            "house_rule": "yes" if payload["house_rule"] else None,  # what --official-only leaves out
            "title": entry.title,
            "names": "\n".join(entry.names()),
            "aliases": "\n".join(a.text for a in entry.aliases if a.lang != "fr"),
            "aliases_fr": "\n".join(a.text for a in entry.aliases if a.lang == "fr") or (entry.title if language == "fr" else ""),
            "asked": "\n".join(a.text for a in entry.asked if a.lang != "fr"),
            "asked_fr": "\n".join(a.text for a in entry.asked if a.lang == "fr"),
            "body": entry.text,
            "section": f"{entry.section}\n{entry.kind}",  # "setup", "errata": what the entry is, a weak hint too
            "data": payload,  # pickled as it is with the stored fields: no JSON to write or read
        }

    return make


def _digest(language: str, payload: dict) -> str:
    """A short hash of what an entry's document is made from: equal hashes, nothing to re-index.

    A document is made from the entry's payload (which holds every field of
    the entry) and its game's language.
    """
    # marshal's version 2 writes values only (the later versions add shared
    # references and interning flags, which vary from run to run), so equal
    # payloads give equal bytes; it is four times faster than JSON, and a
    # one-entry update hashes every entry. The payload is built in a fixed key
    # order, so its keys need no sorting.
    return hashlib.sha1(marshal.dumps((FORMAT, language, payload), 2)).hexdigest()[:20]


INDEX_NAME = "MAIN"
"""The name of the index within its storage (Whoosh's default)."""


@collector.paused()
def _fill(storage: FileStorage | RamStorage, corpus: Corpus, fingerprint: str, progress: Progress | None, meanwhile: Callable[[], None] | None = None) -> dict:
    """Write the index of a corpus into an empty storage: its segments, then the table of contents naming them.

    `meanwhile` is done once: by whichever process writing a part is done
    first, or after the one segment.
    """
    import sys

    from rulebot.index.schema import schema

    ids = list(corpus.entries)
    total = len(ids)
    digests: dict[str, str] = {}
    done, helper_done = 0, None  # entries written here, and by the helper process (in shared memory)
    shown = -1

    def report() -> None:
        nonlocal shown
        count = done + (helper_done.value if helper_done else 0)
        if progress is not None and count != shown:
            shown = count
            progress(count, total)

    def tick() -> None:
        nonlocal done
        done += 1
        if helper_done is None and (done % 500 == 0 or done == total):
            report()

    # Index builds are CPU-bound, and the machines rulebot runs on have two
    # cores or more: a large corpus is cut in two parts of about as much work,
    # and a forked helper process writes the second part as a segment of its
    # own while this one writes the first. Readers take the two segments in
    # order, as one index, whose documents are in corpus order as a single
    # segment's would be. Small corpora are not worth a process; forking is
    # left to Linux (macOS's system libraries are not safe to fork).
    if total < PARALLEL_FROM or not isinstance(storage, whoosh_api.FileStorage) or not sys.platform.startswith("linux"):
        written = [segments.write_segment(storage, schema(), INDEX_NAME, _made(corpus, ids, digests, tick))]
        if meanwhile is not None:
            meanwhile()
    else:
        import multiprocessing
        import threading

        first, second = _halves(corpus, ids)
        context = multiprocessing.get_context("fork")
        helper_done = context.RawValue("q", 0)
        spare = _first_done(context, meanwhile)
        receiver, sender = context.Pipe(duplex=False)
        helper = context.Process(target=_write_part, args=(storage, corpus, second, helper_done, spare, receiver, sender), daemon=True)
        helper.start()
        sender.close()
        # Progress is told from a thread (started after the fork): this
        # process spends seconds writing its part's postings while the
        # helper is still adding documents.
        reporting, failed = threading.Event(), []
        reporter = threading.Thread(target=_every, args=(0.2, report, reporting, failed), daemon=True)
        reporter.start()
        try:
            written = [segments.write_segment(storage, schema(), INDEX_NAME, _made(corpus, first, digests, tick))]
            spare()
            outcome = receiver.recv()  # once the helper is done
        except EOFError:  # the helper died without a word
            helper.join()
            outcome = IndexBuildError(f"the helper process writing the index ended abruptly (exit code {helper.exitcode})")
        except BaseException:
            helper.terminate()
            raise
        finally:
            reporting.set()
            reporter.join()
            helper.join()
            receiver.close()
        if failed:
            raise failed[0]  # telling the progress failed (a closed terminal): as it fails without a thread
        if isinstance(outcome, BaseException):
            raise outcome
        written.append(outcome[0])
        digests.update(outcome[1])
    if total:
        report()  # the end: total of total (if not told yet)
    whoosh_api.index.TOC(schema(), written, 0).write(storage, INDEX_NAME)
    storage.temp_storage(f"{INDEX_NAME}.tmp").destroy()  # the scratch folder the segments' columns were written in
    return _meta(corpus, fingerprint, digests)


def _every(seconds: float, work: Callable[[], None], stop: threading.Event, failed: list[Exception]) -> None:
    """Do some work every few seconds until stopped, or until it fails (the error is put in `failed`)."""
    while not stop.wait(seconds):
        try:
            work()
        except Exception as exc:
            failed.append(exc)
            return


def _halves(corpus: Corpus, ids: list[str]) -> tuple[list[str], list[str]]:
    """Entry ids cut in two runs of about as much work: an entry's is about its text's length and 200 characters more."""
    import bisect
    import itertools

    sizes = list(itertools.accumulate(len(corpus.entries[i].text) + 200 for i in ids))
    cut = bisect.bisect_left(sizes, sizes[-1] / 2)
    return ids[:cut], ids[cut:]


def _made(corpus: Corpus, ids: list[str], digests: dict[str, str], tick: Callable[[], None]) -> Iterator[dict]:
    """The documents of some entries, in order; records each one's digest and ticks once it is written."""
    for entry_id, (digest, make) in zip(ids, documents(corpus, ids)):
        digests[entry_id] = digest
        yield make()
        tick()


def _first_done(context, work: Callable[[], None] | None) -> Callable[[], None]:
    """What each process of a parallel build calls once its part is written: the work is done by the first to call."""
    claimed = context.Value("b", 0)

    def spare() -> None:
        with claimed.get_lock():
            first, claimed.value = not claimed.value, 1
        if first and work is not None:
            work()

    return spare


def _write_part(storage: FileStorage, corpus: Corpus, ids: list[str], done, spare: Callable[[], None], parent_end, connection) -> None:
    """The helper process of _fill: write some entries as a segment, do the spare work if first,
    and send back (segment, digests) or the error."""
    from rulebot.index.schema import schema

    parent_end.close()  # this process's copy: once the parent is gone, sending fails instead of waiting for ever
    try:
        digests: dict[str, str] = {}
        parent = os.getppid()

        def tick() -> None:
            done.value += 1
            if done.value % 100 == 0 and os.getppid() != parent:
                raise IndexBuildError("the build was abandoned")  # its process was killed: no use going on

        segment = segments.write_segment(storage, schema(), INDEX_NAME, _made(corpus, ids, digests, tick))
        spare()
        connection.send((segment, digests))
    except BaseException as exc:  # raised by the parent (an OSError there means "use memory")
        failure = exc if isinstance(exc, OSError) else IndexBuildError(f"the helper process writing the index failed: {exc!r}")
        with contextlib.suppress(OSError):  # the parent is gone
            connection.send(failure)


def _meta(corpus: Corpus, fingerprint: str, digests: dict[str, str]) -> dict:
    from collections import Counter

    entries = Counter(e.game for e in corpus.entries.values())
    return {
        "format": FORMAT,
        "fingerprint": fingerprint,
        "count": len(corpus.entries),
        "built_at": time.time(),
        "games": {slug: game_payload(corpus, slug, entries.get(slug, 0)) for slug in corpus.games},
        "synonym_tables": {
            # per question language: French questions also use the French words of each vocabulary
            language: {
                **{slug: analysis.encode_synonyms(analysis.synonym_table(groups(g))) for slug, g in corpus.games.items()},
                ALL_GAMES: analysis.encode_synonyms(analysis.synonym_table([s for g in corpus.games.values() for s in groups(g)])),
            }
            for language, groups in (("en", lambda g: g.synonyms), ("fr", lambda g: g.synonyms + g.french))
        },
        "digests": digests,
        # Told whenever the index is opened: a later `ask` does not load the corpus to find them.
        "problems": [[p.path if os.path.isabs(p.path) else str(Path.cwd() / p.path), p.line, p.message] for p in corpus.problems],
        "left_out": corpus.left_out,
    }


def update_index(folder: Path, base: Path, corpus: Corpus, fingerprint: str, progress: Progress | None = None) -> dict | None:
    """Bring a copy of an earlier build up to date in an empty folder: only changed entries are re-indexed.

    The earlier build's files are hard-linked (Whoosh never rewrites a
    segment: it adds new ones and a new table of contents), so this costs
    about as much as the entries that changed. None when the earlier build
    cannot serve (another format, unreadable) or so much changed that a new
    build is faster: the caller builds afresh.
    """
    import shutil

    try:
        old = json.loads((base / META_FILE).read_text(encoding="utf-8"))
        old_digests = json.loads((base / DIGESTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(old, dict) or old.get("format") != FORMAT or not isinstance(old_digests, dict):
        return None
    digests, makers = {}, []
    for entry_id, (digest, make) in zip(corpus.entries, documents(corpus)):
        digests[entry_id] = digest
        if old_digests.get(entry_id) != digest:
            makers.append(make)
    if len(makers) > len(digests) / 5:
        return None  # Whoosh's writer re-indexes an entry three times slower than a new build does
    if not _intact(base, old):
        return None  # damage in the earlier build must not be carried into this one
    linked = {}  # the checksums of the files linked, which _intact has just verified
    for path in base.iterdir():
        if path.name in (META_FILE, DIGESTS_FILE, VERIFIED_FILE) or path.name.endswith("LOCK"):
            continue
        try:
            os.link(path, folder / path.name)
            linked[path.name] = old["sha256"].get(path.name)
        except OSError:
            shutil.copy2(path, folder / path.name)
    index = whoosh_api.index.open_dir(str(folder))
    changed = [make() for make in makers]
    removed = [i for i in old_digests if i not in digests]
    writer = index.writer()
    try:
        for entry_id in removed:
            writer.delete_by_term("id", entry_id)
        for number, document in enumerate(changed, 1):
            writer.update_document(**document)
            if progress is not None:
                progress(number, len(changed))
    except BaseException:
        with contextlib.suppress(Exception):
            writer.cancel()
        raise
    writer.commit(mergetype=_merge_updates)
    index.close()
    meta = _meta(corpus, fingerprint, digests)
    meta["updated"] = {"changed": len(changed), "removed": len(removed)}
    _seal(folder, meta, known=linked)
    return meta


def _merge_updates(writer, segments: list) -> list:
    """Whoosh's merge policy for updates: the segments of earlier updates are merged into one once there are several.

    Each update adds a segment of the entries it re-indexed, and every search
    opens every segment. The build's own large segments are never merged (that
    would cost a build): "small" is a tenth of the index or less, or so few
    entries that merging them costs nothing.
    """
    limit = max(sum(segment.doc_count_all() for segment in segments) // 10, 100)
    small = [segment for segment in segments if segment.doc_count_all() <= limit]
    if len(small) < MERGE_UPDATES_FROM:
        return segments
    for segment in small:
        reader = whoosh_api.SegmentReader(writer.storage, writer.schema, segment)
        writer.add_reader(reader)  # its live documents only: what was deleted or replaced is dropped
        reader.close()
    return [segment for segment in segments if segment not in small]


def entry_payload(corpus: Corpus, entry: Entry, modified_by: Iterable[str] = (), referenced_by: Iterable[str] = ()) -> dict:
    """The JSON object of an entry, as `ask`, `show` and `list` print it."""
    game = corpus.games[entry.game]
    source = game.source(entry.source)

    def ref(entry_id: str) -> dict:
        other = corpus.entries.get(entry_id)
        if other is None:
            return {"id": entry_id, "title": entry_id}
        return {"id": other.id, "title": other.title, "game": other.game, "expansion": other.expansion, "house_rule": corpus.is_house_rule(other)}

    expansion = game.expansion(entry.expansion) if entry.expansion else None
    return {
        "id": entry.id,
        "game": entry.game,
        "game_name": game.name,
        "kind": entry.kind,
        "title": entry.title,
        "expansion": entry.expansion,
        "expansion_name": expansion.name if expansion else None,
        "source": {
            "document": entry.source,
            "title": source.title if source else entry.source,
            "edition": source.edition if source else "",
            "date": source.date if source else None,
            "trust": source.trust if source else None,
            "section": entry.section,
        },
        "text": entry.text,
        "aliases": [{"text": a.text, "lang": a.lang} for a in entry.aliases],
        "asked": [{"text": a.text, "lang": a.lang} for a in entry.asked],
        "see_also": list(entry.see_also),
        "see_also_refs": [ref(i) for i in entry.see_also],
        "modifies": [ref(i) for i in entry.modifies],
        "modified_by": [ref(i) for i in modified_by],
        "referenced_by": list(referenced_by),
        "revised": entry.revised,
        "draft": entry.draft,
        "house_rule": corpus.is_house_rule(entry),
    }


def game_payload(corpus: Corpus, slug: str, entries: int) -> dict:
    """What a search needs to know of a game (which has that many entries), without loading the corpus."""
    game = corpus.games[slug]
    return {
        "slug": game.slug,
        "name": game.name,
        "language": game.language,
        "aliases": [game.name, *game.aliases],
        "expansions": [{"slug": e.slug, "name": e.name} for e in game.expansions],
        "synonyms": [list(group) for group in game.synonyms],
        "terms": list(game.terms),
        "entries": entries,
    }


# -- the cache folder ------------------------------------------------------


def _fingerprint(dirs: list[Path], home: Path) -> str:
    """The fingerprint of the corpus for this index format; the corpus files' stamps
    are kept in the cache folder, so that unchanged files are not read again."""
    path = home / STAMPS_FILE
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    corpus_hash, stamps = corpus_files.fingerprint(dirs, known if isinstance(known, dict) else {})
    if stamps != known:
        with contextlib.suppress(OSError):  # a read-only cache only costs reading the files again
            home.mkdir(parents=True, exist_ok=True)
            _write_json(path, stamps)
    return hashlib.sha256(f"format {FORMAT}\0{corpus_hash}".encode()).hexdigest()


def _key(dirs: list[Path]) -> str:
    """One cache folder per set of corpus folders."""
    joined = "\0".join(str(d) for d in dirs)
    return hashlib.sha256(joined.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _open_built(folder: Path, fingerprint: str) -> tuple[tuple[IndexReader, dict] | None, str | None]:
    """(index, meta) if the folder holds a sound index of this fingerprint; else why not (None if absent)."""
    meta_path = folder / META_FILE
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):
        if folder.is_dir():
            return None, "its metadata file is missing"
        # Something else in the index's place would block every build after this one.
        return None, ("it is not a folder" if folder.is_symlink() or folder.exists() else None)
    except (OSError, ValueError) as exc:
        return None, f"unreadable metadata: {exc}"
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("fingerprint") != fingerprint:
        return None, "its metadata does not match the corpus"
    for name, size in meta.get("files", {}).items():
        try:
            actual = (folder / name).stat().st_size
        except OSError:
            return None, f"file {name} is missing"
        if actual != size:
            return None, f"file {name} has {actual} bytes instead of {size}"
    # Sizes miss damage that keeps them: a flipped bit, a page of zeros from a
    # copy or a write outside rulebot. Such a segment can make searches fail
    # or rank wrongly long after opening, so every file's checksum is verified
    # before use, unless none of the files changed since it last was.
    checksums = meta.get("sha256")
    if not isinstance(checksums, dict) or set(checksums) != set(meta.get("files", {})):
        return None, "its metadata has no checksums"
    verified = _verified_unchanged(folder, meta)
    # A small index is read whole and searched from memory: a term is read in
    # several small reads, each far cheaper from memory.
    whole = sum(meta.get("files", {}).values()) <= IN_MEMORY_BYTES
    contents: dict[str, bytes] = {}
    stamps: dict[str, list[int]] = {}
    for name, expected in checksums.items():
        if verified and not whole:
            break
        try:
            if not verified:  # before reading: a later change must not pass for checked
                stamps[name] = _stamp_of(folder / name)
            if whole:
                data = contents[name] = (folder / name).read_bytes()
                actual = expected if verified else _sha256_of(data)
            else:
                actual = _sha256(folder / name)
        except OSError:
            return None, f"file {name} is unreadable"
        if actual != expected:
            return None, f"file {name} does not match its checksum"
    try:
        index = IndexReader.open(folder, INDEX_NAME, contents)
    except Exception as exc:  # damaged files fail in many ways
        return None, f"it cannot be read: {type(exc).__name__}"
    count = index.doc_count()
    if count != meta.get("count"):
        index.close()
        return None, f"it holds {plural(count, 'entry', 'entries')} instead of {meta.get('count')}"
    if not verified:
        _record_verified(folder, stamps)
    return (index, meta), None


def _latest_build(home: Path, exclude: Path) -> Path | None:
    """The most recent finished build of this corpus folder set, to update rather than rebuild."""
    try:
        builds = [p for p in home.iterdir() if p != exclude and not p.name.startswith(".") and (p / META_FILE).is_file()]
    except OSError:
        return None
    return max(builds, key=lambda p: (p / META_FILE).stat().st_mtime, default=None)


def _empty(folder: Path) -> None:
    import shutil

    for path in folder.iterdir():
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def _swap_in(workdir: Path, target: Path, *, replace: bool) -> None:
    """Rename a complete build into place; keep a concurrent builder's result if it won."""
    import shutil

    if replace and target.exists():
        retired = target.with_name(f".old-{target.name}-{os.getpid()}-{time.monotonic_ns()}")
        try:
            target.rename(retired)
        except FileNotFoundError:
            pass
    try:
        workdir.rename(target)
    except OSError:
        if not target.is_dir():
            raise
        shutil.rmtree(workdir, ignore_errors=True)  # another process finished first


def _prune(home: Path, keep: Path) -> None:
    """Remove other builds: old fingerprints now, leftovers of dead builds once stale."""
    import shutil

    now = time.time()
    for child in home.iterdir():
        if child == keep or child.name in (STAMPS_FILE, PARSED_DIR):
            continue
        try:
            info = child.lstat()
        except OSError:
            continue
        if child.name.startswith((".build-", ".old-")) and now - info.st_mtime <= STALE_SECONDS:
            continue  # possibly a build in progress, or a reader still on it
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sha256(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # processes may write the same file at once
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
