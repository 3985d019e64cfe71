"""Drafting corpus entries from a rules or FAQ document (`rulebot import`).

A Markdown document is read with the project's one markdown-it parser
(`rulebot.markdown.parser()`): its headings give the sections and titles, its
paragraphs, lists, tables and code the texts. A plain-text document has no
markup: its paragraphs are separated by blank lines, and a short line standing
alone (all capitals, `N. Title`, or no closing punctuation) is a heading.

Inside a section, entries start at

- bold lead-ins, `**Card name** — text` (also `Term — text` with a dash),
- `Q:` / `A:` pairs: one FAQ entry per question,
- numbered rules: `702.19b text`, or headings such as `#### 1.5.2. Title`,
- glossary terms of plain-text documents: a short line, its definition below.

A heading with text of its own is an entry too. References become `see_also`
links between the drafts: `See also X.` lines, `see rule 702.19` (and
`rules 205.1a–b, 305.7`), `See 1.7.`, `(see X)` and links to the document's
own headings (`[Ability](#ability)`). Redirects (`X - See Y.`, or a heading
whose only text is `See Y.`) put the alias X on Y. What cannot be resolved is
kept as a note for the curator.

Every drafted entry carries `draft: true`: its text is still the document's
own, to be restated by a curator (`rulebot check --strict` lists drafts).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.format import LIST_SEPARATOR, format_entry
from rulebot.errors import CurationError
from rulebot.corpus.model import Corpus, Game, Source
from rulebot.text import fold, plural

MARKDOWN_SUFFIXES = (".md", ".markdown")
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
MAX_ID_SLUG = 60
"""Ids are cut at this many characters of slug (long FAQ questions)."""

DASHES = "—–"
NUMBER = r"\d+(?:\.\d+)+(?:[a-z]\b|\.[A-Z]\b)?"
"""A rule number: 702.19, 702.19b, 1.5.2, 1.5.2.C (at least one dot)."""
NUMBERED_RE = re.compile(rf"^\s*(?P<number>{NUMBER})\.?(?:\s+(?P<rest>.*))?$", re.DOTALL)
SECTION_NUMBER_RE = re.compile(r"^\s*(?P<number>\d+)\.\s+(?P<rest>\S.*)$")
RULE_REF_RE = re.compile(
    rf"\brules?[ \t]+(?P<list>{NUMBER}\.?(?:\s*[{DASHES}-]\s*[a-z]\b)?"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){NUMBER}\.?(?:\s*[{DASHES}-]\s*[a-z]\b)?)*)",
    re.IGNORECASE,
)
SECTION_REF_RE = re.compile(r"\brules?[ \t]+(?P<number>\d{3})\b(?!\.\d)", re.IGNORECASE)
SEE_NUMBER_RE = re.compile(rf"\bsee\s+(?P<number>{NUMBER})", re.IGNORECASE)
RANGE_RE = re.compile(rf"(?P<number>{NUMBER})\.?(?:\s*[{DASHES}-]\s*(?P<last>[a-z])\b)?")
PAREN_SEE_RE = re.compile(r"\(\s*see\s+(?P<name>[^()]{1,60}?)\s*\)", re.IGNORECASE)
ANCHOR_RE = re.compile(r"\]\((?P<anchor>#[^)\s]+)\)")
SEE_ALSO_RE = re.compile(r"^\s*See (?i:also)\s*:?\s*(?P<names>.+?)\s*$", re.DOTALL)
SEE_RE = re.compile(r"^\s*See\s*:?\s+(?P<name>[^.;:()]{1,120}?)\s*\.?\s*$")
REDIRECT_RE = re.compile(rf"^\s*(?P<name>[^{DASHES}\n]{{1,60}}?)\s+[-{DASHES}]\s+see\s+(?P<target>[^\n]{{1,80}}?)\s*\.?\s*$", re.IGNORECASE)
QUESTION_RE = re.compile(r"^\s*(?:\*\*|__)?\s*Q\s*[:.]\s*(?:\*\*|__)?\s*(?P<rest>.*)$", re.DOTALL)
ANSWER_RE = re.compile(r"^\s*(?:\*\*|__)?\s*A\s*[:.]\s*(?:\*\*|__)?\s*", re.DOTALL)
REVISION_MARK_RE = re.compile(r"^\s*(?:\\\*|\*(?=\s))\s*")
BOLD_LEAD_RE = re.compile(
    rf"^\s*(?P<mark>(?:\\\*|\*(?=\s))\s*)?(?:\*\*|__)(?P<name>[^*_\n]{{1,80}}?)(?P<colon>[:.])?(?:\*\*|__)"
    rf"(?(colon)\s*|\s*(?:[{DASHES}:]|-(?=\s))\s*)(?P<rest>\S.*)$",
    re.DOTALL,
)
DASH_LEAD_RE = re.compile(
    rf"^\s*(?P<mark>(?:\\\*|\*(?=\s))\s*)?(?P<name>[^{DASHES}\n.!?:;*]{{1,60}}?)\s+[{DASHES}]\s+(?P<rest>\S.*)$", re.DOTALL
)
MID_LEAD_RE = re.compile(rf"(?<=[.!?)\"”])\s+(?=(?:\\\*\s*)?\*\*[^*\n]{{1,80}}\*\*\s*[{DASHES}])")
PAGE_LEAD_RE = re.compile(r"^(?:page|p\.|step|section)\s*\d", re.IGNORECASE)
ACRONYMS = {"FAQ", "FAQS", "VP", "VPS", "TOC", "AI", "ID", "II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII"}
"""Words kept in capitals when a heading in capitals is given title case."""
SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "de", "du", "des", "la", "le", "les", "et"}
"""Words left in lower case inside such a title."""
MAX_LEAD_WORDS = 8
MAX_TITLE_WORDS = 10

KIND_WORDS = (
    # Innermost section first: the first component naming one of these gives the kind.
    (("errata", "erratum", "corrections"), "errata"),
    (("faq", "frequently asked", "questions"), "faq"),
    (("variant", "variante"), "variant"),
    (("house rule",), "house-rule"),
    (("setup", "set-up", "set up", "preparation", "mise en place"), "setup"),
    (("glossary", "glossaire"), "fine-point"),
)


@dataclass(frozen=True)
class DraftEntry:
    """One drafted entry, ready to be written in the entries-file format."""

    id: str
    """Its id: the game's id_prefix and a slug of its title, unique."""
    title: str
    """The heading, lead-in, question or rule number (with its rule's name)."""
    kind: str
    """Guessed from the section (errata, FAQ, setup, glossary) and the form."""
    section: str
    """Where it sits in the document: headings joined by ` > `, then a name, number or question."""
    text: str
    """The document's own text (Markdown), with notes for the curator at the end."""
    line: int
    """Its line in the document."""
    aliases: tuple[str, ...] = ()
    """Names redirecting to it (`X - See Y.`)."""
    see_also: tuple[str, ...] = ()
    """Ids of the drafts (or existing entries) it refers to."""

    def block(self) -> str:
        """The entry in the entries-file format, with `draft: true`."""
        headers = [("title", self.title), ("kind", self.kind), ("section", self.section)]
        if self.aliases:
            headers.append(("aliases", f"{LIST_SEPARATOR} ".join(self.aliases)))
        if self.see_also:
            headers.append(("see_also", f"{LIST_SEPARATOR} ".join(self.see_also)))
        headers.append(("draft", "true"))
        return format_entry(self.id, headers, self.text)


@dataclass
class Imported:
    """What `rulebot import` drafted from one document, and how its references fared."""

    document: str
    """The document's file name."""
    game: str
    """Slug of the game the drafts are for."""
    source: str
    """Id of the source they cite (their entries file is `<source>.md`)."""
    entries: list[DraftEntry] = field(default_factory=list)
    """The drafts, in document order."""
    resolved: int = 0
    """References turned into see_also links (distinct per entry)."""
    unresolved: list[tuple[int, str]] = field(default_factory=list)
    """References that name nothing drafted: (document line, reference as written)."""
    aliases: int = 0
    """Redirects turned into aliases."""
    redirects_unresolved: list[tuple[int, str]] = field(default_factory=list)
    """Redirects whose target was not found: (document line, redirect as written)."""
    seconds: float = 0.0
    """Time the drafting took."""

    def to_markdown(self) -> str:
        """The drafts as an entries file, after a preamble of notes for the curator."""
        lines = [
            f"# Drafts imported from {self.document}",
            "",
            f"Drafted by `rulebot import` for the game `{self.game}`, source `{self.source}`.",
            "Every entry below is a draft: its text is still the document's own. Restate it in",
            "your own words, check its title, kind, section, aliases and see_also, then remove",
            "its `draft: true` line (`rulebot check --strict` lists the drafts left).",
            "",
        ]
        if self.unresolved or self.redirects_unresolved:
            lines.append("References that name nothing drafted (document line: reference):")
            lines.append("")
            lines.extend(f"- {line}: {_one_line(text)}" for line, text in sorted(self.unresolved + self.redirects_unresolved))
            lines.append("")
        return "\n".join(lines) + "\n" + self.entries_markdown()

    def entries_markdown(self) -> str:
        """The drafts alone, in the entries-file format."""
        return "\n".join(e.block() for e in self.entries)

    def summary(self) -> str:
        """One line: entries drafted, references resolved and not, aliases, time."""
        unresolved = len(self.unresolved) + len(self.redirects_unresolved)
        return (
            f"Drafted {plural(len(self.entries), 'entry', 'entries')} from {self.document}: "
            f"{plural(self.resolved, 'reference')} resolved, {unresolved} unresolved, "
            f"{plural(self.aliases, 'alias', 'aliases')} from redirects ({self.seconds:.2f} s)"
        )


def import_document(path: Path, corpus: Corpus, game: str, source: str) -> Imported:
    """Draft entries for a game's source from a Markdown (.md) or plain-text document.

    The drafts' ids avoid every id of `corpus`, and their references may
    resolve to the game's existing entries. CurationError when the document
    cannot be read or the source is not declared; UnknownGameError for an
    unknown game.
    """
    started = time.perf_counter()
    the_game = corpus.game(game)
    the_source = the_game.source(source)
    if the_source is None:
        known = ", ".join(s.id for s in the_game.sources) or "none"
        raise CurationError(f"no source {source!r} in {game} (declared: {known}); declare it in game.toml first")
    text = read_document(path)
    markdown = path.suffix.lower() in MARKDOWN_SUFFIXES
    result = draft_entries(text, game=the_game, source=the_source, markdown=markdown, corpus=corpus, document=path.name)
    result.seconds = time.perf_counter() - started
    return result


def read_document(path: Path) -> str:
    """A document's text (UTF-8, BOM and CRLF removed); CurationError when it cannot be read."""
    try:
        if path.stat().st_size > MAX_DOCUMENT_BYTES:
            raise CurationError(f"{path}: larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
        data = path.read_bytes()
    except OSError as exc:
        raise CurationError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CurationError(f"{path}:{line}: not valid UTF-8 (byte {data[exc.start]:#04x})") from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\0", "")


def draft_entries(
    text: str,
    *,
    game: Game,
    source: Source,
    markdown: bool = True,
    corpus: Corpus | None = None,
    document: str = "document",
) -> Imported:
    """Draft entries from a document's text (Markdown, or plain text with `markdown=False`)."""
    blocks = list(markdown_blocks(text) if markdown else text_blocks(text))
    drafter = _Drafter(game, markdown, corpus)
    drafter.walk(blocks)
    result = Imported(document=document, game=game.slug, source=source.id)
    drafter.finish(result)
    return result


def slugify(text: str) -> str:
    """Lower-case ASCII letters and digits joined by single hyphens; cut near MAX_ID_SLUG."""
    slug = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    if len(slug) > MAX_ID_SLUG:
        slug = slug[:MAX_ID_SLUG].rsplit("-", 1)[0]
    return slug or "entry"


def unique_id(prefix: str, title: str, taken: set[str]) -> str:
    """`prefix-slug-of-title`, with -2, -3 ... added until it is not in `taken`."""
    base = f"{prefix}-{slugify(title)}"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def split_lead_ins(source: str) -> list[str]:
    """Cut a paragraph where a bold lead-in starts mid-paragraph (`... game. **Name** — text`)."""
    return [part for part in MID_LEAD_RE.split(source) if part.strip()]


def plain(source: str) -> str:
    """Markdown inline source as plain text: links, emphasis and escapes removed."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", source)
    text = re.sub(r"\*\*|__", "", text)
    text = re.sub(r"(?<![\\\w])[*_](?=\S)|(?<=\S)(?<!\\)[*_](?!\w)", "", text)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~\"'])", r"\1", text)
    return re.sub(r"^\s{0,3}#{1,6}\s+", "", text)


def github_anchor(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return "#" + re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


# -- blocks ------------------------------------------------------------------


@dataclass
class _Block:
    """A top-level piece of the document: a heading, a paragraph, or anything else (list, table, code)."""

    kind: str
    line: int
    source: str
    text: str = ""
    level: int = 0


def markdown_blocks(text: str) -> Iterator[_Block]:
    """The top-level blocks of a Markdown document, from the configured markdown-it parser."""
    from rulebot.markdown import parser

    lines = text.split("\n")
    tokens = parser().parse(text)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.level != 0 or token.map is None:
            index += 1
            continue
        start, end = token.map
        source = "\n".join(lines[start:end]).strip("\n")
        if token.type == "heading_open":
            inline = tokens[index + 1]
            yield _Block("heading", start + 1, source, _inline_text(inline.children or []), int(token.tag[1]))
        elif token.type == "paragraph_open":
            yield _Block("para", start + 1, source)
        else:
            yield _Block("other", start + 1, source)
        index += 1
        if token.nesting == 1:  # skip to the token closing this block
            while index < len(tokens) and not (tokens[index].level == 0 and tokens[index].nesting == -1):
                index += 1
            index += 1


def _inline_text(children: list) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return " ".join("".join(parts).split())


def text_blocks(text: str) -> Iterator[_Block]:
    """The blocks of a plain-text document: blank-line separated paragraphs; lone short lines are headings."""
    paragraph: list[str] = []
    start = 0
    first = True
    for number, line in enumerate([*text.split("\n"), ""], 1):
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line.strip())
            continue
        if not paragraph:
            continue
        level = _text_heading_level(paragraph)
        if level:
            yield _Block("heading", start, paragraph[0], paragraph[0], 0 if first else level)
        elif len(paragraph) > 2 and all(_title_like(p) for p in paragraph):
            yield _Block("other", start, "\n".join(_escape_text(p) for p in paragraph))
        else:
            yield _Block("para", start, "\n".join(paragraph))
        first = False
        paragraph = []


def _text_heading_level(paragraph: list[str]) -> int:
    """1 or 2 for a plain-text heading (a short line standing alone), else 0."""
    if len(paragraph) != 1:
        return 0
    line = paragraph[0]
    if NUMBERED_RE.match(line):
        return 0  # a rule, even a titled one (`702.19. Trample`): a clause, not a heading
    section = SECTION_NUMBER_RE.match(line)
    if section and _title_like(section.group("rest")):
        return 1 if len(section.group("number")) == 1 else 2
    return 1 if _title_like(line) else 0


def _title_like(line: str) -> bool:
    """A short name: no closing punctuation, few words, starting with a letter, digit or quote."""
    line = line.strip()
    closing = line.rstrip("\"”’')]»")
    if not 0 < len(line) <= 80 or len(line.split()) > MAX_TITLE_WORDS or not closing or closing[-1] in ".,;:!?":
        return exclaimed(line)
    if SECTION_NUMBER_RE.match(line):
        return True  # `100. General`
    return (line[0].isalnum() or line[0] in "\"“'«(") and not re.match(r"^\d+[.)]\s", line)


def exclaimed(line: str) -> bool:
    """A short exclamation, which can be a name too (`For Mirrodin!`)."""
    return line.endswith("!") and len(line.split()) <= 4 and line[0].isupper()


def _escape_text(line: str) -> str:
    """A plain-text line that Markdown will not take for a heading or code."""
    line = line.strip()
    return "\\" + line if line.startswith("#") else line


# -- drafting ----------------------------------------------------------------


@dataclass(frozen=True)
class _Ref:
    kind: str  # "name", "number" or "anchor"
    value: str
    text: str
    line: int
    explicit: bool = False
    """A See also line: noted in the entry when it names nothing."""
    optional: bool = False
    """Not counted when it names nothing (a letter inside a range of rules)."""


@dataclass
class _Heading:
    level: int
    title: str
    anchor: str
    number: str | None
    first: _Draft | None = None


@dataclass
class _Draft:
    title: str
    kind: str
    section: str
    line: int
    number: str | None = None
    body: list[str] = field(default_factory=list)
    refs: list[_Ref] = field(default_factory=list)
    see_lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    id: str = ""
    open: bool = True
    """Still taking the paragraphs that follow (not after a heading closed it)."""


class _Drafter:
    """Walks the blocks of one document and drafts its entries."""

    def __init__(self, game: Game, markdown: bool, corpus: Corpus | None):
        self.game = game
        self.markdown = markdown
        self.corpus = corpus
        self.drafts: list[_Draft] = []
        self.headings: list[_Heading] = []
        self.all_headings: list[_Heading] = []
        self.pending: _Draft | None = None
        self.current: _Draft | None = None
        self.title_heading: _Heading | None = None
        self.number_names: dict[str, str] = {}
        self.numbers: dict[str, _Draft] = {}
        self.redirects: list[tuple[str, list[_Ref], int, str]] = []
        self.question_count: dict[str, int] = {}

    # -- walking ---------------------------------------------------------

    def walk(self, blocks: list[_Block]) -> None:
        top = [b for b in blocks if b.kind == "heading" and b.level <= 1]
        for block in blocks:
            if block.kind == "heading":
                is_title = block.level == 0 or (self.markdown and block.level == 1 and len(top) == 1)
                self.heading(block, is_title)
            elif block.kind == "para":
                for part, line in self.segments(block):
                    self.paragraph(part, line)
            else:
                self.add_text(block.source, block.line)

    def segments(self, block: _Block) -> Iterator[tuple[str, int]]:
        """A paragraph cut at mid-paragraph lead-ins (Markdown), or at lines starting a numbered rule (plain text)."""
        if self.markdown:
            line = block.line
            for part in split_lead_ins(block.source):
                yield part.strip(), line
                line += part.count("\n")
            return
        chunk: list[str] = []
        start = block.line
        for number, text_line in enumerate(block.source.split("\n"), block.line):
            if chunk and NUMBERED_RE.match(text_line):
                yield "\n".join(chunk), start
                chunk = []
            if not chunk:
                start = number
            chunk.append(text_line)
        if chunk:
            yield "\n".join(chunk), start

    def heading(self, block: _Block, is_title: bool) -> None:
        text = " ".join(block.text.split())
        marked = bool(REVISION_MARK_RE.match(text))
        text = REVISION_MARK_RE.sub("", text).strip().rstrip(":").strip()
        if not text:
            return
        see_also = SEE_ALSO_RE.match(text)
        if see_also:
            self.see_also(see_also.group("names"), block.source, block.line)
            return
        redirect = REDIRECT_RE.match(text)
        if redirect and not redirect.group("name").lower().startswith("see"):
            refs = self.refs(redirect.group("target"), "", block.line)
            self.redirects.append((redirect.group("name").strip(), refs, block.line, text))
            return
        self.close()
        number = None
        numbered = NUMBERED_RE.match(text) or SECTION_NUMBER_RE.match(text)
        if numbered:
            number = _number_key(numbered.group("number"))
            rest = (numbered.group("rest") or "").strip().rstrip(".")
            if rest:
                self.number_names[number] = _nice_title(rest)
        heading = _Heading(block.level, text, github_anchor(block.text), number)
        self.all_headings.append(heading)
        if is_title:
            self.title_heading = heading
            self.headings = []
        else:
            while self.headings and self.headings[-1].level >= block.level:
                self.headings.pop()
            self.headings.append(heading)
        # `1.3.1. Precedence` as `1.3.1 Precedence`, like numbered rules; `1. Game Concepts` as it is.
        title = self.numbered_title(number, numbered.group("rest")) if numbered and number and "." in number else _nice_title(text)
        self.pending = _Draft(title, self.kind(), self.section(), block.line, number=number)
        if marked:
            self.pending.notes.append("the document marks this entry as new or revised")

    def paragraph(self, source: str, line: int) -> None:
        kept = []
        for offset, text_line in enumerate(source.split("\n")):
            see_also = SEE_ALSO_RE.match(self.plain(text_line))
            if see_also:
                self.see_also(see_also.group("names"), text_line, line + offset)
            else:
                kept.append(text_line)
        if not kept:
            return
        source = "\n".join(kept)
        text = " ".join(self.plain(source).split())
        redirect = REDIRECT_RE.match(REVISION_MARK_RE.sub("", text))
        if redirect and len(kept) == 1 and not redirect.group("name").lower().startswith("see"):
            refs = self.refs(redirect.group("target"), "", line)
            self.redirects.append((redirect.group("name").strip(), refs, line, text))
            return
        see = SEE_RE.match(text)
        if see and (ANCHOR_RE.search(source) or len(see.group("name").split()) <= 6):
            if self.pending is not None:
                # A heading whose only text is "See Y.": a redirect.
                refs = self.refs(see.group("name"), source, line)
                self.redirects.append((self.pending.title, refs, line, f"{self.pending.title}: {text}"))
                self.pending = None
                return
            self.see_also(see.group("name"), source, line)
            return
        question = QUESTION_RE.match(source)
        if question and question.group("rest").strip():
            self.question(question.group("rest"), line)
            return
        if self.current is not None and self.current.kind == "faq" and ANSWER_RE.match(source) and not self.current.body:
            self.add_text(ANSWER_RE.sub("", source, count=1), line)
            return
        numbered = NUMBERED_RE.match(text)
        if numbered:
            self.numbered(numbered, source, line)
            return
        lead = BOLD_LEAD_RE.match(source)
        if lead is None and (dash := DASH_LEAD_RE.match(source)) and _dash_lead_name(dash):
            lead = dash
        if lead and self.is_lead_name(lead.group("name")):
            self.lead_in(lead, line)
            return
        if not self.markdown and len(kept) > 1 and _title_like(kept[0]) and not NUMBERED_RE.match(kept[0]):
            # A glossary term of a plain-text document: the term, its definition below.
            self.start(_Draft(_nice_title(kept[0]), self.kind("fine-point"), self.section(kept[0]), line), marked=False)
            self.add_text("\n".join(kept[1:]), line + 1)
            return
        self.add_text(source, line)

    def plain(self, source: str) -> str:
        return plain(source) if self.markdown else source

    def is_lead_name(self, name: str) -> bool:
        name = name.strip()
        lowered = name.lower()
        return bool(name) and len(name.split()) <= MAX_LEAD_WORDS and lowered != "see" and not lowered.startswith(("see ", "note", "example"))

    # -- entries ---------------------------------------------------------

    def close(self) -> None:
        """A heading ends the entry in progress."""
        if self.current is not None:
            self.current.open = False
        self.current = None
        self.pending = None

    def start(self, draft: _Draft, marked: bool) -> None:
        self.pending = None
        if marked:
            draft.notes.append("the document marks this entry as new or revised")
        self.commit(draft)

    def commit(self, draft: _Draft) -> None:
        self.drafts.append(draft)
        self.current = draft
        for heading in self.headings:
            if heading.first is None:
                heading.first = draft
        if self.title_heading is not None and self.title_heading.first is None:
            self.title_heading.first = draft
        if draft.number:
            number: str | None = draft.number
            while number:
                self.numbers.setdefault(number, draft)
                number = _parent_number(number)

    def add_text(self, source: str, line: int) -> None:
        if not source.strip():
            return
        if self.current is None or not self.current.open:
            if self.pending is not None:
                draft, self.pending = self.pending, None
            else:
                title = self.title_heading.title if self.title_heading and not self.headings else "Introduction"
                draft = _Draft(_nice_title(title), self.kind(), self.section() or title, line)
            self.commit(draft)
        assert self.current is not None
        if not self.markdown:
            source = "\n".join(_escape_text(text_line) for text_line in source.split("\n"))
        self.current.body.append(source.strip("\n"))
        self.scan(self.current, source, line)

    def question(self, rest: str, line: int) -> None:
        parts = re.split(r"\n(?=\s*(?:\*\*|__)?\s*A\s*[:.])", rest, maxsplit=1)
        question = parts[0]
        title = " ".join(self.plain(question).split()).strip()
        where = self.section()
        count = self.question_count[where] = self.question_count.get(where, 0) + 1
        section = f"{where}, question {count}" if where else f"question {count}"
        self.start(_Draft(title[:300], "faq", section, line), marked=False)
        if len(parts) > 1:
            self.add_text(ANSWER_RE.sub("", parts[1], count=1), line + question.count("\n") + 1)

    def lead_in(self, lead: re.Match, line: int) -> None:
        name = " ".join(self.plain(lead.group("name")).split()).strip().rstrip(":")
        title = name
        if PAGE_LEAD_RE.match(name) and self.headings:
            title = f"{_nice_title(self.headings[-1].title)}, {name}"
        draft = _Draft(_nice_title(title), self.kind("fine-point"), self.section(name), line)
        self.start(draft, marked=bool(lead.group("mark")))
        self.add_text(lead.group("rest"), line)

    def numbered(self, match: re.Match, source: str, line: int) -> None:
        number = _number_key(match.group("number"))
        rest = (match.group("rest") or "").strip()
        if _title_like(rest) and "\n" not in rest:
            # `702.19. Trample`: names the rules below it; text right under it would be its own.
            self.number_names[number] = _nice_title(rest)
            self.current = None
            section = self.section(match.group("number").rstrip("."))
            self.pending = _Draft(f"{number} {_nice_title(rest)}", self.kind(), section, line, number=number)
            return
        title = self.numbered_title(number, None)
        self.start(_Draft(title, self.kind(), self.section(match.group("number").rstrip(".")), line, number=number), marked=False)
        body = re.sub(rf"^\s*{re.escape(match.group('number'))}\.?\s*", "", source, count=1) if not self.markdown else source
        self.add_text(body if body.strip() else source, line)

    def numbered_title(self, number: str, rest: str | None) -> str:
        shown = number.upper() if re.search(r"\.[a-z]$", number) else number
        if rest and rest.strip().rstrip("."):
            return f"{shown} {_nice_title(rest.strip().rstrip('.'))}"
        parent = _parent_number(number)
        while parent:
            if parent in self.number_names:
                return f"{shown} {self.number_names[parent]}"
            parent = _parent_number(parent)
        if self.headings:
            return f"{shown} {_nice_title(_strip_number(self.headings[-1].title))}"
        return shown

    def see_also(self, names: str, source: str, line: int) -> None:
        target = self.current if self.current is not None else (self.pending or (self.drafts[-1] if self.drafts else None))
        if target is None:
            return
        if target is self.pending:
            # A heading with nothing but a See also line: an entry all the same, that line its text.
            target.see_lines.append(source)
            self.commit(target)
            self.pending = None
        target.refs.extend(self.refs(names, source, line))

    def refs(self, names: str, source: str, line: int) -> list[_Ref]:
        """The references of a See or See also line: its links to headings, else the names it lists."""
        links = re.findall(r"\[([^\]]*)\]\((#[^)\s]+)\)", source) if self.markdown else []
        if links:
            return [_Ref("anchor", anchor, name, line, explicit=True) for name, anchor in links]
        found = []
        for name in _split_names(self.plain(names)):
            numbered = re.match(r"^rules?\s+(\d+(?:\.\d+)*[a-z]?)", name, re.IGNORECASE)
            if numbered:
                found.append(_Ref("number", _number_key(numbered.group(1)), name, line, explicit=True))
            else:
                found.append(_Ref("name", name, name, line, explicit=True))
        return found

    def scan(self, draft: _Draft, source: str, line: int) -> None:
        """The inline references of a piece of text: rule numbers, (see X), links to headings."""
        text = self.plain(source)
        for match in RULE_REF_RE.finditer(text):
            for item in RANGE_RE.finditer(match.group("list")):
                numbers = _expand(item.group("number"), item.group("last"))
                for number in numbers:
                    # Inside a range (603.7d–f), a letter the rules skip is no missing reference.
                    inside = number not in (numbers[0], numbers[-1])
                    draft.refs.append(_Ref("number", number, f"rule {number}", line, optional=inside))
        for match in SECTION_REF_RE.finditer(text):
            draft.refs.append(_Ref("number", match.group("number"), f"rule {match.group('number')}", line))
        for match in SEE_NUMBER_RE.finditer(text):
            draft.refs.append(_Ref("number", _number_key(match.group("number")), f"see {match.group('number')}", line))
        for match in PAREN_SEE_RE.finditer(text):
            name = re.sub(r"^also\s+", "", match.group("name").strip(), flags=re.IGNORECASE)
            if not re.match(r"^(?:rules?|page|pages|section|p\.|below|above)\b|^\d", name, re.IGNORECASE):
                for part in _split_names(name):
                    draft.refs.append(_Ref("name", part, f"(see {name})", line))
        if self.markdown:
            for match in ANCHOR_RE.finditer(source):
                draft.refs.append(_Ref("anchor", match.group("anchor"), match.group("anchor"), line))

    def kind(self, default: str = "rule") -> str:
        for heading in reversed(self.headings):
            folded = fold(heading.title)
            for words, kind in KIND_WORDS:
                if any(re.search(rf"\b{re.escape(w)}\b", folded) for w in words):
                    return kind
        return default

    def section(self, last: str | None = None) -> str:
        parts = [_clean_section(h.title) for h in self.headings]
        if last:
            parts.append(_clean_section(last))
        return " > ".join(p for p in parts if p)

    # -- resolving and writing -------------------------------------------

    def finish(self, result: Imported) -> None:
        drafts = [d for d in self.drafts if d.body or d.see_lines]
        kept = set(map(id, drafts))
        taken = set(self.corpus.entries) if self.corpus else set()
        for draft in drafts:
            draft.id = unique_id(self.game.id_prefix, draft.title, taken)
            taken.add(draft.id)
        names = self.name_table(drafts)
        anchors: dict[str, _Draft] = {}
        for heading in self.all_headings:
            if heading.first is not None and id(heading.first) in kept:
                anchors.setdefault(heading.anchor, heading.first)
        claimed = set(names)
        for alias, refs, line, written in self.redirects:
            target = next((t for t in (self.resolve(r, names, anchors, kept) for r in refs) if t is not None), None)
            key = _name_key(alias)
            if target is None:
                result.redirects_unresolved.append((line, written))
                continue
            if key in claimed or LIST_SEPARATOR in alias:
                continue  # already a title or alias: nothing to add
            if isinstance(target, str):
                result.redirects_unresolved.append((line, f"{written} (the existing entry {target}: add the alias there)"))
                continue
            claimed.add(key)
            target.aliases.append(alias)
            result.aliases += 1
        for draft in drafts:
            links: list[str] = []
            for ref in draft.refs:
                found = self.resolve(ref, names, anchors, kept)
                if found is None:
                    if ref.optional:
                        continue
                    result.unresolved.append((ref.line, ref.text))
                    if ref.explicit:
                        draft.notes.append(f"“See also {ref.text}” names no drafted entry")
                    continue
                target_id = found if isinstance(found, str) else found.id
                if target_id != draft.id and target_id not in links:
                    links.append(target_id)
            result.resolved += len(links)
            text = "\n\n".join(draft.body).strip() or "\n".join(draft.see_lines).strip()
            if draft.notes:
                text += "\n\n" + "\n".join(f"Draft note: {note}." for note in dict.fromkeys(draft.notes))
            result.entries.append(
                DraftEntry(
                    id=draft.id,
                    title=_one_line(draft.title),
                    kind=draft.kind,
                    section=_one_line(draft.section or draft.title),
                    text=_safe_text(text),
                    line=draft.line,
                    aliases=tuple(_one_line(a) for a in draft.aliases),
                    see_also=tuple(links),
                )
            )

    def resolve(self, ref: _Ref, names: dict[str, _Draft | str], anchors: dict[str, _Draft], kept: set[int]) -> _Draft | str | None:
        """The draft (or existing entry id) a reference names, or None."""
        if ref.kind == "number":
            found = self.numbers.get(ref.value)
            return found if found is not None and id(found) in kept else None
        if ref.kind == "anchor":
            return anchors.get(ref.value.lower()) or self.by_name(names, ref.text)
        return self.by_name(names, ref.value)

    def name_table(self, drafts: list[_Draft]) -> dict[str, _Draft | str]:
        """Names a reference may use: drafted titles, headings, then the game's existing entries."""
        table: dict[str, _Draft | str] = {}
        for draft in drafts:
            table.setdefault(_name_key(draft.title), draft)
        kept = set(map(id, drafts))
        named = [(d.title, d) for d in drafts] + [(h.title, h.first) for h in self.all_headings if h.first is not None and id(h.first) in kept]
        for title, target in named:
            for variant in _name_variants(title):
                table.setdefault(_name_key(variant), target)
        if self.corpus is not None:
            for entry in self.corpus.entries_of(self.game.slug):
                for name in entry.names():
                    table.setdefault(_name_key(name), entry.id)
        return table

    def by_name(self, names: dict[str, _Draft | str], name: str) -> _Draft | str | None:
        key = _name_key(name)
        for candidate in (key, key.removesuffix("s"), key.removesuffix("es"), key + "s", re.sub(r"^the ", "", key)):
            if candidate and candidate in names:
                return names[candidate]
        return None


def _dash_lead_name(match: re.Match) -> bool:
    """`Alliance — If you ...`: a short name without digits, then a new sentence."""
    name, rest = match.group("name").strip(), match.group("rest")
    return len(name.split()) <= 4 and not re.search(r"\d", name) and rest[:1].isupper()


def _name_variants(title: str) -> list[str]:
    """Other names a title answers to: without its rule number, its remark in parentheses, each of `A, B`."""
    bare = re.sub(r"\s*\([^)]*\)", "", _strip_number(title)).strip()
    variants = [title, _strip_number(title), bare]
    parts = [p.strip() for p in bare.split(",")]
    if 1 < len(parts) <= 4:
        variants.extend(p for p in parts if p)
    return variants


def _split_names(text: str) -> list[str]:
    """`troops, "When you win a Conflict," Reveal turn.` → the names, quotes and end punctuation removed."""
    names = []
    for quoted, quoted2, bare in re.findall(r'"([^"]+)"|“([^”]+)”|([^,;"“”]+)', text):
        if quoted or quoted2:
            names.append(quoted or quoted2)
        else:
            names.extend(re.split(r"\s+(?:and|or)\s+", bare))
    cleaned = [n.strip().strip(".,;:!?'’ ").strip() for n in names]
    return [n for n in cleaned if n]


def _name_key(name: str) -> str:
    key = fold(re.sub(r"[\"“”‘’'`*_]", "", name))
    return re.sub(r"[\s.,;:!?]+$", "", key).strip()


def _number_key(number: str) -> str:
    return number.strip().rstrip(".").lower()


def _parent_number(number: str) -> str | None:
    if re.search(r"\d[a-z]$", number):
        return number[:-1]
    if "." in number:
        return number.rsplit(".", 1)[0]
    return None


def _expand(number: str, last: str | None) -> list[str]:
    """`205.1a` with last `c` → 205.1a, 205.1b, 205.1c."""
    key = _number_key(number)
    if not last or not re.search(r"[a-z]$", key) or last < key[-1]:
        return [key]
    return [key[:-1] + chr(c) for c in range(ord(key[-1]), ord(last) + 1)]


def _strip_number(title: str) -> str:
    return re.sub(rf"^\s*(?:{NUMBER}|\d+)\.?\s+", "", title).strip() or title


def _nice_title(text: str) -> str:
    """A heading in capitals as a title in title case; anything else as it is, tidied."""
    text = " ".join(text.split()).strip().rstrip(":").strip()
    letters = [c for c in text if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        words = []
        for word in text.split(" "):
            if word.strip("()[]:,").upper() in ACRONYMS or re.search(r"[A-Z]\.[A-Z]", word):
                words.append(word)  # FAQ, F.A.Q. stay as they are
                continue
            lower = word.lower()
            if words and lower in SMALL_WORDS:
                words.append(lower)
                continue
            index = next((i for i, c in enumerate(lower) if c.isalpha()), None)
            words.append(lower if index is None else lower[:index] + lower[index].upper() + lower[index + 1 :])
        text = " ".join(words)
    return text


def _clean_section(text: str) -> str:
    """A heading as a component of a section: title case, no `>` (the separator), no closing `:` or `.`."""
    return _nice_title(text.replace(">", "›")).rstrip(":.").strip()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _safe_text(text: str) -> str:
    """Entry text that cannot start a new entry: a line beginning `## ` outside a fence is escaped."""
    out = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = marker if fence is None else (None if marker == fence else fence)
        if fence is None and line.startswith("## "):
            line = "\\" + line
        out.append(line)
    return "\n".join(out)


