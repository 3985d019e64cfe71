"""A curator's walk through a game's drafts, one at a time (`rulebot review`).

Not to be confused with rulebot.corpus.review, which is `rulebot check`'s
review of a whole corpus. Here each draft of a game's entries files (those
still marked `draft: true`, as `rulebot import` wrote them) is offered in
file order: the order of the game's sources, then of each file (an import adds
its new drafts at the file's end). There
is no record of which entries players ask for most, so there is no other
order. For each draft the curator may

- accept it as is: its `draft: true` line is removed;
- edit it: the entry's block is put in an edit file, which the curator's
  editor changes; on save it is checked with the parser and checks of
  `rulebot check`, then written back in place of the entry. An edit that
  does not pass is kept, its problems written at its top, for the editor to
  be opened on it again, now or at the next walk. It is never saved over the
  draft changed since it started (an import of the document again): the
  digest of the draft's block is kept when the edit starts;
- merge it with the entry after it: one draft, the texts one after the
  other, the second's title an alias, links to the second going to the first,
  and both anchors kept;
- split it where the curator puts `>>> split` lines in the editor (at a
  blank line, or before a bullet): a draft for each part, each after the
  first titled by the words the curator puts after its marker (else the
  first's title and `(2)`, `(3)`...), all with the anchor;
- skip it, for a later walk; or quit.

An entry merged or split so is the curator's: importing the document again
leaves it as it is (rulebot.corpus.updating). Every change is written whole under the file's lock (rulebot.atomic), at
once: a walk killed half-way has kept everything done before. The walk's
place (the drafts skipped) and an edit in progress are kept in the user
data folder, one state file per game and entries file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulebot import atomic
from rulebot.corpus import load as corpus_load
from rulebot.corpus import scaffold
from rulebot.corpus.checks import check_corpus
from rulebot.corpus.entries import parse_file
from rulebot.corpus.files import review_dir, review_edit_name, review_key
from rulebot.corpus.format import (
    DRAFT_NOTE,
    LIST_SEPARATOR,
    RawEntry,
    format_entry,
    header,
    is_draft,
    line_ending,
    lines_with_ends,
    spans,
    split_entries,
    split_list,
    undecodable_lines,
    unique_id,
)
from rulebot.corpus.model import Corpus, Game, Source
from rulebot.errors import CurationError, Problem
from rulebot.text import plural

SPLIT_MARK = ">>> split"
"""The line a curator puts where a draft is to be split; words after it title the second part."""
NOTE_START = "<!-- rulebot review:"
"""Lines of an edit file before its entry that start so are rulebot's: instructions and problems, rewritten each time."""


@dataclass(frozen=True)
class Draft:
    """A draft entry as the walk shows it."""

    path: Path
    """Its entries file."""
    id: str
    title: str
    line: int
    """The line of its heading in the file."""
    block: str
    """The entry as written in the file (heading, header and text), without the blank lines after it."""


@dataclass
class State:
    """Where a walk through one entries file is: kept between walks."""

    skipped: list[str] = field(default_factory=list)
    """Ids of the drafts skipped, not offered again until the walk starts over."""
    edits: dict[str, str] = field(default_factory=dict)
    """The digest of each draft's block when an edit of it started, by id: an edit of a draft changed since (by an
    import of its document again) is not saved over it."""


class ChangedMeanwhileError(CurationError):
    """The draft an edit is of was changed in its file since the edit started: the edit is not saved."""


class DraftWalk:
    """The drafts of one game, and what a curator does to each."""

    def __init__(self, corpus: Corpus, game: str, state_dir: Path | None = None) -> None:
        self.corpus = corpus
        self.game: Game = corpus.game(game)
        self.state_dir = state_dir if state_dir is not None else review_dir()
        self.files: list[tuple[Path, Source]] = []
        self.done: dict[str, int] = {}
        """What this walk has done so far: how many drafts accepted, skipped, merged, edited, split."""
        self.warnings: list[str] = []
        """What the last edit saved may have got wrong without being refused (its anchor line dropped, say)."""
        seen: set[Path] = set()
        for source in self.game.sources:
            path = scaffold.entries_file(corpus, self.game.slug, source.id)
            if path.is_file() and path.resolve() not in seen:
                seen.add(path.resolve())
                self.files.append((path, source))

    # -- what is left --------------------------------------------------------

    def drafts(self) -> list[Draft]:
        """The drafts still to review, in file order, without those skipped."""
        found = []
        for path, _source in self.files:
            skipped = set(self.state(path).skipped)
            text = _read(path)
            lines = lines_with_ends(text)
            for raw, end in _spans(path, text, lines):
                if is_draft(raw) and raw.id not in skipped:
                    found.append(Draft(path, raw.id, header(raw, "title"), raw.line, "".join(lines[raw.line - 1 : end])))
        return found

    def skipped(self) -> int:
        """How many drafts the walk has skipped so far."""
        return sum(len(self.state(path).skipped) for path, _ in self.files)

    def report(self) -> str:
        """One line: what this walk did, and what is left."""
        done = ", ".join(f"{n} {what}" for what, n in self.done.items()) or "nothing changed"
        left, skipped = len(self.drafts()), self.skipped()
        more = f", {skipped} skipped (--start-over offers them again)" if skipped else ""
        return f"{done}; {plural(left, 'draft')} left to review in {self.game.slug}{more}"

    def _count(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    def start_over(self) -> None:
        """Forget the drafts skipped (and keep any edit in progress)."""
        for path, _ in self.files:
            self.save_state(path, State(edits=self.state(path).edits))

    # -- the curator's choices -----------------------------------------------

    def accept(self, draft: Draft) -> None:
        """The draft as it is: its `draft: true` line removed, and the notes the import wrote for its curator (DRAFT_NOTE
        lines, which players would then read), each run of them with the blank line before it. Its `drafted:`
        fingerprint stays: the text of the document it restates, by which an import of a new edition tells that the
        document's words have changed."""

        def change(text: str) -> str:
            lines = lines_with_ends(text)
            raw, end = _find(draft.path, text, lines, draft.id)
            gone = {raw.headers["draft"][1]} if "draft" in raw.headers else set()
            for number in range(raw.line + 1, end + 1):
                if lines[number - 1].startswith(DRAFT_NOTE):
                    gone.add(number)
                    if not lines[number - 2].strip() and (number < 3 or not lines[number - 3].startswith(DRAFT_NOTE)):
                        gone.add(number - 1)
            return "".join(line for number, line in enumerate(lines, 1) if number not in gone)

        self._update(draft.path, change)
        self.discard_edit(draft)  # accepted as it is: an edit of it left in progress would be an orphan
        self._count("accepted")

    def skip(self, draft: Draft) -> None:
        """Leave the draft for a later walk."""
        state = self.state(draft.path)
        if draft.id not in state.skipped:
            state.skipped.append(draft.id)
        self.save_state(draft.path, state)
        self._count("skipped")

    def edit_file(self, draft: Draft, split: bool = False) -> Path:
        """The file the curator edits the draft in: the one of an edit in progress (told how to split, when a split
        is asked for and it does not say so yet), else a new one with its block."""
        path = self._edit_path(draft)
        how_to_split = f"{NOTE_START} put a line '{SPLIT_MARK} TITLE' where each part after the first starts (at a blank line or a bullet). -->"
        if not path.is_file():
            notes = [f"{NOTE_START} edit the entry below, save and close the editor. -->"]
            if split:
                notes.append(how_to_split)
            atomic.write_file(path, "\n".join(notes) + "\n\n" + draft.block.rstrip("\n") + "\n")
            self._started(draft, _digest(draft.block))
        elif split and how_to_split not in (text := _read(path)):
            atomic.write_file(path, how_to_split + "\n" + text)
        return path

    def reopen_edit(self, draft: Draft, split: bool = False) -> Path:
        """Start the edit (a split: `split`) of a draft changed meanwhile afresh, on its current text: the
        curator's earlier edit file kept beside it (its path returned), to copy from."""
        path = self._edit_path(draft)
        earlier = path.with_suffix(".earlier.md")
        if path.is_file():
            path.replace(earlier)
        self._started(draft, None)
        text = _read(draft.path)
        lines = lines_with_ends(text)
        raw, end = _find(draft.path, text, lines, draft.id)
        current = replace(draft, line=raw.line, block="".join(lines[raw.line - 1 : end]))
        self.edit_file(current, split=split)
        return earlier

    def has_edit(self, draft: Draft) -> bool:
        """Whether an edit of this draft is in progress (kept from an edit that did not pass)."""
        return self._edit_path(draft).is_file()

    def save_edit(self, draft: Draft) -> list[str]:
        """Check the edit file of the draft and, when it passes, put its entries in place of the draft and remove
        it: the problems found (the edit file then kept, with them at its top), else none."""
        path = self._edit_path(draft)
        started = self.state(draft.path).edits.get(draft.id)
        if started is not None and started != _digest(self._block(draft)):
            raise ChangedMeanwhileError(
                f"{draft.id} was changed in {draft.path} since your edit of it started (the document imported again?):"
                f" your edit was not saved over it; it is kept in {path}"
            )
        text = _read(path)
        body = "\n".join(line for line in text.split("\n") if not line.startswith(NOTE_START)).lstrip("\n")
        split = SPLIT_MARK in body
        if split:
            body = self._split(draft, body)
        self.warnings = []
        had = header(next(iter(split_entries(draft.path, draft.block)), RawEntry("", draft.path, 0)), "anchor")
        if had and not any(header(raw, "anchor") for raw in split_entries(draft.path, body)):
            # Without it, a new import of the document finds the entry by its section and title only, or not at all.
            self.warnings.append(f"its 'anchor: {had}' line is gone: a new import of the document may draft it again")
        problems = self._put(draft, body, path)
        if problems:
            notes = [f"{NOTE_START} fix what is below, save and close (or quit: this edit is kept for the next walk). -->"]
            notes += [f"{NOTE_START} problem: {p} -->" for p in problems]
            atomic.write_file(path, "\n".join(notes) + "\n\n" + body)
        else:
            self.discard_edit(draft)
            self._count("split" if split else "edited")
        return problems

    def edit_unchanged(self, draft: Draft) -> bool:
        """Whether the edit file of the draft holds its block as it is in its file, its notes aside: the editor
        closed without a change, or never opened."""
        path = self._edit_path(draft)
        if not path.is_file():
            return False
        body = "\n".join(line for line in _read(path).replace("\r\n", "\n").split("\n") if not line.startswith(NOTE_START))
        return body.strip("\n") == self._block(draft).replace("\r\n", "\n").strip("\n")

    def discard_edit(self, draft: Draft) -> None:
        """Drop an edit in progress."""
        self._edit_path(draft).unlink(missing_ok=True)
        self._started(draft, None)

    def _started(self, draft: Draft, digest: str | None) -> None:
        """Record (or forget) the digest of the draft's block as an edit of it starts."""
        state = self.state(draft.path)
        if digest is None and draft.id not in state.edits:
            return
        if digest is None:
            del state.edits[draft.id]
        else:
            state.edits[draft.id] = digest
        self.save_state(draft.path, state)

    def _block(self, draft: Draft) -> str:
        """The draft's block as its file has it now ("" when it is no longer there)."""
        text = _read(draft.path)
        lines = lines_with_ends(text)
        try:
            raw, end = _find(draft.path, text, lines, draft.id)
        except CurationError:
            return ""
        return "".join(lines[raw.line - 1 : end])

    def merge_next(self, draft: Draft) -> str:
        """Merge the draft with the entry after it in its file (a draft too): the id of the entry merged in.
        CurationError when there is none, or it is no draft, or the merge would bring a problem."""
        text = _read(draft.path)
        lines = lines_with_ends(text)
        found = _spans(draft.path, text, lines)
        index = next((i for i, (raw, _) in enumerate(found) if raw.id == draft.id), None)
        if index is None:
            raise CurationError(f"{draft.id} is no longer in {draft.path}")
        if index + 1 >= len(found):
            raise CurationError(f"{draft.id} is the last entry of {draft.path}: there is none after it to merge with")
        first, (second, second_end) = found[index][0], found[index + 1]
        if not is_draft(second):
            raise CurationError(f"the entry after {draft.id}, {second.id}, is restated (not a draft): merge it by hand")
        headers = [(key, value) for key, (value, _) in first.headers.items()]
        merged = dict(headers)
        aliases = [*split_list(merged.get("aliases", "")), header(second, "title"), *split_list(header(second, "aliases"))]
        merged["aliases"] = f"{LIST_SEPARATOR} ".join(dict.fromkeys(a for a in aliases if a and a != merged.get("title")))
        anchors = split_list(merged.get("anchor", "")) + split_list(header(second, "anchor"))
        if anchors:
            # Both places in the document: a new import of it leaves the merged entry to the curator (rulebot.corpus.updating).
            merged["anchor"] = f"{LIST_SEPARATOR} ".join(dict.fromkeys(anchors))
        for key in ("see_also", "asked"):
            values = split_list(merged.get(key, "")) + split_list(header(second, key))
            values = [v for v in dict.fromkeys(values) if v not in (first.id, second.id)]
            if values:
                merged[key] = f"{LIST_SEPARATOR} ".join(values)
        order = [k for k, _ in headers] + [k for k in ("anchor", "aliases", "see_also", "asked") if k in merged and k not in dict(headers)]
        text_of = "\n".join(first.body).strip() + "\n\n" + "\n".join(second.body).strip()
        # Its `drafted:` holds the fingerprints of both texts as the document had them: an import of a new edition, which
        # leaves a merged entry to the curator, tells whether the document's words have changed since.
        fingerprints = split_list(merged.get("drafted", "")) + split_list(header(second, "drafted"))
        drafted = [("drafted", f"{LIST_SEPARATOR} ".join(dict.fromkeys(fingerprints)))] if header(first, "drafted") and header(second, "drafted") else []
        block = format_entry(first.id, [*[(k, merged[k]) for k in order if k not in ("draft", "drafted") and merged[k]], ("draft", "true"), *drafted], text_of)
        ending = line_ending(lines)
        start = first.line - 1
        new_lines = [*lines[:start], block.replace("\n", ending), *lines[second_end:]]
        candidate = _repoint("".join(new_lines), second.id, first.id)
        problems = self._problems(draft.path, text, candidate)
        if problems:
            raise CurationError(f"merging {second.id} into {draft.id} would bring a problem: {problems[0].message}")
        self._replace(draft.path, text, candidate)
        self._count("merged")
        return second.id

    # -- state ---------------------------------------------------------------

    def state(self, path: Path) -> State:
        """The walk's state for an entries file (a fresh one when it has none, or it cannot be read)."""
        try:
            data = json.loads(self._state_path(path).read_text(encoding="utf-8"))
            edits = data.get("edits", {})
            return State(skipped=[str(i) for i in data.get("skipped", [])], edits={str(k): str(v) for k, v in edits.items()})
        except (OSError, ValueError, AttributeError):
            return State()

    def save_state(self, path: Path, state: State) -> None:
        data = {"game": self.game.slug, "file": str(path.resolve()), "skipped": state.skipped, "edits": state.edits}
        self.state_dir.mkdir(parents=True, exist_ok=True)
        atomic.write_file(self._state_path(path), json.dumps(data, indent=1) + "\n")

    def _key(self, path: Path) -> str:
        return review_key(self.game.slug, path)

    def _state_path(self, path: Path) -> Path:
        return self.state_dir / f"{self._key(path)}.json"

    def _edit_path(self, draft: Draft) -> Path:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        return self.state_dir / review_edit_name(self.game.slug, draft.path, draft.id)

    # -- writing -------------------------------------------------------------

    def _split(self, draft: Draft, body: str) -> str:
        """An edited block with split marks: an entry for each part, the ones after the first with the first's header,
        the title put after their mark and a fresh id."""
        raws = list(split_entries(draft.path, body))
        if len(raws) != 1:
            return body  # checked as it is: the problems will say what is wrong
        raw = raws[0]
        lines = raw.body
        marks = [i for i, line in enumerate(lines) if line.strip().startswith(SPLIT_MARK)]
        if not marks:
            return body  # a mark outside the text: checked as it is
        taken = set(self.corpus.entries) | {r.id for r in split_entries(draft.path, _read(draft.path))} | {raw.id}
        headers = [(key, value) for key, (value, _) in raw.headers.items()]
        parts = [format_entry(raw.id, headers, "\n".join(lines[: marks[0]]))]
        for number, (at, end) in enumerate(zip(marks, [*marks[1:], len(lines)]), 2):
            named = lines[at].strip()[len(SPLIT_MARK) :].strip()
            title = named or f"{header(raw, 'title')} ({number})"
            new_id = unique_id(self.game.id_prefix, title, taken)
            taken.add(new_id)
            # Each part keeps the anchor: a new import of the document leaves them all to the curator.
            part_headers = [(k, title if k == "title" else v) for k, v in headers if k not in ("aliases", "asked")]
            parts.append(format_entry(new_id, part_headers, "\n".join(lines[at + 1 : end])))
        return "\n".join(parts)

    def _put(self, draft: Draft, body: str, edit_path: Path) -> list[str]:
        """Put the entries of an edited block in place of the draft: the problems found, else none (written)."""
        source = next(s for p, s in self.files if p == draft.path)
        parsed = parse_file(edit_path, body, self.game, source, str(edit_path), house_only=False)
        problems = [f"line {p.line} of the entry: {p.message}" for p in parsed.problems]
        if not problems and not parsed.entries:
            problems.append("no entry: the block must start with its '## id' heading")
        if problems:
            return problems
        text = _read(draft.path)
        lines = lines_with_ends(text)
        try:
            raw, end = _find(draft.path, text, lines, draft.id)
        except CurationError as exc:
            return [str(exc)]
        ending = line_ending(lines)
        candidate = "".join([*lines[: raw.line - 1], body.strip("\n").replace("\n", ending) + ending, *lines[end:]])
        problems = [p.message for p in self._problems(draft.path, text, candidate)]
        if problems:
            return problems
        self._replace(draft.path, text, candidate)
        return []

    def _problems(self, path: Path, before: str, after: str) -> list[Problem]:
        """The problems `rulebot check` would find in the corpus with the file changed from `before` to `after`
        that it does not find with `before` (told apart by file and message)."""
        source = next(s for p, s in self.files if p == path)
        old = parse_file(path, before, self.game, source, str(path), house_only=False)
        new = parse_file(path, after, self.game, source, str(path), house_only=False)
        # The other files' entries as loaded; this file's as it is now (the walk has changed it since).
        here = path.resolve()
        others = {i: e for i, e in self.corpus.entries.items() if Path(e.path).resolve() != here}
        clashes = [Problem(str(path), e.line, f"id {e.id!r} is taken by another entry ({others[e.id].path})") for e in new.entries if e.id in others]
        ids = [e.id for e in new.entries]
        clashes += [Problem(str(path), e.line, f"id {e.id!r} is taken by another entry of the file") for e in new.entries if ids.count(e.id) > 1]
        was = check_corpus(replace(self.corpus, entries={**others, **{e.id: e for e in old.entries}}), set(old.rejected))
        now = check_corpus(replace(self.corpus, entries={**others, **{e.id: e for e in new.entries}}), set(new.rejected))
        seen = {(p.path, p.message) for p in [*old.problems, *was.problems]}
        return [p for p in [*new.problems, *clashes, *now.problems] if (p.path, p.message) not in seen]

    def _replace(self, path: Path, before: str, after: str) -> None:
        """Write `after` as the file, unless it was changed meanwhile (then CurationError, nothing written)."""

        def change(text: str) -> str:
            if text != before:
                raise CurationError(f"{path} was changed meanwhile; nothing was written: review it again")
            return after

        self._update(path, change)

    def _update(self, path: Path, change: Callable[[str], str]) -> None:
        def guarded(existing: str | None) -> str:
            if existing is None:
                raise CurationError(f"{path} is gone")
            return change(existing)

        atomic.update_file(path, guarded)


def load_walk(dirs: list[Path], game: str, start_over: bool = False, state_dir: Path | None = None) -> DraftWalk:
    """The walk through a game's drafts, the corpus of `dirs` loaded (its valid entries); CurationError when one
    of its files is the installed corpus's, never changed. `start_over`: the drafts skipped offered again."""
    loaded, _ = corpus_load.check(dirs)
    walk = DraftWalk(loaded, loaded.game(game).slug, state_dir)
    for path, _source in walk.files:
        scaffold.writable_entries_file(path, game)
    if start_over:
        walk.start_over()
    return walk


# -- reading entries files ---------------------------------------------------------


def _read(path: Path) -> str:
    try:
        data = atomic.read_regular(path)
    except OSError as exc:
        raise CurationError(f"cannot read {path}: {exc.strerror or exc}") from None
    if data is None:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        line, byte = undecodable_lines(data)[0]  # (where `rulebot check` says it, with every other such line)
        raise CurationError(f"{path}:{line}: not valid UTF-8 (byte {byte:#04x}): save it as UTF-8 (`rulebot check` lists every such line)") from None


def _spans(path: Path, text: str, lines: list[str]) -> list[tuple[RawEntry, int]]:
    """Each entry of a file, and the index of the line after it (its blank lines after it left out)."""
    return spans(list(split_entries(path, text)), lines)


def _digest(block: str) -> str:
    return hashlib.sha256(block.encode("utf-8", "surrogateescape")).hexdigest()


def _find(path: Path, text: str, lines: list[str], entry_id: str) -> tuple[RawEntry, int]:
    for raw, end in _spans(path, text, lines):
        if raw.id == entry_id:
            return raw, end
    raise CurationError(f"{entry_id} is no longer in {path}")


def _repoint(text: str, old: str, new: str) -> str:
    """Links (see_also, modifies) to `old` in a file's header lines made links to `new`."""
    pattern = re.compile(rf"^((?:see_also|modifies)\s*:.*?)(?<![a-z0-9-]){re.escape(old)}(?![a-z0-9-])", re.MULTILINE)
    previous = None
    while previous != text:
        previous, text = text, pattern.sub(lambda m: m.group(1) + new, text)
    return text
