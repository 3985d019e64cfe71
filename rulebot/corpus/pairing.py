"""How an import's drafts are paired with the entries of the file they update (rulebot.corpus.updating): by anchor,
then by what entries written otherwise still share with their drafts."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from rulebot.corpus.drafted import DraftEntry, compared_text, drafted_fingerprint
from rulebot.corpus.format import RawEntry, header, is_draft, one_line, split_list
from rulebot.text import fold


def pair(
    drafts: list[DraftEntry], raws: list[RawEntry], anchors: dict[DraftEntry, str]
) -> tuple[dict[DraftEntry, list[RawEntry]], set[DraftEntry]]:
    """Each draft's entries in the file, where it has some: by anchor (every entry naming it: the parts of a
    draft split by `rulebot review`), then one by section and title, then one by a title unique on both sides
    among those left, then one draft entry of the same text (a heading renamed), then one entry restated from a
    draft of the same text; and the drafts paired by their text as a draft entry's, moved rather than changed."""
    pairs: dict[DraftEntry, list[RawEntry]] = {}
    by_anchor: dict[str, list[RawEntry]] = {}
    for raw in raws:
        for name in split_list(header(raw, "anchor")):
            by_anchor.setdefault(fold(name), []).append(raw)
    for draft in drafts:
        found = by_anchor.get(fold(anchors[draft]))
        if found:
            pairs[draft] = found
    claimed = {id(raw) for found in pairs.values() for raw in found}
    free = [raw for raw in raws if id(raw) not in claimed]

    def match(key_of_draft: Callable[[DraftEntry], Hashable], key_of_raw: Callable[[RawEntry], Hashable]) -> set[DraftEntry]:
        waiting: dict[Hashable, list[RawEntry]] = {}
        for raw in free:
            key = key_of_raw(raw)
            if key:
                waiting.setdefault(key, []).append(raw)
        paired = set()
        for draft in drafts:
            if draft in pairs:
                continue
            found = waiting.get(key_of_draft(draft))
            if found:
                raw = found.pop(0)
                pairs[draft] = [raw]
                paired.add(draft)
                free.remove(raw)
        return paired

    # Entries written before drafts had anchors.
    match(lambda d: (one_line(d.section), one_line(d.title)), lambda r: (header(r, "section"), header(r, "title")) if not header(r, "anchor") else None)
    # An entry whose anchor a curator deleted, restating it: the id its draft was given.
    match(lambda d: d.id, lambda r: r.id if not header(r, "anchor") else None)
    # What is left: a title that one draft and one entry alone have (a question renumbered, a heading moved).
    left = [d for d in drafts if d not in pairs]
    titles = _unique(fold(one_line(d.title)) for d in left)
    raw_titles = _unique(fold(header(r, "title")) for r in free)
    match(lambda d: fold(one_line(d.title)) if fold(one_line(d.title)) in titles else None,
          lambda r: fold(header(r, "title")) if fold(header(r, "title")) in raw_titles else None)
    # Then a draft entry gone from its place with the very text of a draft left: its heading renamed.
    moved = match(lambda d: compared_text(d.text), lambda r: compared_text("\n".join(r.body)) if is_draft(r) else None)
    # And an entry a curator restated from a draft of that very text (its `drafted:` fingerprint), gone from its
    # place: its heading renamed too. It stays as the curator wrote it; unpaired, the draft would be added beside it.
    # Only a text of some length, that one draft left and one entry alone have: "No." answers many questions, and
    # the parts of an entry split in review share their draft's fingerprint.
    texts = {d: drafted_fingerprint(d.text) for d in drafts if d not in pairs and len(d.text.split()) >= MIN_PAIRED_WORDS}
    sources = {id(r): _restated_from(r) for r in free}
    once = _unique(texts.values()) & _unique(f or "" for f in sources.values())
    match(lambda d: texts.get(d) if texts.get(d) in once else None, lambda r: sources[id(r)] if sources[id(r)] in once else None)
    return pairs, moved


MIN_PAIRED_WORDS = 8
"""A restated entry is paired with a draft by the text it was drafted from only when that text has this many words."""


def _restated_from(raw: RawEntry) -> str | None:
    """The fingerprint of the one draft a restated entry was written from (None: a draft, or merged from several)."""
    fingerprints = split_list(header(raw, "drafted"))
    return fingerprints[0] if len(fingerprints) == 1 and not is_draft(raw) else None


def _unique(values: Iterable[str]) -> set[str]:
    seen: dict[str, int] = {}
    for value in values:
        seen[value] = seen.get(value, 0) + 1
    return {v for v, n in seen.items() if n == 1 and v}
