"""Writing an import's drafts to a source's entries file as an update (`rulebot import --append`).

Each draft has an anchor: where it came from in the document, its section
(the heading path) and its title. The file's entries record theirs in an
`anchor:` header, written with the draft, which a curator's later edits of
the title or section leave alone. Importing a document again, or a new
edition of it, pairs each draft with the entry of the same anchor (else of
the same section and title, for entries drafted before anchors were
written; else an entry without an anchor of the id the draft would get: its
`anchor:` line deleted by a curator; else, for what is left, of a title only
one draft and one entry have: a question renumbered, a heading moved; else a
draft entry of the same text: its heading renamed; else an entry restated from
a draft of the same text, of eight words or more, by its `drafted:` key), then:

- an entry still marked `draft: true` is rewritten in place with the new
  draft (its id, and the header keys the importer does not write, kept),
  unless its text is no longer the one imported (its `drafted:` key, a
  fingerprint of that text, says which): a curator's edit in progress, left
  byte for byte and listed;
- an entry no longer marked draft has been restated by a curator: it is
  left byte for byte, and links to its draft go to it (it is listed as
  outdated when its `drafted:` fingerprint, kept from the draft it was
  restated from, is not the new draft's: the document's words have changed
  since; and with the anchor to set when it was paired by another: its heading
  renamed or moved); so is an entry a
  curator has merged from several drafts or split (`rulebot review`), which
  holds several anchors or shares one;
- a draft paired with nothing is added at the end of the file;
- a draft entry of the file paired with no draft is gone from the document:
  it is kept and listed, for the curator to decide, without the aliases a
  draft of the document now claims (no name claimed twice);
- but a draft of one rule that is now part of a family of rules joined into
  one draft (rulebot.corpus.shaping; a document drafted before rules were
  joined) is removed, when the joined draft is written and holds its very
  text, its header is the importer's as drafted (same title, section and
  kind, no key of the curator's, no name lost), it is no part of a draft
  split in review, no edit of it is in progress (rulebot review), and no
  entry left links to it: nothing of it is lost, and kept it would answer
  beside the draft that holds it.

Before anything is written, a document that matches almost none of the
file's entries is refused (unless forced): another game's rules, or the
wrong file, would add hundreds of drafts beside the file's own.

All of it under the file's lock, whole or not at all (rulebot.atomic).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path

from rulebot import atomic
from rulebot.corpus import import_guards as guards
from rulebot.corpus import importing, scaffold
from rulebot.corpus.drafted import DraftEntry, Imported, anchor, anchors_of, compared_text, drafted_fingerprint
from rulebot.corpus.files import corpus_files, edits_in_progress, read_corpus_file
from rulebot.corpus.format import (
    LIST_SEPARATOR,
    RawEntry,
    header,
    is_draft,
    joined,
    line_ending,
    lines_with_ends,
    one_line,
    renumbered_id,
    spans,
    split_entries,
    split_list,
    without_draft_notes,
)
from rulebot.corpus.glossary import Vocabulary
from rulebot.corpus.model import Corpus, Game, Source
from rulebot.corpus.pairing import pair
from rulebot.corpus.updated import DraftsWritten, Gone, Moved, Outdated, Update
from rulebot.errors import CurationError
from rulebot.places import display_path
from rulebot.text import fold, link_words, relink, target_of

IMPORTER_KEYS = ("title", "kind", "section", "anchor", "aliases", "see_also", "draft", "drafted")
"""The header keys a draft's import writes: an update rewrites these, and keeps every other key of the entry
(`asked`, `expansion`, `modifies`, `revised`...) as it was."""


def without_file(corpus: Corpus, path: Path) -> Corpus:
    """The corpus without the entries of one file: what drafting a document again for that file reads, so that
    its drafts come out as they did the first time (their names not taken, their links not sent elsewhere
    by the entries of the earlier import)."""
    here = path.resolve()
    return replace(corpus, entries={i: e for i, e in corpus.entries.items() if Path(e.path).resolve() != here})


def check_edition(source: Source, date: str) -> str:
    """`date` when it is an edition of the source (its `date`, or one of its `editions`); CurationError otherwise,
    saying how to declare it: `rulebot check` takes a `revised` date only from the editions declared."""
    if date in source.edition_dates():
        return date
    if not source.edition_dates():
        # (an earlier edition left undated, `rulebot changes` would date every entry from this one: all new)
        raise CurationError(
            f"edition {date} is not declared for source {source.id!r}, which has no date: in game.toml, set its date = {date}"
            " and list the edition imported before as `editions = [{ date = YYYY-MM-DD }]` (its date), then import again"
        )
    declared = ", ".join(source.edition_dates())
    raise CurationError(
        f"edition {date} is not declared for source {source.id!r} (its editions: {declared}): in game.toml, set its date"
        f" = {date} and list the earlier ones in its editions, then import again"
    )


def import_update(
    corpus: Corpus,
    document: Path,
    game: str,
    source_id: str,
    edition: str | None = None,
    force: bool = False,
    instead: str = "",
    *,
    clean: bool,
) -> Update:
    """Draft a document and write its drafts to its source's entries file as an update (`rulebot import --append`).

    The edition is checked first, before any drafting. CurationError, nothing
    written, when the source's file is the installed corpus's (`instead` says
    what to do then), or, unless `force`, when most drafts are another
    source's of the game (the same document under another source id).
    `clean`: the corpus loaded without problems; when not, what was left out
    of it may link to a draft, and no draft is removed as joined.
    """
    the_game = corpus.game(game)
    the_source = the_game.source(source_id)
    if edition is not None and the_source is not None:
        check_edition(the_source, edition)
    path = scaffold.writable_entries_file(scaffold.entries_file(corpus, game, source_id), game, instead=instead)
    if not force and edition is not None and the_source is not None and the_source.edition_dates() == [edition] and guards.of_another_edition(path, edition):
        # (drafts there of an edition before this one, undated: `rulebot changes` would date them all from it)
        raise CurationError(
            f"edition {edition} is the only one declared for source {source_id!r}, and {display_path(path)} holds drafts"
            " imported before without it: if they are of an earlier edition, list it in game.toml as `editions = [{ date ="
            " YYYY-MM-DD }]` (its date) and import again; if they are of this one, add --force"
        )
    # Drafted as the first time: the names of the file's own entries not taken, its links not sent to them.
    drafted = importing.import_document(document, without_file(corpus, path), game, source_id)
    if not drafted.entries:
        raise CurationError(f"{document} holds no rule to draft (no heading with text under it): nothing written to {path}")
    if not force:
        guards.refuse_another_sources(corpus, game, source_id, path, drafted)
        guards.refuse_another_document(path, document, the_source, drafted)
        guards.refuse_uncited_document(corpus, path, document, game, source_id)
    # (what other files name is read only when a draft could be removed: an import from before rules were joined)
    protected = (lambda: _named_elsewhere(corpus, path) | edits_in_progress(game, path)) if clean else None
    vocabulary = _not_in(drafted.vocabulary, the_game)  # (an import again proposes only what the game lacks)
    # The notes of a first import say where the vocabulary goes: computed before, written after the drafts,
    # so a refused or failed write of the drafts leaves game.toml as it was.
    room = scaffold.vocabulary_room(the_game, vocabulary.synonyms, vocabulary.terms)
    with atomic.as_one():  # (drafts of one document, named as another's in game.toml: `check --sources` fails)
        written = write_drafts(path, drafted, edition, protected=protected, vocabulary_written=room)
        # (`check --sources DIR` then finds the curator's copy of the document by the name written with it)
        keys, renamed = scaffold.record_import(the_game, vocabulary.synonyms, vocabulary.terms, source_id, document.name)
    return Update(drafted, written, vocabulary, keys, the_game.path, document.name if renamed else None)


def _not_in(vocabulary: Vocabulary, game: Game) -> Vocabulary:
    """The proposed vocabulary that the game's own does not have yet: the terms it lacks, the synonym groups of which
    it has no group holding every word."""
    terms = {fold(term) for term in game.terms}
    groups = [{fold(word) for word in group} for group in game.synonyms]
    return Vocabulary(
        synonyms=[g for g in vocabulary.synonyms if not any({fold(word) for word in g} <= known for known in groups)],
        terms=[term for term in vocabulary.terms if fold(term) not in terms],
    )


ID_WORD_RE = re.compile(r"[\w-]+")
"""A word that may be an entry id (`mtg-702-11a-hexproof`), as a link, a setup step or a translation writes it."""


def _named_elsewhere(corpus: Corpus, path: Path) -> set[str]:
    """Every word that may name an entry in the corpus files (rulebot.corpus.files.corpus_files) of the corpus
    folders of the games and of their entries (a house-rules folder's too) but the entries file `path`: a link, a
    setup step, a translation's heading, an entry left out for a problem of its own."""
    here = path.resolve()
    places = [Path(game.path) for game in corpus.games.values() if game.path] + [Path(e.path) for e in corpus.entries.values() if e.path]
    named: set[str] = set()
    for file in corpus_files(sorted({place.parent.parent for place in places})):  # (a corpus folder holds game folders)
        try:
            data, _ = read_corpus_file(file) if file.resolve() != here else (None, None)
        except OSError:
            continue  # unreadable: `rulebot check` reports it, and then no draft is removed
        if data is not None:
            named.update(ID_WORD_RE.findall(data.decode("utf-8", errors="replace")))
    return named


def write_drafts(
    path: Path,
    drafted: Imported,
    edition: str | None = None,
    protected: Callable[[], set[str]] | None = None,
    vocabulary_written: Collection[str] = (),
) -> DraftsWritten:
    """Update a source's entries file (created if missing) with an import's drafts (see the module).

    `edition`: the date of the document's edition; the drafts it adds or
    updates get `revised:` that date. `protected`: gives the ids no draft
    removed as joined may have (named in other files, being edited in
    review); None: none is removed so. `vocabulary_written`: the keys of
    the vocabulary going to game.toml, for the notes of a new file. WriteError when the file cannot be
    read or written; it is then as it was.
    """
    done = DraftsWritten(path)
    anchors = anchors_of(drafted.entries)

    def change(existing: str | None) -> str | None:
        nonlocal done
        done = DraftsWritten(path)
        text = existing or ""
        preamble: list[tuple[int, str]] = []
        raws = list(split_entries(path, text, preamble))
        _refuse_misread(path, raws, [line for line, _message in preamble])
        pairs, moved = pair(drafted.entries, raws, anchors)
        taken = {raw.id for raw in raws}
        renamed = {draft.id: found[0].id for draft, found in pairs.items()}
        used = taken | {d.id for d in drafted.entries if d not in pairs}
        for draft in drafted.entries:
            if draft not in pairs and draft.id in taken:
                # An id written meanwhile, or an entry of the file left out of the corpus for a problem.
                renamed[draft.id] = renumbered_id(draft.id, draft.title, used)
                used.add(renamed[draft.id])
        lines = lines_with_ends(text)
        ending = line_ending(lines)
        # The names the document's drafts now have: an entry gone from it gives up those it held (a heading renamed
        # with its text changed), so that no name is claimed twice.
        claimed = {fold(name) for d in drafted.entries for name in (d.title, *d.aliases)}
        replaced: dict[int, tuple[int, str]] = {}
        drafts_of: dict[int, list[DraftEntry]] = {}
        for draft, found in pairs.items():
            for raw in found:
                drafts_of.setdefault(id(raw), []).append(draft)
        removable = set() if protected is None else _removable_as_joined(raws, drafted.entries, pairs, drafts_of, claimed, renamed, protected)
        for raw, end in spans(raws, lines):
            mine = drafts_of.get(id(raw), [])
            if not mine:
                if raw.id in removable:
                    done.joined.append(Gone(raw.id, header(raw, "title"), raw.line))
                    following = end
                    while following < len(lines) and not lines[following].strip():
                        following += 1  # its blank lines go with it
                    replaced[raw.line - 1] = (following, "")
                elif is_draft(raw):
                    gave_up = _give_up_aliases(raw, claimed, lines, ending, replaced)
                    done.gone.append(Gone(raw.id, header(raw, "title"), raw.line, gave_up))
                elif header(raw, "anchor"):
                    done.restated_gone.append(Gone(raw.id, header(raw, "title"), raw.line))
                continue
            draft = mine[0]
            if _reshaped(raw, mine, pairs):
                done.reshaped.append(raw.id)
                done.outdated.extend(_outdated(raw, mine, renamed, "merged or split"))
                continue
            if not is_draft(raw):
                done.restated.append(raw.id)
                done.outdated.extend(_outdated(raw, [draft], renamed, "restated"))
                if header(raw, "anchor") and fold(header(raw, "anchor")) != fold(anchors[draft]):
                    # (paired by its title or the text it was drafted from: its heading moved or renamed. Left byte for
                    # byte, its anchor is the curator's to set, or the next edition that changes its text adds a draft)
                    done.moved.append(Moved(raw.id, header(raw, "title"), anchors[draft]))
                continue
            if header(raw, "drafted") and header(raw, "drafted") != drafted_fingerprint("\n".join(raw.body)):
                done.edited.append(raw.id)
                done.outdated.extend(_outdated(raw, [draft], renamed, "edited"))
                continue
            as_before = next(split_entries(path, _block(draft, anchors[draft], renamed, raw, revised=None)))
            if _content(raw) == _content(as_before):
                done.unchanged.append(raw.id)  # its bytes left as they are, whatever the layout of its header
                continue
            # Only moved (a heading renamed above it or its own, a question renumbered): its rule has not changed,
            # no `revised`.
            # (nor where its links lead: "#defense" of an earlier import's text is "#toy-defense" now)
            same_rule = draft in moved or _content(raw, "section", read=True) == _content(as_before, "section", read=True)
            new = _block(draft, anchors[draft], renamed, raw, revised=None if same_rule else edition)
            done.updated.append(raw.id)
            replaced[raw.line - 1] = (end, new.rstrip("\n").replace("\n", ending) + ending)
        added = [d for d in drafted.entries if d not in pairs]
        done.added = [renamed.get(d.id, d.id) for d in added]
        if not done.written:
            return None
        if not raws:
            # A file without entries gets the import's notes first (after entries, they would end the last one's text).
            notes = drafted.notes(vocabulary_written) if drafted.entries else ""
            blocks = "\n".join(_block(d, anchors[d], renamed, None, revised=edition) for d in added)
            return joined(text, (notes + blocks).replace("\n", ending), ending)
        # A draft added goes after the entry of the draft before it in the document (a rule a new edition adds sits
        # among its neighbours, in their section: the site lays a game out in file order); before the first, after all.
        after = _places_of_added(drafted.entries, pairs, spans(raws, lines), len(lines))
        inserted: dict[int, list[str]] = {}
        for draft in added:
            block = _block(draft, anchors[draft], renamed, None, revised=edition, new=True).rstrip("\n").replace("\n", ending) + ending
            inserted.setdefault(after[draft], []).append(block)
        out: list[str] = []
        index = 0
        while index <= len(lines):
            for block in inserted.get(index, ()):
                out.append(_blank_before(out, ending) + block)
                if index < len(lines) and lines[index].strip():
                    out.append(ending)  # (a blank line before the entry that follows)
            if index == len(lines):
                break
            if index in replaced:
                end, block = replaced[index]
                out.append(block)
                index = end
            else:
                out.append(lines[index])
                index += 1
        result = "".join(out)
        # (entries removed at the end of the file leave the blank line before them last: the file ends as it did)
        while result.endswith(ending * 2) and not text.endswith(ending * 2):
            result = result[: -len(ending)]
        return result

    atomic.update_file(path, change)
    return done


def _blank_before(out: list[str], ending: str) -> str:
    """What makes a blank line between the text written so far (`out`) and an entry written next."""
    last = next((piece for piece in reversed(out) if piece), "")
    if not last or not last.strip():
        return ""  # the file's start, or a blank line already
    return ending if last.endswith(ending) else ending * 2


def _places_of_added(
    drafts: list[DraftEntry], pairs: dict[DraftEntry, list[RawEntry]], ends: list[tuple[RawEntry, int]], size: int,
) -> dict[DraftEntry, int]:
    """Where each draft not in the file goes (the index of the line it goes before): after the entry of the last
    draft before it in the document that the file has, else before the first such entry, else at the end (`size`).
    (An entry updated in place ends where it did; one removed as joined is no draft's.)"""
    end_of = {id(raw): end for raw, end in ends}
    first = min((raw.line - 1 for found in pairs.values() for raw in found), default=size)
    places: dict[DraftEntry, int] = {}
    last: int | None = None
    for draft in drafts:
        if draft in pairs:
            last = max(end_of[id(raw)] for raw in pairs[draft])
        else:
            places[draft] = first if last is None else last
    return places


def _refuse_misread(path: Path, raws: list[RawEntry], misheaded: list[int]) -> None:
    """CurationError when an entries file is not read as its curator wrote it: an id given twice would take the
    drafts paired with the other's, and links to it; an entry's heading mistyped (`misheaded`: before the first
    entry) leaves the entry in the text of the one above, and the update would add it again."""
    first: dict[str, int] = {}
    for raw in raws:
        if raw.id in first:
            _refuse(path, raw.line, f"id {raw.id!r} given twice (first at line {first[raw.id]})")
        first.setdefault(raw.id, raw.line)
    lines = [*misheaded, *(line for raw in raws for line in raw.misheaded)]
    if lines:
        _refuse(path, min(lines), "an entry's heading is read as text (a # too many or too few, or spaces before it)")


def _refuse(path: Path, line: int, what: str) -> None:
    raise CurationError(f"{display_path(path)}:{line}: {what}: nothing written; fix it (`rulebot check` lists what is wrong) and import again")


def _removable_as_joined(
    raws: list[RawEntry],
    drafts: list[DraftEntry],
    pairs: dict[DraftEntry, list[RawEntry]],
    drafts_of: dict[int, list[DraftEntry]],
    claimed: set[str],
    renamed: dict[str, str],
    protected: Callable[[], set[str]],
) -> set[str]:
    """Ids of the drafts of the file to remove as joined with their rule's family (see the module); not one of
    those `protected` gives."""
    # The drafts the update writes (added, or rewriting one draft of the file), by the place each of their rules
    # had as a draft of its own.
    rewritten = {id(raw) for raw in raws if is_draft(raw) and (mine := drafts_of.get(id(raw))) and not _reshaped(raw, mine, pairs)}
    written = [d for d in drafts if d not in pairs or id(pairs[d][0]) in rewritten]
    holder = {fold(anchor(section, title)): (d, section, title, text) for d in written for section, title, text in d.held}
    if not holder:
        return set()
    anchors = Counter(fold(a) for raw in raws for a in split_list(header(raw, "anchor")))
    found: set[str] = set()
    for raw in raws:
        places = split_list(header(raw, "anchor"))
        if drafts_of.get(id(raw)) or not is_draft(raw) or len(places) != 1 or anchors[fold(places[0])] != 1:
            continue  # paired, the curator's, merged, or a part of a split
        held = holder.get(fold(places[0]))
        if held is None:
            continue
        draft, section, title, text = held
        as_drafted = (header(raw, "title"), header(raw, "section"), header(raw, "kind")) == (title, section, draft.kind)
        if not as_drafted or any(key not in (*IMPORTER_KEYS, "revised", "new") for key in raw.headers):
            continue  # (`revised`, `new`: an import with --edition writes them)
        if any(fold(one_line(alias)) not in claimed for alias in split_list(header(raw, "aliases"))):
            continue
        if one_line("\n".join(without_draft_notes(raw.body))) == one_line(text):
            found.add(raw.id)
    if not found:
        return found
    found -= protected()  # named elsewhere, or being edited
    # No entry left may link to one removed: each draft rewritten links as the document's does, every other entry
    # as it is (and one kept for a link keeps its own links).
    links = {renamed.get(i, i) for d in written for i in d.see_also}
    while True:
        staying = [raw for raw in raws if raw.id not in found and id(raw) not in rewritten]
        linked = links | {i for raw in staying for key in ("see_also", "modifies") for i in split_list(header(raw, key))}
        if not found & linked:
            return found
        found -= linked


def _reshaped(raw: RawEntry, mine: list[DraftEntry], pairs: dict[DraftEntry, list[RawEntry]]) -> bool:
    """Whether a curator merged or split the entry (`rulebot review`: several drafts in one entry, one draft in
    several): the curator's now, left as it is."""
    return len(mine) > 1 or len(pairs[mine[0]]) > 1 or len(split_list(header(raw, "anchor"))) > 1


def _give_up_aliases(
    raw: RawEntry, claimed: set[str], lines: list[str], ending: str, replaced: dict[int, tuple[int, str]]
) -> tuple[str, ...]:
    """The aliases of a gone draft that are `claimed`, its `aliases` line rewritten without them (in `replaced`)."""
    value, line = raw.headers.get("aliases", ("", 0))
    given = tuple(a for a in split_list(value) if fold(one_line(a)) in claimed)
    if given and line:
        kept = [a for a in split_list(value) if a not in given]
        replaced[line - 1] = (line, f"aliases: {(LIST_SEPARATOR + ' ').join(kept)}{ending}" if kept else "")
    return given


def _block(draft: DraftEntry, anchor_of: str, renamed: dict[str, str], raw: RawEntry | None, revised: str | None, new: bool = False) -> str:
    """The draft as an entry of the file: the id and the other header keys of its entry `raw` kept, `revised`
    set when given, and `new` when that edition adds it to the file's drafts."""
    entry_id = raw.id if raw is not None else renamed.get(draft.id, draft.id)
    links = [i for i in dict.fromkeys(renamed.get(i, i) for i in draft.see_also) if i != entry_id]
    kept = [(key, value) for key, (value, _) in (raw.headers.items() if raw is not None else []) if key not in IMPORTER_KEYS]
    if revised:  # (added by this edition, or revised by it: no longer new in an earlier one)
        kept = [(k, v) for k, v in kept if k not in ("revised", "new")] + [("revised", revised)] + [("new", "true")] * new
    return draft.block(anchor_of, entry_id=entry_id, see_also=links, kept=kept, text=_text_as_drafted(draft, renamed))


def _outdated(raw: RawEntry, drafts: list[DraftEntry], renamed: dict[str, str], state: str) -> list[Outdated]:
    """The entry, restated, being edited, or merged or split in review (`state`), when the document's text of its
    drafts is no longer the one the curator worked from (its `drafted:` fingerprints, kept when it was restated, one
    for each draft merged into it); else nothing. A text is the same when its draft's is, its links as the file has
    them now or as the document's drafts name their targets: an entry renamed since changes where a link leads, not
    the rule."""
    worked_from = set(split_list(header(raw, "drafted")))
    if not worked_from:
        return []
    now = [drafted_fingerprint(_text_as_drafted(draft, renamed)) for draft in drafts]
    either = [{fingerprint, drafted_fingerprint(draft.text)} for fingerprint, draft in zip(now, drafts)]
    # (each draft's text one the curator worked from, and nothing worked from that no draft has now: two drafts of
    # the same text, "Yes.", merged into one entry, are one fingerprint)
    if all(ways & worked_from for ways in either) and worked_from <= set().union(*either):
        return []
    return [Outdated(raw.id, header(raw, "title"), state, f"{LIST_SEPARATOR} ".join(now))]


def _text_as_drafted(draft: DraftEntry, renamed: dict[str, str]) -> str:
    """A draft's text as the file gets it: a link of it to another draft leads to that draft's entry."""

    def renamed_link(link: re.Match[str]) -> str:
        target = target_of(link)
        moved = renamed.get(target[1:]) if target.startswith("#") else None
        return f"[{link.group('words')}](#{moved})" if moved else link.group()

    return relink(draft.text, renamed_link)


def _content(raw: RawEntry, *ignored: str, read: bool = False) -> tuple[dict[str, str], str]:
    """What an entry says, as compared: its header values but the anchor and `ignored` (in any order), and its text
    (as `read`: its links' words, not where they lead)."""
    headers = {key: one_line(value) for key, (value, _) in raw.headers.items() if key not in ("anchor", "drafted") and key not in ignored}
    text = "\n".join(raw.body)
    return headers, compared_text(link_words(text) if read else text)
