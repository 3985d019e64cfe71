"""The text of a PDF document, laid out as the plain-text reader wants it (rulebot.corpus.documents.text_blocks).

A rules reference is most often a PDF. Its text is taken out with pypdf,
line by line in the order the page draws it (a page in two columns reads
one column, then the other), and three things a PDF does not say in words
are put back from where the lines are on the page:

- a paragraph ends where the next line is further below than lines of text
  are (PARAGRAPH_GAP times the page's line spacing), or higher up (the top
  of the next column): a blank line, as plain text ends its paragraphs;
- a running header or footer (the game's name, "Chapter 2 - 7") is no text
  of the rules: a page's top or bottom line that recurs word for word on
  RUNNING_SHARE of the pages (and MIN_RUNNING of them), or whose number
  follows the page's on MIN_RUNNING pages, and a page number alone among
  its first or last lines, are left out;
- a page ends its paragraph, unless a sentence goes on over it.

What it cannot put back: text drawn bottom to top or rotated, or inside a
form object, keeps its lines but not its paragraphs.

pypdf is imported here only, when a PDF is read: answering never loads it.
"""

from __future__ import annotations

import io
import re
import time
from collections import Counter
from itertools import pairwise
from typing import Any

from rulebot.errors import CurationError

PARAGRAPH_GAP = 1.3
"""A line further below the one before than this many times the page's line spacing starts a paragraph (a space
of half a line between paragraphs is one)."""
RUNNING_SHARE = 0.3
MIN_RUNNING = 4
"""A line at the very top or bottom of RUNNING_SHARE of the pages word for word, and of MIN_RUNNING at least, is a
running header or footer (a third: left and right pages may run two; a short document's headers are kept: a heading
that opens every page of three is as likely)."""
EDGE_LINES = 2
"""How many of a page's first and last lines may be its page number (a layout draws the header and the page number
first, or last)."""
MAX_PAGES = 2000
MAX_SECONDS = 60.0
"""A PDF is read for this long at most (its pages may share a content stream that takes long to decode)."""
PAGE_NUMBER_RE = re.compile(r"^(?:page\s+)?-?\s*(?:\d{1,4}|(?P<roman>[ivxlc]{1,7}))\s*-?(?:\s*(?:/|of)\s*\d{1,4})?$")
"""A page number alone, folded to lower case."""
ROMAN_RE = re.compile(r"^c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$")
"""A page numbered in lower-case roman numerals, as front matter is ("iv"; not "civil", nor a part "II")."""


LEADING = 1.25
"""Lines of text are about this many times their letters' size apart (11-point letters, 13.75 points)."""
MAX_LEADING = 2.2
"""...and never more than this many times (double spacing is 2): a page whose lines are all further apart has
them all paragraphs apart (a page of one-line paragraphs), and LEADING says what its line spacing is."""
SCRIPT_SHARE = 0.6
"""A line less than this many times the letters' size below the one before is a sub- or superscript, no line."""


class _Line:
    """One line of a page: its text, how far up the page it starts (PDF units from the bottom; None: unknown), and the
    size of its largest letters there (0: unknown)."""

    __slots__ = ("size", "text", "y")

    def __init__(self, text: str, y: float | None, size: float = 0.0):
        self.text, self.y, self.size = text, y, size


def pdf_text(data: bytes, name: str) -> str:
    """The text of a PDF's pages, paragraphs apart; CurationError when it cannot be read or holds no text."""
    import logging

    from pypdf import PdfReader
    from pypdf.errors import DependencyError, PyPdfError

    # pypdf logs what it works around in a damaged file ("Ignoring wrong pointing object") as warnings, which
    # Python would print to the curator's terminal, a line per object: the text is what counts here
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    started = time.monotonic()
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise CurationError(f"{name}: the PDF is locked by a password: unlock it first")
        if len(reader.pages) > MAX_PAGES:
            raise CurationError(f"{name}: more than {MAX_PAGES} pages: import its rules in parts")
        pages = []
        for page in reader.pages:
            pages.append(_page_lines(page))
            if time.monotonic() - started > MAX_SECONDS:
                raise CurationError(f"{name}: reading its text took more than {MAX_SECONDS:.0f} s: take its text out with another tool")
    except CurationError:
        raise
    except DependencyError:
        raise CurationError(f"{name}: the PDF is encrypted with AES: reading it needs the `cryptography` package (pip install cryptography)") from None
    except (PyPdfError, NotImplementedError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise CurationError(f"{name}: not a PDF that can be read ({type(exc).__name__}: {exc})") from None
    finally:
        logger.setLevel(level)
    if not pages:
        raise CurationError(f"{name}: the PDF has no pages")
    text = _joined(pages)
    if not text.strip():
        raise CurationError(f"{name}: no text could be read from the PDF (a scan, or damaged pages?): take its text out with OCR first")
    return text + "\n"


def _page_lines(page: Any) -> list[_Line]:
    """A page's lines, in the order it draws them, each with where it starts on the page."""
    lines: list[_Line] = []
    parts: list[str] = []
    where: list[float | None] = [None]
    size = [0.0]

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, font_size: float) -> None:
        for number, piece in enumerate(text.split("\n")):
            if number:
                lines.append(_Line("".join(parts), where[0], size[0]))
                parts.clear()
                where[0], size[0] = None, 0.0
            if piece.strip():
                if where[0] is None:
                    where[0] = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                size[0] = max(size[0], abs(font_size * tm[3] * cm[3]))
            parts.append(piece)

    page.extract_text(visitor_text=visit)
    lines.append(_Line("".join(parts), where[0], size[0]))
    return [_Line(" ".join(line.text.split()), line.y, line.size) for line in lines if line.text.strip()]


def _joined(pages: list[list[_Line]]) -> str:
    """The pages' text, their headers, footers and page numbers left out, each laid out in paragraphs."""
    running = _running(pages)
    text = ""
    for number, lines in enumerate(pages):
        outer, edges = _edges(lines, 1), _edges(lines, EDGE_LINES)
        kept = [line for at, line in enumerate(lines) if not _left_out(line.text, number, at in outer, at in edges, running)]
        page = _laid_out(kept)
        if not page.strip():
            continue
        # (a sentence going on over the page goes on: the last line ends without a stop, the next starts in lower case)
        going_on = text and text[-1] not in ".!?:" and page[:1].islower()
        text += ("\n" if going_on else "\n\n") + page if text else page
    return text


def _edges(lines: list[_Line], depth: int) -> set[int]:
    """The places of a page's first and last `depth` lines, in the order it draws them, and of its top and bottom
    lines on the page."""
    edges = set(range(min(depth, len(lines)))) | set(range(max(0, len(lines) - depth), len(lines)))
    placed = [at for at, line in enumerate(lines) if line.y is not None]
    if placed:
        edges |= {max(placed, key=lambda at: lines[at].y or 0.0), min(placed, key=lambda at: lines[at].y or 0.0)}
    return edges


def _laid_out(lines: list[_Line]) -> str:
    """A page's lines as plain text: a blank line where a paragraph ends (see the module's docstring)."""
    sizes = sorted(line.size for line in lines if line.size)
    size = sizes[len(sizes) // 2] if sizes else 0.0
    # The line spacing: the smaller drops from one line to the next (a page of short paragraphs has more paragraph
    # gaps than lines within a paragraph; its lower quarter is still lines), not counting a sub- or superscript
    # taken for a line of its own. Where even that is more than lines of its letters are ever apart, the page's
    # lines are all paragraphs apart, and its letters' size says what its line spacing is.
    drops = sorted(
        a.y - b.y for a, b in pairwise(lines) if a.y is not None and b.y is not None and a.y - b.y > SCRIPT_SHARE * size
    )
    spacing = drops[len(drops) // 4] if drops else 0.0
    if size and spacing > MAX_LEADING * size:
        spacing = LEADING * size
    out: list[str] = []
    for before, line in zip([None, *lines], lines):
        if before is not None and before.y is not None and line.y is not None and spacing:
            drop = before.y - line.y
            # (a line in larger letters is further below: a paragraph only beyond the spacing of its own letters)
            if drop > PARAGRAPH_GAP * max(spacing, LEADING * line.size) or drop < -spacing:
                out.append("")
        out.append(line.text)
    return "\n".join(out)


def _running(pages: list[list[_Line]]) -> tuple[set[str], set[tuple[str, int]]]:
    """The lines heading or footing enough pages to be a running header or footer: word for word, on RUNNING_SHARE
    of the pages (and MIN_RUNNING); and with the page's number in them, on MIN_RUNNING pages (a chapter's header
    runs over its chapter only), by their shape (the number aside) and how far the number is from the page's place."""
    same: Counter[str] = Counter()
    numbered: Counter[tuple[str, int]] = Counter()
    for number, lines in enumerate(pages):
        edges = {lines[at].text.casefold() for at in _edges(lines, 1)}
        same.update(edges)
        numbered.update({key for text in edges if (key := _numbered(text, number)) is not None})
    least = max(MIN_RUNNING, RUNNING_SHARE * len(pages))
    return {text for text, count in same.items() if count >= least}, {key for key, count in numbered.items() if count >= MIN_RUNNING}


def _numbered(text: str, page: int) -> tuple[str, int] | None:
    """A line ending (or starting) with a number: its shape, that number aside, and how far the number is from the
    page's place ("Chapter 4: Function reference 9" on the tenth page: its shape and -1)."""
    found = re.search(r"(\d+)\W*$", text) or re.match(r"^\W*(\d+)", text)
    if found is None or found.group(1) == text.strip():
        return None
    return text[: found.start(1)] + "#" + text[found.end(1) :], int(found.group(1)) - page


def _left_out(text: str, page: int, outer: bool, edge: bool, running: tuple[set[str], set[tuple[str, int]]]) -> bool:
    """Whether a line is a page's header, footer or number rather than the rules' text: at its very top or bottom, a
    running line; among its first or last EDGE_LINES, a page number alone ("7", "Page 7", "- 7 -", "7 / 24", "iv")."""
    folded = text.casefold()
    same, numbered = running
    if outer and (folded in same or _numbered(folded, page) in numbered):
        return True
    if not edge:
        return False
    found = PAGE_NUMBER_RE.match(folded)
    roman = found.group("roman") if found else None
    # (a page in roman numerals is in lower case, as front matter numbers its pages: "II" may be a part's heading)
    return bool(found) and (roman is None or (roman in text and ROMAN_RE.match(roman) is not None))
