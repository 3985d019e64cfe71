"""Updating an index: an earlier build brought up to date, only the entries that changed re-indexed.

rulebot.index.cache updates the latest build of a corpus when only a few of
its entries changed, through Whoosh's own writer, and merges the small
segments updates add (_merge_updates).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index
from whoosh.reading import SegmentReader

from rulebot.index import build, sealed
from rulebot.index.whoosh_format import WHOOSH, release

if TYPE_CHECKING:
    from rulebot.corpus.model import Corpus

MERGE_UPDATES_FROM = 8
"""An update merges the small segments that earlier updates added once there are this many (see _merge_updates)."""


def update_index(folder: Path, base: Path, corpus: Corpus, fingerprint: str, progress: build.Progress | None = None) -> dict[str, Any] | None:
    """Bring a copy of an earlier build up to date in an empty folder: only changed entries are re-indexed.

    The earlier build's files are hard-linked (Whoosh never rewrites a
    segment: it adds new ones and a new table of contents), so this costs
    about as much as the entries that changed. None when the earlier build
    cannot serve (another format or Whoosh, unreadable) or so much changed
    that a new build is faster: the caller builds afresh.
    """
    import shutil

    try:
        old = json.loads((base / sealed.META_FILE).read_text(encoding="utf-8"))
        old_digests = json.loads((base / sealed.DIGESTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(old, dict) or old.get("format") != sealed.FORMAT or old.get("whoosh") != release(WHOOSH) or not isinstance(old_digests, dict):
        return None
    digests, makers = {}, []
    for entry_id, (digest, make) in zip(corpus.entries, build.documents(corpus)):
        digests[entry_id] = digest
        if old_digests.get(entry_id) != digest:
            makers.append(make)
    if len(makers) > len(digests) / 5:
        return None  # Whoosh's writer re-indexes an entry three times slower than a new build does
    if not sealed.intact(base, old):
        return None  # damage in the earlier build must not be carried into this one
    build.check_whoosh()
    linked = {}  # the checksums of the files linked, which sealed.intact has just verified
    for path in base.iterdir():
        if sealed.written_when_sealed(path.name) or path.name.endswith("LOCK"):
            continue
        try:
            os.link(path, folder / path.name)
            linked[path.name] = old["sha256"].get(path.name)
        except OSError:
            shutil.copy2(path, folder / path.name)
    index = whoosh_index.open_dir(str(folder))
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
    meta = build.index_meta(corpus, fingerprint, digests)
    meta["updated"] = {"changed": len(changed), "removed": len(removed)}
    sealed.seal(folder, meta, known=linked)
    return meta


def _merge_updates(writer: Any, segments: list[Any]) -> list[Any]:
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
        reader = SegmentReader(writer.storage, writer.schema, segment)
        writer.add_reader(reader)  # its live documents only: what was deleted or replaced is dropped
        reader.close()
    return [segment for segment in segments if segment not in small]
