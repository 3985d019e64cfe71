"""Write the Legend of the Five Rings: The Card Game Rules Reference as one Markdown document, from the page of a
copy of github.com/alsciende/fiveringsdb-ui (src/components/Rules/Reference.vue: the rules reference, version 10,
as the site shows it).

    python bench/l5r_reference.py PATH/TO/Reference.vue [OUT]   # OUT: bench/data/l5r-rules-reference.md

A glossary by terms, as X-Wing's and Marvel Champions' references are: each of the page's headings a Markdown
heading one level down (its sections `##`, its terms `###`), its paragraphs, lists and tables as Markdown, its
icons as the page's own text writes them (`[military]`), its links to other entries as Markdown links to the
anchors of the headings they name, its "Related:" lines as they are, the questions of its Q&A appendix in bold and
the card names over its errata as headings, as printed. The site's table of contents and its summary of changes
are left out. The document is test input for the benchmarks, never shipped nor committed (bench/data/ is
ignored).
"""

from __future__ import annotations

import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from rulebot.corpus.documents import github_anchor

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "data" / "l5r-rules-reference.md"
TITLE = "# LEGEND OF THE FIVE RINGS: THE CARD GAME - RULES REFERENCE"


class _Reference(HTMLParser):
    """The blocks of the page's contents, in order: ("heading", level, text), ("para", 0, text), ("item", depth,
    text) of a list (depth 1 for a top-level item; its marker "- " or "1. " in the text), ("row", 0, cells)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, int, str]] = []
        self._inside = False
        """Within the page's contents (not its table of contents)."""
        self._depth = 0
        """Open div elements since the contents' own: where the contents end."""
        self._lists: list[str] = []
        self._block: tuple[str, int] | None = None
        self._text: list[str] = []
        self._cells: list[str] | None = None
        self._link: str | None = None
        self.anchors: dict[str, str] = {}
        """The page's id of each heading (its text before any bracket, in lower case, other characters dashes), to
        its text: what a link names."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "div":
            if self._inside:
                self._depth += 1
            elif "contents" in (found.get("class") or "").split():
                self._inside, self._depth = True, 0
            return
        if not self._inside:
            return
        if tag == "anchored-heading":
            self._start("heading", int(found.get(":level") or 1))
        elif tag == "h5":  # a card's name over its errata: an entry of the appendix
            self._start("heading", 2)
        elif tag == "p" and not self._lists:
            # the questions of the Q&A appendix are in bold, as printed
            self._start("question" if "question" in (found.get("class") or "").split() else "para", 0)
        elif tag in ("ul", "ol"):
            self._end()
            self._lists.append(tag)
        elif tag == "li":
            self._end()
            marker = "- " if self._lists and self._lists[-1] == "ul" else "1. "
            self._start("item", len(self._lists))
            self._text.append(marker)
        elif tag == "tr":
            self._end()
            self._cells = []
        elif tag in ("td", "th") and self._cells is not None:
            self._text = []
        elif tag in ("b", "strong"):
            self._text.append("**")
        elif tag in ("i", "em"):
            self._text.append("*")
        elif tag == "a" and (found.get("href") or "").startswith("#"):
            self._link = found["href"]
            self._text.append("[")
        elif tag == "br":
            self._text.append(" ")
        elif tag == "span" and "icon" in (found.get("class") or "").split():
            icon = next((c for c in (found.get("class") or "").split() if c.startswith("icon-")), "")
            self._text.append(f"[{icon.rsplit('-', 1)[-1]}]" if icon else "")
        elif tag == "table":
            self._end()
            self.blocks.append(("table", 0, ""))  # a table of its own, not rows of the one before

    def handle_endtag(self, tag: str) -> None:
        if not self._inside:
            return
        if tag == "div":
            if self._depth == 0:
                self._end()
                self._inside = False
            else:
                self._depth -= 1
        elif tag in ("anchored-heading", "h5") or (tag == "p" and not self._lists):
            self._end()
        elif tag == "li":
            self._end()
        elif tag in ("ul", "ol") and self._lists:
            self._end()
            self._lists.pop()
        elif tag in ("td", "th") and self._cells is not None:
            self._cells.append(_clean("".join(self._text)))
            self._text = []
        elif tag == "tr" and self._cells is not None:
            self.blocks.append(("row", 0, " | ".join(self._cells)))
            self._cells = None
        elif tag in ("b", "strong"):
            self._text.append("**")
        elif tag in ("i", "em"):
            self._text.append("*")
        elif tag == "a" and self._link:
            self._text.append(f"]({self._link})")
            self._link = None

    def handle_data(self, data: str) -> None:
        if not self._inside:
            return
        if self._block is None and self._cells is None and self._lists and data.strip():
            self._start("item", len(self._lists))  # text of a list outside its items: one more item
            self._text.append("- ")
        if self._block is not None or self._cells is not None:
            self._text.append(data)

    def _start(self, kind: str, level: int) -> None:
        self._end()
        self._block, self._text = (kind, level), []

    def _end(self) -> None:
        if self._block is None:
            return
        (kind, level), text = self._block, _clean("".join(self._text))
        self._block, self._text = None, []
        if kind == "heading":
            self.anchors[_page_anchor(text)] = text
        if kind == "question":
            kind, text = "para", f"**{text}**"
        if text.strip("-1. *"):
            self.blocks.append((kind, level, text))


def _clean(text: str) -> str:
    text = re.sub(r"\s+", " ", html.unescape(text)).strip()
    return text.replace("****", "").replace("** :", "**:").replace("[ ", "[").replace(" ](", "](")


def _page_anchor(text: str) -> str:
    """The page's id of a heading, as its script makes it."""
    short = text[: text.index("(")].strip() if "(" in text else text
    return re.sub(r"(^-|-$)", "", re.sub(r"[^A-Za-z0-9_]+", "-", short.lower()))


def _relinked(text: str, anchors: dict[str, str]) -> str:
    """Links to the page's ids, made links to the anchors of the Markdown headings they name."""
    def link(found: re.Match[str]) -> str:
        heading = anchors.get(found.group(1))
        return f"]({github_anchor(heading)})" if heading else found.group(0)

    return re.sub(r"\]\(#([^)\s]+)\)", link, text)


def markdown(blocks: list[tuple[str, int, str]], anchors: dict[str, str]) -> str:
    lines = [TITLE, ""]
    previous = ""
    for kind, level, text in blocks:
        text = _relinked(text, anchors)
        if previous in ("item", "row") and kind != previous:
            lines.append("")  # a list or a table ends where another block starts
        if kind == "table":
            previous = kind  # the next row is the header of a table of its own
            continue
        if kind == "heading":
            lines += ["#" * (level + 1) + " " + text, ""]
        elif kind == "para":
            lines += [text, ""]
        elif kind == "item":
            lines.append("  " * (level - 1) + text)
        else:
            if previous != "row":
                cells = text.count(" | ") + 1
                lines += [f"| {text} |", "|" + "---|" * cells]
                previous = kind
                continue
            lines.append(f"| {text} |")
        previous = kind
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    page = _Reference()
    page.feed(Path(argv[0]).read_text(encoding="utf-8"))
    page.close()
    out = Path(argv[1]) if len(argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(markdown(page.blocks, page.anchors), encoding="utf-8")
    headings = sum(1 for kind, _level, _text in page.blocks if kind == "heading")
    print(f"wrote {out}: {headings} headings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
