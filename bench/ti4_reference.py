"""Write the Twilight Imperium 4 Living Rules Reference as one Markdown document, from the pages of a copy of
github.com/bradleysigma/tirules (its R_*.php pages: the rules reference's text, one topic a page).

    python bench/ti4_reference.py PATH/TO/tirules [OUT]   # OUT: bench/data/twilight-imperium-rules-reference.md

Only the rules reference is kept: each page's "Notes" (the site's own rulings) are left out. A topic is a
heading with its number; each numbered rule a paragraph starting with its number (1.3), its sub-rules
lettered under it (a, b), a page's sub-headings as headings, its "Related Topics" as a RELATED TOPICS line,
as the printed reference has them. The document is test input for the benchmarks, never shipped nor
committed (bench/data/ is ignored).
"""

from __future__ import annotations

import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "data" / "twilight-imperium-rules-reference.md"


class _Page(HTMLParser):
    """A page's title, topic number, introduction, rules (with their depth) and related topics."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.number = ""
        self.intro: list[str] = []
        self.items: list[tuple[str, str]] = []
        """(what, text): ("rule", ...), ("sub", ...), ("bullet", ...), ("heading", ...)."""
        self.related: list[str] = []
        self._part = ""
        """The page's part: header, rules, notes, related."""
        self._stack: list[str] = []
        """The open lists (ol.lrr, ol, ul)."""
        self._in: str | None = None
        self._text: list[str] = []
        self._h2 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "header":
            self._in, self._text = "title", []
        elif tag == "h1":
            self._in, self._text = "h1", []
        elif tag == "h2":
            self._h2 = True
        elif tag == "p" and self._part == "rules" and not self._stack:
            self._in, self._text = "intro", []
        elif tag in ("ol", "ul"):
            self._stack.append(tag if dict(attrs).get("class") != "lrr" else "lrr")
        elif tag == "li" and self._stack:
            self._flush()
            self._in, self._text = "li", []
        elif tag == "br" and self._in:
            self._text.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "header" and self._in == "title":
            self.title = _clean("".join(self._text))
            self._in = None
        elif tag == "h1" and self._in == "h1":
            name = _clean("".join(self._text)).lower()
            self._part = {"rules reference": "rules", "notes": "notes", "related topics": "related"}.get(name, "other")
            self._in = None
        elif tag == "p" and self._in == "intro":
            self.intro.append(_clean("".join(self._text)))
            self._in = None
        elif tag == "li" and self._in == "li":
            self._flush()
        elif tag in ("ol", "ul") and self._stack:
            self._flush()
            self._stack.pop()
        elif tag == "h2":
            self._h2 = False

    def _flush(self) -> None:
        if self._in != "li":
            return
        text = _clean("".join(self._text))
        self._in, self._text = None, []
        if not text:
            return
        if self._part == "related":
            self.related.append(text)
        elif self._part == "rules":
            if self._h2:
                self.items.append(("heading", text))
            elif self._stack[-1] == "lrr":
                self.items.append(("rule", text))
            elif self._stack[-1] == "ul":
                self.items.append(("bullet", text))
            else:
                self.items.append(("sub", text))

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text.append(data)
        if not self.number:
            found = re.search(r"content:\s*'(\d+)\.'", data)
            if found:
                self.number = found.group(1)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text).replace("\u2013", "-")).strip()


def page_markdown(page: _Page) -> str:
    lines = [f"## {page.number} {page.title.upper()}", ""]
    lines += [paragraph + "\n" for paragraph in page.intro]
    rule = sub = 0
    for at, (what, text) in enumerate(page.items):
        if what != "bullet" and at and page.items[at - 1][0] == "bullet":
            lines.append("")  # a list ends where a paragraph starts
        if what == "heading":
            lines += [f"### {text.upper()}", ""]
        elif what == "rule":
            rule, sub = rule + 1, 0
            lines += [f"{page.number}.{rule} {text}", ""]
        elif what == "sub":
            lines += [f"{chr(ord('a') + sub)}. {text}", ""]
            sub += 1
        else:
            lines.append(f"- {text}")
    if lines[-1] != "":
        lines.append("")
    if page.related:
        lines += ["RELATED TOPICS: " + ", ".join(page.related), ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(argv[0])
    out = Path(argv[1]) if len(argv) > 1 else OUT
    pages = []
    for path in sorted(folder.glob("R_*.php")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        if not page.number:
            print(f"{path.name}: no topic number, left out", file=sys.stderr)
            continue
        pages.append(page)
    pages.sort(key=lambda p: int(p.number))
    body = "\n".join(page_markdown(p) for p in pages)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("# TWILIGHT IMPERIUM FOURTH EDITION: RULES REFERENCE\n\n" + body, encoding="utf-8")
    print(f"wrote {out}: {len(pages)} topics", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
