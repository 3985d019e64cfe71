"""Verified citations: can each entry's cited section be found in its source document?

`rulebot check --sources DIR` is given a folder holding the curator's own
copies of the source documents, one file per source: `<source-id>.md`,
`.txt` or `.pdf` (also in a `<game-slug>/` subfolder), or a file whose name starts with
the source id or `<game-slug>-<source-id>`. For each entry, the last
`>`-separated component of its `section` is looked for in the document,
ignoring case, accents and Markdown markup:

1. a line that is exactly that name (a heading, a title line),
2. a line that starts with it and a separator: a lead-in (`**Name** — text`),
   `Name:`, or a numbered rule (`702.19b text`),
3. a heading or title line that contains it.

A remark in parentheses, `, bullet 3`-style qualifiers after a comma, and
`;`-separated parts (each looked for) are understood. A section found nowhere
is a dangling citation (a problem). One found at several places of the best
kind is ambiguous (a warning) only when it really is: the earlier components
of the section decide between places when they can, headings win over plain
lines, and a table of contents (a run of short title lines) never competes
with the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.documents import plain, read_document, split_lead_ins
from rulebot.corpus.format import file_lines, header_line
from rulebot.corpus.model import Corpus, Entry
from rulebot.errors import CurationError, Problem
from rulebot.places import display_path
from rulebot.text import fold

DOCUMENT_SUFFIXES = (".md", ".txt", ".markdown", ".pdf")
SEPARATOR_RE = re.compile(r"^\s*(?:[—–:.(,]|-\s|\s-\s)")
NUMBERISH_RE = re.compile(r"\d+\.\d")
TITLE_MAX = 80
RUN = 3
"""This many short title lines in a row make a table of contents (or a list), which never competes with the text."""
UNHEADED_RE = re.compile(r"\([^)]*\bunheaded\b[^)]*\)", re.IGNORECASE)
"""A remark saying the cited part has no heading in the document (`Setup (opening list, unheaded), bullet 2`)."""
GARBLED = 85
"""A title line this similar (rapidfuzz ratio, same number of words) to a section name is that name garbled by a PDF extraction."""
INTRODUCTION = "introduction"
"""The name of a document's opening text, before its first section: found where that text starts."""


@dataclass
class Verification:
    """What checking the citations of a corpus against source documents found."""

    dangling: list[Problem] = field(default_factory=list)
    """Sections found nowhere in their document (at the entry's `section:` line)."""
    ambiguous: list[Problem] = field(default_factory=list)
    """Sections found at several equally good places."""
    verified: int = 0
    """Entries whose section was found at one place."""
    documents: dict[str, Path] = field(default_factory=dict)
    """The document found for each `game/source`."""
    missing: dict[str, int] = field(default_factory=dict)
    """`game/source` with no document in the folder, and how many entries cite it."""
    named: dict[str, str] = field(default_factory=dict)
    """The file name game.toml gives a `game/source`'s document (its `document`), where it gives one: what was looked for."""
    unheaded: int = 0
    """Entries citing a place the document leaves without a heading (`(…, unheaded)`): not checked."""

    def summary(self) -> str:
        """One line: verified, dangling, ambiguous, and sources without a document."""
        line = f"citations: {self.verified} verified, {len(self.dangling)} dangling, {len(self.ambiguous)} ambiguous"
        if self.missing:
            unchecked = sum(self.missing.values())
            # (the file looked for, where game.toml names it: a curator's copy of another name is not found by it)
            missing = ", ".join(f"{key} ({self.named[key]})" if key in self.named else key for key in sorted(self.missing))
            line += f"; {unchecked} not checked (no document for {missing})"
        if self.unheaded:
            line += f"; {self.unheaded} citing a part without a heading (unheaded), not checked"
        return line


@dataclass(frozen=True)
class Place:
    """Where a section was found in a document."""

    line: int
    """1-based line number."""
    tier: int
    """1 exact line, 2 line start with a separator, 3 contained in a heading or title line."""
    heading: bool
    """The line is a Markdown heading."""
    listed: bool
    """The line is in a run of short title lines (a table of contents)."""
    leads: bool
    """Text follows the line: it starts a section, it is not one more line of a list."""


def verify(corpus: Corpus, folder: Path, only: Callable[[Entry], bool] | None = None) -> Verification:
    """Check every entry's section (of those `only` accepts) against the documents in `folder`.

    CurationError when the folder does not exist; a document that cannot be
    read is reported as a problem at its path.
    """
    if not folder.is_dir():
        raise CurationError(f"no such folder: {folder}")
    result = Verification()
    documents: dict[str, Document | None] = {}
    entry_files: dict[str, list[str] | None] = {}
    for entry in corpus.entries.values():
        if only is not None and not only(entry):
            continue
        key = f"{entry.game}/{entry.source}"
        if key not in documents:
            source = corpus.games[entry.game].source(entry.source) if entry.game in corpus.games else None
            path = find_document(folder, entry.game, entry.source, source.document if source else "")
            documents[key] = None
            if source is not None and source.document:
                result.named[key] = source.document
            if path is not None:
                result.documents[key] = path
                try:
                    documents[key] = Document(read_document(path), path.name)
                except CurationError as exc:
                    result.dangling.append(Problem(display_path(path), 0, f"cannot read the source document: {exc}"))
        document = documents[key]
        if document is None:
            result.missing[key] = result.missing.get(key, 0) + 1
            continue
        if entry.path not in entry_files:
            entry_files[entry.path] = file_lines(entry.path)  # read once for all its entries
        check_entry(entry, document, result, entry_files[entry.path])
    return result


def check_entry(entry: Entry, document: Document, result: Verification, lines: list[str] | None = None) -> None:
    """Add the entry to the verified, dangling or ambiguous ones of `result` (`lines`: of its entries file, if read)."""
    where = (entry.path, header_line(entry, "section", lines))
    if not entry.section.replace(">", "").strip():
        return
    context, parts = _cited(entry.section)
    if any(UNHEADED_RE.search(part) for part in parts):
        result.unheaded += 1  # the document gives that place no name to find
        return
    ambiguous: list[Place] = []
    for part in parts:
        places = document.locate(part, context)
        if not places:
            looked = f" (looked for {part!r})" if part != entry.section else ""
            result.dangling.append(
                Problem(*where, f"dangling citation: {entry.id!r} cites section {entry.section!r}, not found in {document.name}{looked}")
            )
            return
        if len(places) > 1:
            ambiguous = places
    if ambiguous:
        numbers = ", ".join(str(p.line) for p in ambiguous[:5]) + (", …" if len(ambiguous) > 5 else "")
        result.ambiguous.append(
            Problem(*where, f"ambiguous citation: {entry.id!r} cites section {entry.section!r}, found in {document.name} at lines {numbers}")
        )
        return
    result.verified += 1


def cites_section_of(entry: Entry, document: Document) -> bool:
    """Whether check_entry would find no dangling citation in an entry's section against a document: every part of it
    found, or one with no heading of its own (the document gives it no name to look for)."""
    context, parts = _cited(entry.section)
    return any(UNHEADED_RE.search(part) for part in parts) or all(document.locate(part, context) for part in parts)


def _cited(section: str) -> tuple[list[str], list[str]]:
    """What a `section` cites: the components before its last (where to look), and the `;`-separated parts of its
    last (each looked for)."""
    components = [c.strip() for c in section.split(">") if c.strip()]
    return components[:-1], [p.strip() for p in components[-1].split(";") if p.strip()] if components else []


def find_document(folder: Path, game: str, source: str, named: str = "") -> Path | None:
    """The copy of a source document in `folder`: the file `named` (the source's `document` in game.toml),
    else `<source>.md|.txt|.pdf` (also under `<game>/`), else by name prefix."""
    for where in (folder / game, folder):
        if named and (where / named).is_file():
            return where / named
    for where in (folder / game, folder):
        for suffix in DOCUMENT_SUFFIXES:
            path = where / f"{source}{suffix}"
            if path.is_file():
                return path
    prefixes = (f"{source}-", f"{source}_", f"{game}-{source}")
    for where in (folder / game, folder):
        try:
            names = sorted(p for p in where.iterdir() if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES)
        except OSError:
            continue
        for path in names:
            if path.stem.startswith(prefixes):
                return path
    return None


def normalize(text: str) -> str:
    """A line or a section name as compared: markup, bullets and revision marks off, folded."""
    text = plain(text.strip())
    text = re.sub(r"^(?:[-*+•>]\s+|\\?\*\s*)+", "", text)
    text = text.replace("“", '"').replace("”", '"').replace("„", '"').replace("‘", "'").replace("’", "'")
    return fold(text)


def anchors(component: str) -> list[str]:
    """The forms a section component is looked for in: as written, without remarks in parentheses, without qualifiers after commas."""
    forms = [component, re.sub(r"\s*\([^)]*\)", "", component).strip()]
    for form in list(forms):
        while "," in form:
            form = form.rsplit(",", 1)[0].strip()
            forms.append(form)
    found = []
    for form in forms:
        normal = normalize(form).rstrip(" :.")
        if normal and normal not in found:
            found.append(normal)
    return found


@dataclass
class _Line:
    number: int
    text: str
    heading: bool
    title: bool
    listed: bool = False
    leads: bool = False
    level: int = 0
    """A Markdown heading's level; 0 for any other line."""


class Document:
    """A source document prepared for looking sections up."""

    def __init__(self, text: str, name: str = "document"):
        self.name = name
        self.lines: list[_Line] = []
        self.by_word: dict[str, list[_Line]] = {}
        self.index: dict[int, int] = {}
        """Line number to the position of its first piece in `lines`."""
        raw = text.split("\n")
        for number, line in enumerate(raw, 1):
            if not line.strip():
                continue
            hashes = re.match(r"^\s{0,3}(#{1,6})\s", line)
            heading = hashes is not None
            for segment in split_lead_ins(line):
                normal = normalize(segment)
                if not normal:
                    continue
                entry = _Line(number, normal, heading, heading or _title(normal), level=len(hashes.group(1)) if hashes else 0)
                self.lines.append(entry)
                self.by_word.setdefault(_first_word(normal), []).append(entry)
        for entry, following in zip(self.lines, self.lines[1:], strict=False):
            entry.leads = entry.number != following.number and not following.title
        for position, entry in enumerate(self.lines):
            self.index.setdefault(entry.number, position)
        self.marked = any(entry.heading for entry in self.lines)
        """Markdown headings give the sections; without any, title lines followed by text do."""
        # Runs of short title lines (tables of contents) compete only when nothing else does;
        # the last line of a run followed by text is a heading after a list, not part of it.
        run: list[_Line] = []
        for current in [*self.lines, None]:
            if current is not None and current.title and not current.heading and (not run or current.number - run[-1].number <= 2):
                run.append(current)
                continue
            if run and run[-1].leads:
                run.pop()
            if len(run) >= RUN:
                for listed in run:
                    listed.listed = True
            run = [current] if current is not None and current.title and not current.heading else []

    def locate(self, component: str, context: list[str] | None = None) -> list[Place]:
        """The best places of a section component; several only when nothing tells them apart."""
        for anchor in anchors(component):
            places = self._places(anchor)
            if places:
                return self._best(places, context or [])
        return []

    def _places(self, anchor: str) -> list[Place]:
        places: dict[int, Place] = {}
        numberish = bool(NUMBERISH_RE.search(anchor))
        for line in self.by_word.get(_first_word(anchor), []):
            text = line.text.rstrip(" :.")
            if text == anchor:
                tier = 1
            elif line.text.startswith(anchor) and (
                SEPARATOR_RE.match(line.text[len(anchor) :]) or (numberish and line.text[len(anchor) : len(anchor) + 1] == " ")
            ):
                tier = 2
            else:
                continue
            place = Place(line.number, tier, line.heading, line.listed, line.leads)
            if line.number not in places or tier < places[line.number].tier:
                places[line.number] = place
        if not places:
            pattern = re.compile(rf"(?<!\w){re.escape(anchor)}(?!\w)")
            for line in self.lines:
                if line.title and pattern.search(line.text):
                    places.setdefault(line.number, Place(line.number, 3, line.heading, line.listed, line.leads))
        if not places:
            # A heading garbled by a PDF's text extraction (`THE END OF THE GRNE`): a title line, the same
            # number of words, nearly the same letters.
            from rapidfuzz import fuzz

            words = len(anchor.split())
            for line in self.lines:
                text = line.text.rstrip(" :.")
                if line.title and line.leads and len(text.split()) == words and fuzz.ratio(text, anchor) >= GARBLED:
                    places.setdefault(line.number, Place(line.number, 4, line.heading, line.listed, line.leads))
        if not places and anchor == INTRODUCTION:
            # The text before the first section: below the document's title (a `#` heading) and any
            # table of contents, which conversions leave as a heading over the opening text.
            opening = next((line for line in self.lines if not line.title and not line.heading), None)
            first_section = next((line for line in self.lines if line.heading and line.level > 1 and "contents" not in line.text), None)
            if opening is not None and (first_section is None or opening.number < first_section.number):
                places[opening.number] = Place(opening.number, 4, False, False, True)
        return list(places.values())

    def _best(self, places: list[Place], context: list[str]) -> list[Place]:
        best_tier = min(p.tier for p in places)
        best = [p for p in places if p.tier == best_tier]
        if len(best) > 1 and context:
            # Better: the section right above is the last component; else: the components come before.
            inside = [p for p in best if self._inside(p.line, context[-1])]
            fitting = inside or [p for p in best if self._fits(p.line, context)]
            best = fitting or best
        for prefer in (lambda p: p.heading, lambda p: not p.listed, lambda p: p.leads):
            if len(best) > 1 and any(prefer(p) for p in best):
                best = [p for p in best if prefer(p)]
        if best_tier >= 3:
            return best[:1]  # a loose match is no evidence of ambiguity
        return sorted(best, key=lambda p: p.line)

    def _inside(self, line: int, component: str) -> bool:
        """Whether the heading just above a line (a higher-level one, for a heading) is the component."""
        index = self.index[line]
        level = self.lines[index].level
        for position in range(index - 1, -1, -1):
            entry = self.lines[position]
            if not (entry.heading or (not self.marked and entry.title and entry.leads)):
                continue
            if level and entry.level and entry.level >= level:
                continue
            text = entry.text.rstrip(" :.")
            return any(text == anchor or (text.startswith(anchor) and SEPARATOR_RE.match(text[len(anchor) :])) for anchor in anchors(component))
        return False

    def _fits(self, line: int, context: list[str]) -> bool:
        """Whether the earlier section components are found, in order, before a line."""
        for component in reversed(context):
            before = [p.line for anchor in anchors(component.split(";")[0]) for p in self._places(anchor) if p.line < line]
            if not before:
                return False
            line = max(before)
        return True


def _first_word(text: str) -> str:
    match = re.search(r"\w+", text)
    return match.group(0) if match else text[:1]


def _title(text: str) -> bool:
    return 0 < len(text) <= TITLE_MAX and text[-1] not in ".,;!?"
