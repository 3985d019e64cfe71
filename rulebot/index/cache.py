"""The index's life in the user cache folder: found, checked, else built or updated, and put in place.

An index is built for one exact corpus content (its fingerprint) into a
temporary folder beside its final place, and renamed into place only when
complete: readers never see a half-built index, and two processes that build
at once both end up using one of the complete results. A damaged index
(missing or truncated files, a file whose checksum changed, unreadable
segments) is detected on opening and rebuilt with a warning; so is an index
written by another Whoosh than the one rulebot reads (its metadata records
the Whoosh release and rulebot's format that wrote it). When the cache
cannot be written, the index is built in memory instead.

Building is rulebot.index.build's, updating rulebot.index.update's: an `ask`
of a built index loads neither (nor Whoosh). Whoosh keeps its schema as a
pickle, which an update unpickles: so rulebot only ever opens an index it
built itself, in its own cache folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rulebot.corpus import files as corpus_files
from rulebot.errors import IndexBuildError, Problem, corpus_warning
from rulebot.index import sealed
from rulebot.index.opened import OpenIndex, SynonymFiles
from rulebot.index.reader import IndexReader
from rulebot.index.sealed import FORMAT, META_FILE
from rulebot.index.whoosh_format import INDEX_NAME, WHOOSH, release
from rulebot.language import everyday
from rulebot.places import display_path, user_dir
from rulebot.text import plural

STAMPS_FILE = ".corpus-stamps.json"
"""Beside the builds: the size, time and hash of each corpus file when last read (see corpus_files.fingerprint)."""
PARSED_DIR = ".parsed"
"""Beside the builds: each entries file as last parsed (see corpus.ParsedFiles)."""
IN_MEMORY_BYTES = 8 << 20
"""An index of at most this size is searched from memory (it is read whole anyway, to be checked)."""
STALE_SECONDS = 600
"""Leftover build folders older than this are removed; younger ones may be in use."""

Progress = Callable[[int, int], None]
Warn = Callable[[str], None]


def cache_root() -> Path:
    """Where indexes live: $RULEBOT_CACHE_DIR, else the user cache directory."""
    return user_dir("cache")


class _Foreign(str):
    """Why a sound index is not used: another Whoosh than the one rulebot reads wrote it."""


def open_index(
    dirs: Iterable[Path],
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> OpenIndex:
    """Open the index of a corpus, building it first if it is missing, stale, damaged or another Whoosh's.

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
            state = "cannot be used" if isinstance(problem, _Foreign) else "is damaged"
            note(f"the index at {target} {state} ({problem}); rebuilding it")
            rebuild = True  # replace the folder rather than reuse it
    # Building needs these; an `ask` of a built index does not load them.
    import shutil
    import tempfile

    from rulebot.corpus import load as corpus_module
    from rulebot.index.build import build_in_memory, write_index
    from rulebot.index.update import update_index

    if rebuild:  # from nothing: the files are parsed afresh too
        shutil.rmtree(home / PARSED_DIR, ignore_errors=True)
    kept = corpus_module.ParsedFiles(home / PARSED_DIR)
    corpus = corpus_module.load_usable(dirs, parsed=kept)
    try:
        home.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix=".build-", dir=home))
    except OSError as exc:
        note(f"cannot write the index cache at {home} ({exc.strerror or exc}); using an in-memory index")
        return build_in_memory(corpus, fingerprint, progress)
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
        return build_in_memory(corpus, fingerprint, progress)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    _prune(home, keep=target)
    if meta is not None:
        # Just hashed by seal(), and written by this process alone. Pruning the
        # earlier build unlinked the names it shared with this one (an update
        # links its files), which moved their change times: the stamps are
        # taken now, or every next `ask` would hash the index again. (When
        # another process's build won the swap, its files have other names:
        # nothing is recorded, and the check below verifies it.)
        with contextlib.suppress(OSError):
            sealed.record_verified(target, {name: sealed.stamp_of(target / name) for name in meta["files"]})
    opened, problem = _open_built(target, fingerprint)
    if opened is None:
        raise IndexBuildError(f"the index just built at {target} cannot be opened ({problem})")
    return OpenIndex(opened[0], opened[1], target, built=meta is not None)


# -- the cache folder ------------------------------------------------------


def _fingerprint(dirs: list[Path], home: Path) -> str:
    """The fingerprint of the corpus for this index format, Whoosh release and everyday vocabulary (which every
    game has); the corpus files' stamps are kept in the cache folder, so that unchanged files are not read again."""
    path = home / STAMPS_FILE
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    corpus_hash, stamps = corpus_files.fingerprint(dirs, known if isinstance(known, dict) else {})
    if stamps != known:
        with contextlib.suppress(OSError):  # a read-only cache only costs reading the files again
            home.mkdir(parents=True, exist_ok=True)
            sealed.write_json(path, stamps)
    return hashlib.sha256(f"format {FORMAT}, Whoosh {release(WHOOSH)}, words {everyday.digest()}\0{corpus_hash}".encode()).hexdigest()


def _key(dirs: list[Path]) -> str:
    """One cache folder per set of corpus folders."""
    joined = "\0".join(str(d) for d in dirs)
    return hashlib.sha256(joined.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _open_built(folder: Path, fingerprint: str) -> tuple[tuple[IndexReader, dict[str, Any]] | None, str | None]:
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
    if meta.get("whoosh") != release(WHOOSH):
        return None, _Foreign(f"it was written by Whoosh {meta.get('whoosh')}, and rulebot reads Whoosh {release(WHOOSH)}'s files")
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
    verified = sealed.verified_unchanged(folder, meta)
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
                stamps[name] = sealed.stamp_of(folder / name)
            if whole:
                data = contents[name] = (folder / name).read_bytes()
                actual = expected if verified else sealed.sha256_of(data)
            else:
                actual = sealed.sha256(folder / name)
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
        sealed.record_verified(folder, stamps)
    meta["synonym_tables"] = SynonymFiles(folder, meta.get("synonym_languages", []), contents)
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
