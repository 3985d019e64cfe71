"""Which files make a corpus, reading them safely, the corpus fingerprint, and the files `rulebot review` keeps
of a walk through an entries file's drafts (which importing again reads too: a draft being edited is the curator's).

Every `ask` needs the corpus fingerprint (it names the index to open), not
the corpus itself: this module has what that takes, without the loader and
its checks (rulebot.corpus.load), so answering does not load them.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rulebot.places import escaped_name, is_undecodable, shipped_corpus_dir, user_dir

GAME_FILE = "game.toml"
SETUP_FILE = "setup.toml"
"""In a game folder: the game's setup as data (rulebot.corpus.setup_toml)."""
VOCABULARY_FILE = "vocabulary.toml"
"""At a corpus folder's top: synonyms shared by every game of that folder."""
TomlTable = dict[str, Any]
"""A table of those TOML files as tomllib parses it: its values are of any TOML type until checked where read."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Larger corpus files are refused rather than read: a whole rulebook's entries take a few hundred KB
(corpus/README.md); the config file has the same limit."""
CORPUS_ENV = "RULEBOT_CORPUS"
"""A path list of corpus folders to add, like repeated `--corpus`."""
SETTLED_NS = 2_000_000_000
"""A file written this shortly before its stamp was taken may change again within the
same timestamp tick (coarse on some file systems): such a stamp is not trusted."""

Stamps = dict[str, list[int | str]]
"""Per file path: [size, mtime_ns, inode, sha256 of the content] when it was last read."""


USER_CORPUS = "corpus"
"""In the user data directory: the corpus folder of the user's own additions (games, house rules)."""


def user_corpus_dir() -> Path:
    """The user's own corpus folder: read whenever it exists, and where additions go by default."""
    from rulebot.places import user_dir

    return user_dir("data") / USER_CORPUS


def chosen_dirs(corpora: Iterable[Path] = (), *, shipped: bool = True) -> list[Path]:
    """The corpus folders to use, in order: the shipped one (unless left out), the user's own
    (when it exists), $RULEBOT_CORPUS, `--corpus`; a folder named twice counts once, where first named.

    The order keys the index cache, so the CLI and shell completion must agree on it.
    """
    dirs = [shipped_corpus_dir()] if shipped else []
    own = user_corpus_dir()
    if own.is_dir():
        dirs.append(own)
    dirs.extend(Path(p) for p in os.environ.get(CORPUS_ENV, "").split(os.pathsep) if p)
    dirs.extend(Path(p) for p in corpora)
    seen: set[str] = set()
    unique = []
    for folder in dirs:
        real = os.path.realpath(folder)
        if real not in seen:
            seen.add(real)
            unique.append(folder)
    return unique


def own_dir(corpora: Iterable[Path] = ()) -> Path:
    """The corpus folder a curator's additions go to: the last `--corpus` folder named, else the
    last of $RULEBOT_CORPUS, else the user's own corpus folder (see user_corpus_dir)."""
    named = [Path(p) for p in os.environ.get(CORPUS_ENV, "").split(os.pathsep) if p] + [Path(p) for p in corpora]
    return named[-1] if named else user_corpus_dir()


def corpus_files(dirs: Iterable[Path]) -> Iterator[Path]:
    """Every file the loader reads, in loading order (for fingerprints and loading).

    A name that is not UTF-8 is left out, as the loader leaves it out (it
    reports it): its lone surrogates could not be written to a UTF-8 file.
    """
    for root in dirs:
        try:
            game_dirs = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and not is_undecodable(p.name))
        except OSError:
            continue
        if (root / VOCABULARY_FILE).is_file():
            yield root / VOCABULARY_FILE
        for game_dir in game_dirs:
            try:
                yield from sorted(
                    p for p in game_dir.iterdir() if (p.name in (GAME_FILE, SETUP_FILE) or is_entries_file(p)) and not is_undecodable(p.name)
                )
            except OSError:
                continue


def is_entries_file(path: Path) -> bool:
    """Whether the loader reads a file of a game folder as entries: of a source (`<source-id>.md`), or their
    translation (`<source-id>.<lang>.md`, see translation_name)."""
    return path.suffix == ".md" and path.name.lower() != "readme.md" and not path.name.startswith(".")


def translation_name(path: Path) -> tuple[str, str] | None:
    """The source id and language a file's name gives it as a translation file, `<source-id>.<lang>.md` (a
    two-letter lower-case code), or None. It is one when no source has the whole of its name before `.md`."""
    source, _, lang = path.stem.rpartition(".")
    if source and len(lang) == 2 and lang.isascii() and lang.isalpha() and lang.islower():
        return source, lang
    return None


def fingerprint(dirs: Iterable[Path], known: Stamps | None = None) -> tuple[str, Stamps]:
    """A hash of the names and contents of every corpus file (it changes when the corpus
    does), and the files' stamps, for the next call.

    A file whose size, modification time and inode match its stamp in `known`
    is not read again (as git trusts its index): with a large corpus, reading
    every file before every answer would cost more than the answer.
    """
    known = known or {}
    now = time.time_ns()
    digest = hashlib.sha256()
    stamps: Stamps = {}
    for path in corpus_files(dirs):
        name = str(path)
        if not name.isascii():  # a corpus folder's own name may not be UTF-8: the stamps are written as UTF-8
            name = escaped_name(name)
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            info = path.stat()
            key = [info.st_size, info.st_mtime_ns, info.st_ino]
            stamp = known.get(name)
            if stamp is not None and stamp[:3] == key and info.st_mtime_ns < now - SETTLED_NS:
                content = str(stamp[3])
            else:
                data, refused = read_corpus_file(path)
                content = hashlib.sha256(data).hexdigest() if data is not None else f"refused: {refused}"
            if not content.startswith("refused") and info.st_mtime_ns < now - SETTLED_NS:
                stamps[name] = [*key, content]
        except OSError as exc:
            content = f"unreadable: {exc!r}"
        digest.update(content.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest(), stamps


def read_corpus_file(path: Path) -> tuple[bytes | None, str | None]:
    """(bytes, None) for a regular file within MAX_FILE_BYTES, else (None, why it is refused).

    Never blocks nor reads without end: a FIFO, a device (a link to /dev/zero)
    or a folder named like an entries file is refused without reading, and a
    file growing past the limit while read is cut off. OSError when the file
    cannot be opened.
    """
    too_large = f"file larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "not a regular file"
        if info.st_size > MAX_FILE_BYTES:
            return None, too_large
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES and (chunk := os.read(fd, 1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        return None, too_large
    return b"".join(chunks), None


# -- what `rulebot review` keeps of a walk through the drafts of an entries file --


REVIEW_FOLDER = "review"
"""In the user's data folder: each walk's place and the edits in progress (rulebot.corpus.walk)."""


def review_dir() -> Path:
    """The folder of the walks' files: in the user's data folder."""
    return user_dir("data") / REVIEW_FOLDER


def review_key(game: str, path: Path) -> str:
    """The name of a walk's files for an entries file: the game, and a digest of the file's full path."""
    digest = hashlib.sha1(str(path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{game}-{path.stem}-{digest}"


def review_edit_name(game: str, path: Path, entry_id: str) -> str:
    """The file name of the edit in progress of a draft of an entries file."""
    return f"{review_key(game, path)}.{entry_id}.md"


def edits_in_progress(game: str, path: Path) -> set[str]:
    """Ids of the drafts of an entries file with an edit in progress in `rulebot review` (one that did not pass,
    kept to be taken up again)."""
    folder = review_dir()
    try:
        names = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    except OSError:
        return set()
    prefix = review_key(game, path) + "."
    ids = {name[len(prefix) : -len(".md")] for name in names if name.startswith(prefix) and name.endswith(".md")}
    return {i for i in ids if "." not in i}  # (`ID.earlier.md`: an earlier edit kept beside a fresh one)
