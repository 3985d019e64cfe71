"""The entries-file format: ids, dates, header keys, lists, where entries start, and writing one.

An entries file holds one entry under each level-2 heading `## id` outside
code fences: `key: value` header lines up to the first blank line, then the
entry's text in Markdown. Loading (rulebot.corpus.entries), the whole-corpus
checks, importing, scaffolding and the citations check all read or write it
through this module.
"""

from __future__ import annotations

import bisect
import datetime
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.files import read_corpus_file
from rulebot.corpus.model import Entry
from rulebot.text import BREAK_CONTROLS, CONTROL_CHARACTER, fold

LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
"""Line endings as Markdown and editors count them (not str.splitlines's \\f, \\x85, \\u2028...)."""

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)$")
LANGUAGE_RE = re.compile(r"[a-z]{2}")
"""A language: a two-letter code (`language` of a game or a source)."""
LANGUAGE_KEY_RE = re.compile(r"^(aliases|asked)-([a-z]{2})$")
"""A list key in another language than English: `aliases-fr`, `asked-fr`."""
FENCES = ("```", "~~~")
"""What opens and closes a code fence, in which a `## ` line is no heading."""

ENTRY_KEYS = {"title", "kind", "section", "anchor", "expansion", "aliases", "asked", "see_also", "modifies", "revised", "new", "draft", "drafted"}
REQUIRED_ENTRY_KEYS = ("title", "kind", "section")
LIST_SEPARATOR = ";"
BOOLEANS = {"true": True, "false": False, "": False}
MAX_ENTRY_CHARS = 64 * 1024
"""An entry longer than this (heading, header and text) is refused: the longest rulebook entry is a few
thousand characters, and one of megabytes would cost every search and page."""
MAX_ID_SLUG = 60
"""Ids are cut at this many characters of slug (long FAQ questions)."""


def split_lines(text: str) -> list[str]:
    """The lines of a text, cut at CRLF, CR or LF only, so that line numbers match an editor's."""
    return LINE_BREAK_RE.split(text) if "\r" in text else text.split("\n")  # the same; str.split is much faster


def undecodable_lines(data: bytes) -> list[tuple[int, int]]:
    """(line number, the byte) of the first byte that is not UTF-8 on each line of data that has one, as
    split_lines numbers lines: each line decoded once (no byte of a UTF-8 character is a CR or LF)."""
    found: list[tuple[int, int]] = []
    for number, line in enumerate(re.split(rb"\r\n|\r|\n", data), 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            found.append((number, line[exc.start]))
    return found


def slugify(text: str) -> str:
    """Lower-case ASCII letters and digits joined by single hyphens; cut near MAX_ID_SLUG ("entry" when the text
    has none: slug_of)."""
    return slug_of(text) or "entry"


def slug_of(text: str) -> str:
    """A text's lower-case ASCII letters and digits joined by single hyphens, cut near MAX_ID_SLUG; "" for none."""
    slug = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    if len(slug) > MAX_ID_SLUG:
        slug = slug[:MAX_ID_SLUG].rsplit("-", 1)[0]
    return slug


def not_an_id(what: str, value: str) -> str:
    """The message for a slug or id that is not lower case letters and digits joined by single hyphens, with the
    one it could be (`Core_Rules` → `core-rules`): ids that used to pass with capitals or `_` now leave their game out."""
    fixed = slug_of(value)
    suggestion = f"; say {fixed!r}" if fixed and fixed != value else ""
    return f"{what} {value!r} must be lower case letters and digits joined by single hyphens{suggestion}"


def unique_id(prefix: str, title: str, taken: set[str]) -> str:
    """`prefix-slug-of-title`, with -2, -3 ... added until it is not in `taken`. (A title that starts with the game's
    name makes `lantern-drift-lantern-drift-…`: kept, as an import pairs an entry whose anchor a curator deleted by
    the id its draft was given, and renumbered_id reads the slug after the prefix.)"""
    return numbered(f"{prefix}-{slugify(title)}", taken)


def split_list(value: str) -> list[str]:
    """The items of a list value (`a; b; c`), blanks left out."""
    return [item.strip() for item in value.split(LIST_SEPARATOR) if item.strip()]


def is_date(value: str) -> bool:
    """Whether a value is a real date written YYYY-MM-DD."""
    if not DATE_RE.match(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


@dataclass
class RawEntry:
    """An entry as written, before its header is checked."""

    id: str
    """The text of its heading, after `## `."""
    path: Path
    """The entries file."""
    line: int
    """The line of its heading."""
    headers: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each header key's value and line, the first time the key is given."""
    body: list[str] = field(default_factory=list)
    """The lines of its text."""
    problems: tuple[tuple[int, str], ...] = ()
    """What is wrong with its header lines or how it is written: (line, message)."""
    oversized: bool = False
    """Longer than MAX_ENTRY_CHARS: its header and text are left unread."""
    misheaded: tuple[int, ...] = ()
    """The lines of its text that are another entry's heading mistyped (a # too many or too few, indented)."""


def split_entries(path: Path, text: str, preamble: list[tuple[int, str]] | None = None) -> Iterator[RawEntry]:
    """Cut a file into raw entries at each level-2 heading outside code fences.

    A code fence left open would make every later heading of the file part
    of its entry's text: each is reported at its line, and the file is cut
    as if that fence line were text, so that the later entries still load.
    A control character in an entry (an escape sequence) is reported too.
    `preamble`, when given, receives the problems of the lines before the
    first entry (line, message): an entry's heading mistyped there.
    """
    lines = split_lines(text)
    # Only headings and fence lines decide where entries start: they are
    # picked out first, so that the loops below see a few lines per entry
    # rather than every line of a file of thousands.
    # (lines of other headings come out of the same pass: an entry's heading mistyped is one of them)
    # (a heading indented is picked too: Markdown reads it as a heading, rulebot as text, so it is one mistyped)
    picked = [i for i, line in enumerate(lines) if line.lstrip().startswith(_HASH_OR_FENCE)]
    marks = [i for i in picked if lines[i].startswith("## ") or lines[i].lstrip().startswith(FENCES)]
    other_headings = [i for i in picked if not lines[i].startswith("## ") and not lines[i].lstrip().startswith(FENCES)]
    starts, unclosed, fenced = _starts(lines, marks, set())
    left_open: list[int] = []
    passes = MAX_FENCE_WORK // max(len(marks), 1)  # how many more times recovery may go over the marks
    while unclosed is not None:
        if len(left_open) >= MAX_UNCLOSED_FENCES or passes <= 2:  # no more searching: the one open at the end, and done
            left_open.append(unclosed)
            starts, _, fenced = _starts(lines, marks, set(left_open))
            break
        opened, tried = _left_open(lines, marks, starts, set(left_open), unclosed, passes - 1)
        passes -= tried + 1
        left_open.append(opened)
        starts, unclosed, fenced = _starts(lines, marks, set(left_open))
    controls = CONTROL_CHARACTER.search(text) is not None  # almost never: entries are then looked at line by line
    # An entry's heading with a # too many or too few ("### id", "##id") is read as the text of the entry above
    # (or of the file's preamble): reported where it is, with the entry it falls in.
    misheaded: dict[int, list[tuple[int, str]]] = {}
    for index, heading in _misheaded(lines, other_headings, fenced):
        message = f"{heading!r} is read as text of %s: an entry's heading is '## ' and its id" + (
            ", at the start of its line" if lines[index][:1].isspace() else ""
        )
        within = bisect.bisect_right(starts, index) - 1
        if within >= 0:
            misheaded.setdefault(starts[within], []).append((index + 1, message % lines[starts[within]][3:].strip()))
        elif preamble is not None:
            preamble.append((index + 1, message % "the file's preamble"))
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        raw = RawEntry(id=lines[start][3:].strip(), path=path, line=start + 1)
        for index in left_open:
            if start <= index < end or (index < start == starts[0]):
                raw.problems += ((index + 1, "code fence opened here is never closed (close it with the same ``` or ~~~)"),)
        if controls:
            raw.problems += tuple(_control_problems(lines, start, end))
        raw.problems += tuple(misheaded.get(start, ()))
        raw.misheaded = tuple(line for line, _message in misheaded.get(start, ()))
        size = sum(map(len, lines[start:end])) + end - start
        if size > MAX_ENTRY_CHARS:
            raw.problems += ((start + 1, f"entry of {size:,} characters: at most {MAX_ENTRY_CHARS:,} (split it)"),)
            raw.oversized = True
            raw.problems = tuple(sorted(raw.problems))
            yield raw  # its header and text are not read: it is refused anyway
            continue
        body = start + 1  # the header runs to the first blank line; the text follows it
        while body < end and lines[body].strip():
            match = HEADER_RE.match(lines[body])
            if match is None:
                raw.problems += ((body + 1, "expected a 'key: value' header line or a blank line before the text"),)
                break
            key, value = match.group(1), match.group(2).strip()
            if key in raw.headers:
                raw.problems += ((body + 1, f"key {key!r} given twice (first at line {raw.headers[key][1]})"),)
            else:
                raw.headers[key] = (value, body + 1)
            body += 1
        else:
            body += 1  # the blank line
        raw.body = lines[body:end]
        raw.problems = tuple(sorted(raw.problems))
        yield raw


MISHEADED_RE = re.compile(r"[ \t]*(#+[ \t]*[a-z0-9]+(?:-[a-z0-9]+)+)[ \t]*")
"""A heading that is no entry's (one #, three or more, none of a space after "##", or indented) and an id: over an
entry's header line (HEADER_START_RE), or glued to its "##" (GLUED_RE), an entry's heading mistyped."""
_HASH_OR_FENCE = ("#", *FENCES)
HEADER_START_RE = re.compile(r"(?:title|kind|section)[ \t]*:")
"""The start of an entry's header line (with its colon: a text's "section 2 applies" under a heading is text)."""
GLUED_RE = re.compile(r"##[^\s#]")
"""An entry's heading with no space after its "##"."""


def _misheaded(lines: list[str], headings: list[int], fenced: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """(line index, heading) of each of the `headings` (lines that begin with # but are no entry's) outside the
    `fenced` spans that is an entry's heading mistyped (MISHEADED_RE), in file order."""
    opens = [open_ for open_, _ in fenced]
    found = []
    for index in headings:
        line = lines[index]
        heading = MISHEADED_RE.fullmatch(line)
        # ("##id" is no Markdown heading at all, whatever follows it: an id there is an entry's heading mistyped)
        if heading and (GLUED_RE.match(line) or (index + 1 < len(lines) and HEADER_START_RE.match(lines[index + 1]))):
            inside = bisect.bisect_right(opens, index) - 1
            if inside < 0 or index > fenced[inside][1]:
                found.append((index, heading.group(1)))
    return found

MAX_UNCLOSED_FENCES = 20
"""A file's unclosed code fences are looked for up to this many, and as many fences tried for each."""
MAX_FENCE_WORK = 2_000_000
"""Each fence tried as the one left open costs a pass over a file's heading and fence lines: recovery takes at
most this many lines in all (about a second), fewer fences tried in a huge file, so that no file can make it slow."""


def _starts(lines: list[str], marks: list[int], ignored: set[int]) -> tuple[list[int], int | None, list[tuple[int, int]]]:
    """The lines where entries start, the fence line left open at the end (None if none), and the spans
    fenced (opening and closing line, the last line for one left open), fence lines in `ignored` taken for
    text."""
    starts: list[int] = []
    fenced: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    for index in marks:
        line = lines[index]
        if fence is None and line.startswith("## "):
            starts.append(index)
        elif (marker := line.lstrip()[:3]) in FENCES and index not in ignored:
            if fence is None:
                fence, opened = marker, index
            elif marker == fence:
                fence = None
                fenced.append((opened, index))
    if fence is not None:
        fenced.append((opened, len(lines) - 1))
    return starts, opened if fence is not None else None, fenced


def _left_open(lines: list[str], marks: list[int], starts: list[int], ignored: set[int], unclosed: int, most: int) -> tuple[int, int]:
    """Which fence line was left open: of the one open at the end and the fences that hold a heading, the one
    that, taken for text, leaves the fewest headings inside fences (the one open at the end on a tie). `starts`
    are where entries start with the fences in `ignored` taken for text; at most `most` fences are tried.
    Returns the fence and how many were tried (each a pass over the marks)."""
    headings = [i for i in marks if lines[i].startswith("## ")]
    kept = set(starts)
    swallowed = [i for i in headings if i not in kept]  # in order, as marks are
    # A fence line is a suspect when a heading it hides follows it before the next fence line: the first
    # swallowed heading after it (found by bisection, never by comparing every pair) is before that line.
    fences = [i for i in marks if not lines[i].startswith("## ") and i not in ignored]
    suspects: list[int] = []
    for fence, after in zip(fences, [*fences[1:], len(lines)]):
        if len(suspects) >= min(most - 1, MAX_UNCLOSED_FENCES):
            break
        first = bisect.bisect_right(swallowed, fence)
        if fence != unclosed and first < len(swallowed) and swallowed[first] < after:
            suspects.append(fence)
    candidates = [unclosed, *suspects]

    def hidden(candidate: int) -> int:
        return len(headings) - len(_starts(lines, marks, ignored | {candidate})[0])

    return min(candidates, key=lambda c: (hidden(c), c != unclosed)), len(candidates)


def _control_problems(lines: list[str], start: int, end: int) -> Iterator[tuple[int, str]]:
    """Each line of an entry that holds a control character, as a problem (line, message) naming its first."""
    for number in range(start, end):
        found = CONTROL_CHARACTER.search(lines[number])
        if found:
            character = found.group()
            code = ord(character)
            if character in BREAK_CONTROLS:
                name, _ = BREAK_CONTROLS[character]
                yield number + 1, f"{name} (U+{code:04X}) in the entry: use a blank line or a line break instead (`rulebot import` does)"
                continue
            what = "an escape sequence" if code in ESCAPE_STARTS else "a control character"
            yield number + 1, f"{what} (U+{code:04X}) in the entry: a terminal would act on it; remove it"


ESCAPE_STARTS = (0x1B, 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F)
"""What begins an escape sequence: ESC, and the C1 characters that are one alone (DCS, SOS, CSI, OSC, PM, APC)."""


def format_entry(entry_id: str, headers: Iterable[tuple[str, str]], text: str) -> str:
    """One entry in the entries-file format: the heading, `key: value` lines, a blank line, the text."""
    lines = [f"## {entry_id}"]
    lines.extend(f"{key}: {' '.join(value.split())}".rstrip() for key, value in headers)
    lines.append("")
    if text.strip():
        lines.extend([text.strip(), ""])
    return "\n".join(lines)


def joined(existing: str | None, text: str, ending: str = "\n") -> str:
    """Entries `text` added at the end of an entries file's `existing` content (None: no file), a blank line between
    (of the file's line `ending`)."""
    if not existing:
        return text
    return existing + ("" if existing.endswith(ending * 2) else ending if existing.endswith(ending) else ending * 2) + text


def file_lines(path: str) -> list[str] | None:
    """The lines of an entries file, or None when it cannot be read."""
    try:
        data, _ = read_corpus_file(Path(path))
        return split_lines(data.decode("utf-8")) if data is not None else None
    except (OSError, UnicodeDecodeError):
        return None


def header_line(entry: Entry, key: str, lines: list[str] | None = None) -> int:
    """The line of a header key of an entry (the heading's line if absent).

    `lines` are the lines of the entry's file when the caller has them already.
    """
    if lines is None:
        lines = file_lines(entry.path)
    if lines is None:
        return entry.line
    for number in range(entry.line, min(len(lines), entry.line + 30)):
        if lines[number].startswith(key + ":"):
            return number + 1
        if not lines[number].strip():
            break
    return entry.line


# -- shared by the writers of entries files (rulebot.corpus.updating, rulebot.corpus.walk) -----------------


def numbered(base: str, taken: set[str]) -> str:
    """`base`, with -2, -3 ... added until it is not in `taken`: the one numbering of ids."""
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def renumbered_id(entry_id: str, title: str, taken: set[str]) -> str:
    """An id unique_id gave (`prefix-slug`, perhaps numbered) numbered afresh against `taken`: `x-example-2`
    becomes `x-example-3`, not `x-example-2-2`."""
    match = re.fullmatch(rf"(.+-{re.escape(slugify(title))})(?:-\d+)?", entry_id)
    return numbered(match.group(1) if match else entry_id, taken)


def lines_with_ends(text: str) -> list[str]:
    """A text's lines with their own line ends, cut where split_lines cuts them."""
    parts = LINE_BREAK_RE.split(text)
    ends = LINE_BREAK_RE.findall(text)
    lines = [part + (ends[i] if i < len(ends) else "") for i, part in enumerate(parts)]
    return lines if lines and lines[-1] else lines[:-1]


def line_ending(lines: list[str]) -> str:
    """The line ending a file's lines use (its first line's), LF for a file of one line or none."""
    return next((line[len(line.rstrip("\r\n")) :] for line in lines if line.endswith(("\n", "\r"))), "\n")


DRAFT_NOTE = "Draft note:"
"""How a line an import adds to a draft's text for its curator begins ("Draft note: “See also X” names no drafted
entry."): part of the file, never of the ruling players read (rulebot.corpus.entries)."""


def without_draft_notes(lines: list[str]) -> list[str]:
    """A draft's text lines without the notes an import added for its curator (DRAFT_NOTE)."""
    return [line for line in lines if not line.startswith(DRAFT_NOTE)]


def one_line(text: str) -> str:
    """A value's words on one line, single-spaced."""
    return " ".join(text.split())


def header(raw: RawEntry, key: str) -> str:
    """A header value of a raw entry, on one line ("" when it has none)."""
    return one_line(raw.headers.get(key, ("", 0))[0])


def is_draft(raw: RawEntry) -> bool:
    """Still marked `draft: true`: anything else (no draft line, `false`, a value check refuses) is the curator's."""
    return header(raw, "draft") == "true"


def spans(raws: list[RawEntry], lines: list[str]) -> list[tuple[RawEntry, int]]:
    """Each entry of a file, and the index of the line after it, the blank lines after it left out."""
    ends = [*[r.line - 1 for r in raws[1:]], len(lines)]
    found = []
    for raw, end in zip(raws, ends):
        while end > raw.line and not lines[end - 1].strip():
            end -= 1
        found.append((raw, end))
    return found
