"""A built index's files made durable and vouched for: their checksums, written last, and checked.

The cache (rulebot.index.cache) opens what is sealed here; a build
(rulebot.index.build) and an update (rulebot.index.update) seal what they
wrote. None of them imports another to do so.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulebot.index.opened import SYNONYMS_FILE, SYNONYMS_PREFIX

FORMAT = "32"
"""Bump when the schema, the stored payload or what a field indexes changes: old indexes are then rebuilt."""

META_FILE = "rulebot-meta.json"
DIGESTS_FILE = "rulebot-digests.json"
"""A hash of each entry's document, kept apart from the metadata that every `ask` reads."""
VERIFIED_FILE = "rulebot-verified.json"
"""The stamp (size, times, inode) of each index file when its checksum was last verified (see rulebot.index.cache._open_built)."""


def written_when_sealed(name: str) -> bool:
    """Whether a file of a build is written by seal() (an update writes it anew rather than link the earlier one)."""
    return name in (META_FILE, DIGESTS_FILE, VERIFIED_FILE) or name.startswith(SYNONYMS_PREFIX)


def seal(folder: Path, meta: dict[str, Any], known: dict[str, str] | None = None) -> None:
    """Write the entry digests, record each file's size and hash, make them durable, then write the metadata file, last.

    Whoosh never flushes its files to disk: they are flushed here, so that an
    index whose metadata exists can no longer lose pages in a crash, and its
    files' stamps can vouch for their content (see rulebot.index.cache).
    `known` holds the checksums of files already verified (an update's links
    to the earlier build), which are not read again.
    """
    digests = meta.pop("digests", None)
    if digests is not None:
        write_json(folder / DIGESTS_FILE, digests)
    tables = meta.pop("synonym_tables", None)
    if tables is not None:  # apart from the metadata every `ask` reads: a question reads its language's only
        for language, table in tables.items():
            write_json(folder / SYNONYMS_FILE.format(language), table)
        meta["synonym_languages"] = sorted(tables)
    files = sorted(p for p in folder.iterdir() if not p.name.endswith("LOCK") and p.name not in (META_FILE, VERIFIED_FILE))
    meta["files"] = {p.name: p.stat().st_size for p in files}
    known = known or {}
    meta["sha256"] = {p.name: known.get(p.name) or sha256(p) for p in files}
    for path in files:
        _fsync(path)
    with contextlib.suppress(OSError):  # not every system opens a folder to flush it (Windows)
        _fsync(folder)
    write_json(folder / META_FILE, meta)


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def stamp_of(path: Path) -> list[int]:
    """What changes whenever a file is written, replaced or copied: size, modification and change times, inode."""
    info = path.stat()
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def record_verified(folder: Path, stamps: dict[str, list[int]]) -> None:
    """Record the stamps the index's files had when their checksums were verified (taken before reading them)."""
    with contextlib.suppress(OSError):  # a read-only cache only costs checking the checksums again
        write_json(folder / VERIFIED_FILE, stamps)


def intact(folder: Path, meta: dict[str, Any]) -> bool:
    """True when every file of a sealed index still has its checksum (taken on trust when its stamp is unchanged)."""
    if verified_unchanged(folder, meta):
        return True
    try:
        return all(sha256(folder / name) == digest for name, digest in meta["sha256"].items())
    except (OSError, KeyError, AttributeError):
        return False


def verified_unchanged(folder: Path, meta: dict[str, Any]) -> bool:
    """True when every index file still has the stamp it had when its checksum was verified.

    No write can leave all of a file's stamp as it was (its change time is
    set by the system), and the files were flushed to disk before the index
    was sealed: such files hold what their checksums were made of.
    """
    try:
        recorded = json.loads((folder / VERIFIED_FILE).read_text(encoding="utf-8"))
        return isinstance(recorded, dict) and recorded.keys() == meta["files"].keys() and all(
            recorded[name] == stamp_of(folder / name) for name in recorded
        )
    except (OSError, ValueError):
        return False


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def write_json(path: Path, data: Mapping[str, object]) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # processes may write the same file at once
    try:
        encoded = json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from a name that is not UTF-8): JSON's \u escapes keep it
        encoded = json.dumps(data).encode("ascii")
    tmp.write_bytes(encoded)
    os.replace(tmp, path)
