"""The text of a PDF document, laid out as the plain-text reader wants it (rulebot.corpus.documents.text_blocks).

A rules reference is most often a PDF. Its text is taken out with pypdf,
line by line in the order the page draws it (a page in two columns reads
one column, then the other), and three things a PDF does not say in words
are put back from where the lines are on the page:

- a paragraph ends where the next line is further below than lines of text
  are (PARAGRAPH_GAP), or higher up (the top of the next column): a blank
  line, as plain text ends its paragraphs;
- a running header or footer (the game's name, "Page 3") is no text of the
  rules: a first or last line of a page that recurs on RUNNING_SHARE of the
  pages, digits aside, and a page number alone, are left out;
- a page ends its paragraph, unless a sentence goes on over it.

pypdf is imported here only, when a PDF is read: answering never loads it.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from itertools import pairwise
from statistics import median
from typing import Any

from rulebot.errors import CurationError

PARAGRAPH_GAP = 1.5
"""A line further below the one before than this many times the page's usual spacing of lines starts a paragraph."""
RUNNING_SHARE = 0.3
"""A page's first or last line recurring, digits aside, on this share of the pages at least (and three) is a header
or a footer."""
PAGE_NUMBER_RE = re.compile(r"^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*/\s*\d{1,4})?$", re.IGNORECASE)


class _Line:
    """One line of a page: its text and how far down the page it starts (PDF units from the bottom)."""

    __slots__ = ("text", "y")

    def __init__(self, text: str, y: float | None):
        self.text, self.y = text, y


def pdf_text(data: bytes, name: str) -> str:
    """The text of a PDF's pages, paragraphs apart; CurationError when it cannot be read or holds no text."""
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    # pypdf logs what it works around in a damaged file ("Ignoring wrong pointing object") as warnings, which
    # Python would print to the curator's terminal, a line per object: the text is what counts here
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise CurationError(f"{name}: the PDF is locked by a password: unlock it first")
        pages = [_page_lines(page) for page in reader.pages]
    except CurationError:
        raise
    except (PyPdfError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise CurationError(f"{name}: not a PDF that can be read ({type(exc).__name__}: {exc})") from None
    running = _running(pages)
    text = ""
    for lines in pages:
        page = _laid_out([line for at, line in enumerate(lines) if not _is_running(line.text, at, len(lines), running)])
        if not page.strip():
            continue
        # (a sentence going on over the page goes on: the last line ends without a stop, the next starts in lower case)
        going_on = text and text[-1] not in ".!?:" and page[:1].islower()
        text += ("\n" if going_on else "\n\n") + page if text else page
    if not text.strip():
        raise CurationError(f"{name}: the PDF has no text to read (a scan?): take its text out with OCR first")
    return text + "\n"


def _page_lines(page: Any) -> list[_Line]:
    """A page's lines, in the order it draws them, each with where it starts on the page."""
    lines: list[_Line] = []
    parts: list[str] = []
    where: list[float | None] = [None]

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, _size: float) -> None:
        pieces = text.split("\n")
        for number, piece in enumerate(pieces):
            if number:
                lines.append(_Line("".join(parts), where[0]))
                parts.clear()
                where[0] = None
            if piece.strip() and where[0] is None:
                where[0] = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            parts.append(piece)

    page.extract_text(visitor_text=visit)
    lines.append(_Line("".join(parts), where[0]))
    return [_Line(" ".join(line.text.split()), line.y) for line in lines if line.text.strip()]


def _laid_out(lines: list[_Line]) -> str:
    """A page's lines as plain text: a blank line where a paragraph ends (see the module's docstring)."""
    drops = [a.y - b.y for a, b in pairwise(lines) if a.y is not None and b.y is not None and a.y > b.y]
    spacing = median(drops) if drops else 0.0
    out: list[str] = []
    for before, line in zip([None, *lines], lines):
        if before is not None and before.y is not None and line.y is not None and spacing:
            drop = before.y - line.y
            if drop > PARAGRAPH_GAP * spacing or drop < -spacing:
                out.append("")
        out.append(line.text)
    return "\n".join(out)


def _shape(text: str) -> str:
    """A line with its digits aside: "Page 3" and "Page 4" are the same footer."""
    return re.sub(r"\d+", "#", text.casefold())


def _running(pages: list[list[_Line]]) -> set[str]:
    """The shapes of the lines that head or foot enough pages to be a running header or footer."""
    seen: Counter[str] = Counter()
    for lines in pages:
        ends = {_shape(line.text) for line in lines[:1] + lines[-1:]}
        seen.update(ends)
    least = max(3, RUNNING_SHARE * len(pages))
    return {shape for shape, count in seen.items() if count >= least}


def _is_running(text: str, at: int, count: int, running: set[str]) -> bool:
    """Whether a line is a page's header, footer or number, not the rules' text."""
    if at not in (0, count - 1):
        return False
    return _shape(text) in running or bool(PAGE_NUMBER_RE.match(text))
