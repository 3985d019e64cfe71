"""Reading a rules or FAQ document: its text, its blocks, and what the import and the citations check both look for in it.

A Markdown document is read with the project's one markdown-it parser
(`rulebot.markdown.parser()`): its top-level blocks are headings, paragraphs
and the rest (lists, tables, code). A plain-text document has no markup: its
paragraphs are separated by blank lines, and a short line standing alone (all
capitals, `N. Title`, or no closing punctuation) is a heading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from rulebot.errors import CurationError
from rulebot.text import fold, plain_text

if TYPE_CHECKING:  # markdown-it-py is imported where a document is read, not to load this module
    from markdown_it.token import Token

MARKDOWN_SUFFIXES = (".md", ".markdown")
PDF_SUFFIXES = (".pdf",)
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
MAX_PDF_BYTES = 256 * 1024 * 1024
"""A PDF's pictures make it large: its text is what counts, and pypdf reads its pages as it needs them."""
DASHES = "—–"
NUMBER = r"\d+(?:\.\d+)+(?:[a-z]\b|\.[A-Z]\b)?"
"""A rule number: 702.19, 702.19b, 1.5.2, 1.5.2.C (at least one dot)."""
NUMBERED_RE = re.compile(rf"^\s*(?P<number>{NUMBER})\.?(?:\s+(?P<rest>.*))?$", re.DOTALL)
SECTION_NUMBER_RE = re.compile(r"^\s*(?P<number>\d+)\.\s+(?P<rest>\S.*)$")
MID_LEAD_RE = re.compile(rf"(?<=[.!?)\"”])\s+(?=(?:\\\*\s*)?\*\*[^*\n]{{1,80}}\*\*\s*[{DASHES}])")
"""Where a bold lead-in starts in the middle of a paragraph."""
MAX_TITLE_WORDS = 10
"""A line of more words is no title."""
MIN_CAPITAL_HEADINGS = 3
CAPITAL_SECTION_WORDS = 60
"""A plain-text document with MIN_CAPITAL_HEADINGS lines in capitals at least, each followed by this many words of
text on average, writes its section headings in capitals (headings_in_capitals)."""
ACRONYMS = {"FAQ", "FAQS", "VP", "VPS", "TOC", "AI", "ID", "II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII"}
"""Words kept in capitals when a heading in capitals is given title case."""
ACRONYM_RE = re.compile(r"(?<![\w'’])[A-Z]{2,5}(?![\w'’])")
SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "de", "du", "des", "la", "le", "les", "et"}
"""Words left in lower case inside such a title."""


def read_document(path: Path) -> str:
    """A document's text (UTF-8, BOM and CRLF removed, control characters as rulebot.text.plain_text leaves
    them; a PDF's text as rulebot.corpus.pdf lays it out); CurationError when it cannot be read."""
    pdf = path.suffix.lower() in PDF_SUFFIXES
    limit = MAX_PDF_BYTES if pdf else MAX_DOCUMENT_BYTES
    try:
        if path.stat().st_size > limit:
            raise CurationError(f"{path}: larger than {limit // (1024 * 1024)} MiB")
        data = path.read_bytes()
    except OSError as exc:
        raise CurationError(f"cannot read {path}: {exc.strerror or exc}") from None
    if pdf:
        from rulebot.corpus.pdf import pdf_text

        return plain_text(pdf_text(data, str(path)))
    a_pdf = data.removeprefix(b"\xef\xbb\xbf").startswith(b"%PDF-")
    if a_pdf and b"%%EOF" in data[-65536:]:
        raise CurationError(f"{path}: a PDF: name it {path.stem}.pdf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if a_pdf:
            raise CurationError(f"{path}: a PDF: name it {path.stem}.pdf") from None
        line = data.count(b"\n", 0, exc.start) + 1
        raise CurationError(f"{path}:{line}: not valid UTF-8 (byte {data[exc.start]:#04x})") from None
    # Entries refuse control characters (a terminal would act on them): a converted PDF's page breaks become
    # paragraph breaks, and an escape sequence in a document never reaches a draft.
    return plain_text(text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n"))


def plain(source: str) -> str:
    """Markdown inline source as plain text: links, emphasis and escapes removed."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", source)
    text = re.sub(r"\*\*|__", "", text)
    text = re.sub(r"(?<![\\\w])[*_](?=\S)|(?<=\S)(?<!\\)[*_](?!\w)", "", text)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~\"'])", r"\1", text)
    return re.sub(r"^\s{0,3}#{1,6}\s+", "", text)


def split_lead_ins(source: str) -> list[str]:
    """Cut a paragraph where a bold lead-in starts mid-paragraph (`... game. **Name** — text`)."""
    return [part for part in MID_LEAD_RE.split(source) if part.strip()]


def github_anchor(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return "#" + re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def nice_title(text: str, acronyms: frozenset[str] = frozenset()) -> str:
    """A heading in capitals as a title in title case, ACRONYMS and `acronyms` kept; anything else as it is, tidied."""
    text = " ".join(text.split()).strip().rstrip(":").strip()
    letters = [c for c in text if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        words = []
        for word in text.split(" "):
            bare = word.strip("()[]:,.\"'“”")
            if bare.upper() in ACRONYMS or bare in acronyms or re.search(r"[A-Z]\.[A-Z]", word):
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


def document_acronyms(text: str) -> frozenset[str]:
    """Words a document writes in capitals inside running text, at least twice (`ATK`, `SCH`): its
    abbreviations, which a heading in capitals keeps when it becomes a title."""
    counts: dict[str, int] = {}
    for line in text.split("\n"):
        if line.lstrip().startswith("#") or not re.search(r"[a-z]{3}", line):
            continue  # a heading, or a line all in capitals: its capitals say nothing
        for word in ACRONYM_RE.findall(line):
            counts[word] = counts.get(word, 0) + 1
    return frozenset(word for word, count in counts.items() if count >= 2)


# -- blocks ------------------------------------------------------------------


@dataclass
class Block:
    """A top-level piece of the document: a heading, a paragraph, or anything else (list, table, code)."""

    kind: str
    """"heading", "para" or "other"."""
    line: int
    """Its first line in the document."""
    source: str
    """Its text as written."""
    text: str = ""
    """A heading's text, markup removed."""
    level: int = 0
    """A heading's level, 1 to 6; 0 for a plain-text document's opening line standing alone (its title)."""


def markdown_blocks(text: str) -> Iterator[Block]:
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
            yield Block("heading", start + 1, source, _inline_text(inline.children or []), int(token.tag[1]))
        elif token.type == "paragraph_open":
            rows = lines[start:end]
            if _numbered_rows(rows):
                # Numbered rules written on lines of their own with no blank line between ("4.2 ...", "4.2a ..."):
                # Markdown makes them one paragraph; they are rules each, as in a plain-text document.
                yield from (Block("para", start + 1 + at, row.strip()) for at, row in enumerate(rows))
            else:
                yield Block("para", start + 1, source)
        else:
            yield Block("other", start + 1, source)
        index += 1
        if token.nesting == 1:  # skip to the token closing this block
            while index < len(tokens) and not (tokens[index].level == 0 and tokens[index].nesting == -1):
                index += 1
            index += 1


def _numbered_rows(rows: list[str]) -> bool:
    """Whether a paragraph's lines are numbered rules each: every one starts with a rule number, and the numbers go
    up (a line of wrapped text that starts with one, "… the limits of rule / 3.1 and …", goes back)."""
    found = [NUMBERED_RE.match(row) for row in rows]
    if len(rows) < 2 or not all(found):
        return False
    orders = [tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|[a-z]+", m["number"].lower())) for m in found if m]
    return all(before < after for before, after in pairwise(orders))


def _inline_text(children: list[Token]) -> str:
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return " ".join("".join(parts).split())


def text_blocks(text: str) -> Iterator[Block]:
    """The blocks of a plain-text document: blank-line separated paragraphs; lone short lines are headings.

    A document that writes its section headings in capitals, as rulebooks taken out of a PDF do (headings_in_capitals),
    is read by them: a line in capitals heads a section (level 1) even with its text right below it (`FIN DE LA
    PARTIE` over its paragraph), and the other headings are under the last one of them (level 2 at least).
    """
    lines = text.split("\n")
    capitals = headings_in_capitals(lines)
    paragraph: list[str] = []
    start = 0
    first = True
    for number, line in enumerate([*lines, ""], 1):
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line.strip())
            continue
        if not paragraph:
            continue
        # (a line in capitals over a line going on in lower case is a sentence the page wrapped, not a heading; the
        # first one is no title: a PDF's title is often a picture, or a running header left out)
        if capitals and in_capitals(paragraph[0]) and (len(paragraph) == 1 or not paragraph[1][:1].islower()):
            yield Block("heading", start, paragraph[0], paragraph[0], 1)
            if len(paragraph) > 1:
                yield _text_body(start + 1, paragraph[1:])
        elif level := _text_heading_level(paragraph):
            yield Block("heading", start, paragraph[0], paragraph[0], 0 if first else max(level, 2) if capitals else level)
        else:
            yield _text_body(start, paragraph)
        first = False
        paragraph = []


def _text_body(start: int, paragraph: list[str]) -> Block:
    """A plain-text paragraph that is no heading: a list of short lines (kept as lines), or text."""
    if len(paragraph) > 2 and all(title_like(p) for p in paragraph):
        return Block("other", start, "\n".join(escape_text(p) for p in paragraph))
    return Block("para", start, "\n".join(paragraph))


def headings_in_capitals(lines: list[str]) -> bool:
    """Whether a plain-text document writes its section headings in capitals: it has MIN_CAPITAL_HEADINGS lines in
    capitals at least, with CAPITAL_SECTION_WORDS words of text after each of them on average. A glossary or a
    list of cards whose names are in capitals, over a few lines of text each, does not."""
    heads = [at for at, line in enumerate(lines) if in_capitals(line)]
    if len(heads) < MIN_CAPITAL_HEADINGS:
        return False
    words = sum(len(line.split()) for line in lines[heads[0]:]) - sum(len(lines[at].split()) for at in heads)
    return words >= CAPITAL_SECTION_WORDS * len(heads)


def in_capitals(line: str) -> bool:
    """A heading written in capitals (`FIN DE LA PARTIE`, `1. BASICS`): title-like, of four letters at least (a
    glossary's letter `X`, an acronym, are none), not a rule."""
    line = line.strip()
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters) and title_like(line) and not NUMBERED_RE.match(line)


def _text_heading_level(paragraph: list[str]) -> int:
    """1 or 2 for a plain-text heading (a short line standing alone), else 0."""
    if len(paragraph) != 1:
        return 0
    line = paragraph[0]
    if NUMBERED_RE.match(line):
        return 0  # a rule, even a titled one (`702.19. Trample`): a clause, not a heading
    section = SECTION_NUMBER_RE.match(line)
    if section and title_like(section.group("rest")):
        return 1 if len(section.group("number")) == 1 else 2
    return 1 if title_like(line) else 0


def title_like(line: str) -> bool:
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


def escape_text(line: str) -> str:
    """A plain-text line that Markdown will not take for a heading or code."""
    line = line.strip()
    return "\\" + line if line.startswith("#") else line


# -- rule numbers ------------------------------------------------------------


def number_key(number: str) -> str:
    """A rule number as looked up: `702.19B.` → `702.19b`."""
    return number.strip().rstrip(".").lower()


def parent_number(number: str) -> str | None:
    """The rule a rule number is part of: 702.19b → 702.19 → 702; None for a top one."""
    if re.search(r"\d[a-z]$", number):
        return number[:-1]
    if "." in number:
        return number.rsplit(".", 1)[0]
    return None


def expand_range(number: str, last: str | None) -> list[str]:
    """`205.1a` with last `c` → 205.1a, 205.1b, 205.1c."""
    key = number_key(number)
    if not last or not re.search(r"[a-z]$", key) or last < key[-1]:
        return [key]
    return [key[:-1] + chr(c) for c in range(ord(key[-1]), ord(last) + 1)]


def shown_number(number: str) -> str:
    """A rule number as a title shows it: `7.5.5.a` → `7.5.5.A`, `702.11a` as it is."""
    return number.upper() if re.search(r"\.[a-z]$", number) else number


def strip_number(title: str) -> str:
    """A title without its leading rule or section number (`702.19 Trample` → `Trample`)."""
    return re.sub(rf"^\s*(?:{NUMBER}|\d+)\.?\s+", "", title).strip() or title


# -- names, as references and redirects give them ----------------------------------


def name_variants(title: str) -> list[str]:
    """Other names a title answers to: without its rule number, its remark in parentheses, each of `A, B`."""
    bare = re.sub(r"\s*\([^)]*\)", "", strip_number(title)).strip()
    variants = [title, strip_number(title), bare]
    parts = [p.strip() for p in bare.split(",")]
    if 1 < len(parts) <= 4:
        variants.extend(p for p in parts if p)
    return variants


def split_names(text: str) -> list[str]:
    """`troops, "When you win a Conflict," Reveal turn.` → the names, quotes and end punctuation removed."""
    names = []
    for quoted, quoted2, bare in re.findall(r'"([^"]+)"|“([^”]+)”|([^,;"“”]+)', text):
        if quoted or quoted2:
            names.append(quoted or quoted2)
        else:
            names.extend(re.split(r"\s+(?:and|or)\s+", bare))
    cleaned = [n.strip().strip(".,;:!?'’ ").strip() for n in names]
    return [n for n in cleaned if n]


def name_key(name: str) -> str:
    """A name as references are looked up by: folded, no quotes or emphasis, no closing punctuation."""
    key = fold(re.sub(r"[\"“”‘’'`*_]", "", name))
    return re.sub(r"[\s.,;:!?]+$", "", key).strip()
