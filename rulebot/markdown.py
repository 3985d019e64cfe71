"""Markdown: the one configured parser, and the terminal form of entry texts.

Entry texts that may hold Markdown are rendered for the terminal when the
index is built, so that `rulebot ask` prints them without importing
markdown-it; plain texts (most) are rendered when shown, without the parser,
rather than kept twice. The terminal form is
plain text with three control characters that the printer interprets:
STRONG_ON/STRONG_OFF around emphasis, and PRE at the start of a line that must
not be re-wrapped (table rows).
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it is imported only when rendering, never by `ask`
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

STRONG_ON = "\x01"
STRONG_OFF = "\x02"
PRE = "\x03"
TABLE = "\x04"
"""Starts a line that is a row of a table (the first, its header), its cells parted by CELL: laid out where the width
is known (rulebot.cli.output.wrap_text), in columns, or row by row when they would not fit."""
CELL = "\x1f"


@cache
def parser() -> MarkdownIt:
    """The configured Markdown parser: CommonMark with tables, raw HTML disabled."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


MARKS = ("*", "_", "`", "|", "#", "<", ">", "\\", "&", "](", "]:", "\t", "\r", "\0")
"""What may make Markdown within a line (emphasis, code, tables, headings, HTML, block quotes, escapes,
entities, links), or read otherwise than as written (tabs, other line ends, NUL).

Brackets make a link only as `[text](target)` or with a definition
`[label]: target`: other brackets (`“[d]eal 7 damage”`) are plain text."""
BLOCK_START = r"\s*(?:[-+=~]|\d+[.)])| {4}"
"""What may make Markdown at a line's start: a list item, a heading's or a rule's underline, a fence, indented code."""
FIRST_LINE, NEXT_LINE = re.compile(BLOCK_START), re.compile(rf"\n(?:{BLOCK_START})")
BLANK_LINES = re.compile(r"\n(?: *\n)+")
"""Where plain paragraphs end: lines of spaces only (a line with other spaces, or a tab, is not blank to the parser)."""


def may_be_markup(text: str) -> bool:
    """False when a text is sure to be plain paragraphs, which need no parser.

    A few fast scans for plain strings, rather than one regular expression
    that tries every alternative at every character: three times faster,
    and most texts of an index build of 100k entries come through here.
    """
    return (
        any(mark in text for mark in MARKS)
        or FIRST_LINE.match(text) is not None
        or ("\n" in text and NEXT_LINE.search(text) is not None)
    )


def to_terminal(markdown: str) -> str:
    """Render Markdown as terminal text: one logical line per paragraph or item."""
    if may_be_markup(markdown):
        return _from_tokens(markdown)
    # Plain paragraphs (most texts), as the parser reads them: cut at lines
    # of spaces only; a paragraph's lines joined with a space, without the
    # spaces around each line break, and the whole stripped.
    paragraphs = (" ".join(line.strip(" ") for line in p.split("\n")).strip() for p in BLANK_LINES.split(markdown))
    return "\n\n".join(p for p in paragraphs if p)


def _from_tokens(markdown: str) -> str:
    """The terminal form of any Markdown, from the parser's tokens."""
    lines: list[str] = []
    tokens = parser().parse(markdown)
    lists: list[list[int]] = []  # per open list: [next number] or [] for bullets
    table: list[list[str]] = []
    row: list[str] | None = None
    item_prefix = ""
    for token in tokens:
        kind = token.type
        if kind == "bullet_list_open":
            lists.append([])
        elif kind == "ordered_list_open":
            lists.append([int(token.attrs.get("start", 1) or 1)])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                lines.append("")
        elif kind == "list_item_open":
            indent = "  " * (len(lists) - 1)
            counter = lists[-1]
            if counter:
                item_prefix = f"{indent}{counter[0]}. "
                counter[0] += 1
            else:
                item_prefix = f"{indent}• "
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close" and row is not None:
            table.append(row)
            row = None
        elif kind == "table_close":
            lines.extend(_table_lines(table))
            lines.append("")
            table = []
        elif kind == "inline":
            text = _inline(token)
            if row is not None:
                row.append(text)
            elif item_prefix:
                lines.append(item_prefix + text)
                item_prefix = ""
            else:
                lines.append(text)
        elif kind == "heading_close":
            heading = lines[-1].replace(STRONG_ON, "").replace(STRONG_OFF, "")
            lines[-1] = STRONG_ON + heading + STRONG_OFF
            lines.append("")
        elif kind in ("fence", "code_block"):
            lines.extend(PRE + "    " + code for code in token.content.rstrip("\n").splitlines())
            lines.append("")
        elif kind == "paragraph_close" and not lists:
            lines.append("")
    return "\n".join(_squeeze_blank(lines)).strip("\n")


def _inline(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("strong_open", "em_open"):
            parts.append(STRONG_ON)
        elif child.type in ("strong_close", "em_close"):
            parts.append(STRONG_OFF)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


def _table_lines(rows: list[list[str]]) -> list[str]:
    return [TABLE + CELL.join(cell.replace(STRONG_ON, "").replace(STRONG_OFF, "").replace(CELL, " ") for cell in r) for r in rows]


def _squeeze_blank(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    return out
