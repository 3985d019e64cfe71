"""Entry texts as HTML for the site: safe links, and links between entries.

The site renders entry texts with the project's one parser (`render.parser()`),
extended by `site_plugin`, whose core rules act only when the parse was given a
`LinkContext` in its env under ENV_KEY, so that every other use of the parser
(the terminal form of the index) is unchanged:

- `rulebot_safe_links` keeps a link only when it is http(s), relative (to a
  page of the site), or an anchor naming an entry (rewritten to that entry's
  page); any other link is reduced to its text, and images become their alt text (linked when http(s)),
  so that a page never loads anything from another host.
- `rulebot_auto_links` turns mentions of another entry's title or alias into a
  link to that entry (see `NameTable` for which names qualify).
- `rulebot_site_headings` moves the `###` headings of an entry text below the
  entry's own heading level.

`to_html` parses and renders one entry text with those rules and a renderer
that wraps tables in a box that scrolls on its own on narrow screens.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from rulebot.corpus.model import Entry
from rulebot.markdown import parser

ENV_KEY = "rulebot_site"
"""The env key holding the LinkContext of the entry being rendered."""
LINKED_KEY = "rulebot_site_linked"
"""The env key where the safe-links rule leaves the ids of the entries the text links itself."""

MIN_NAME_LENGTH = 4
"""Names shorter than this ("tie", "vp", "run") are never linked automatically."""

HEADING_SHIFT = 3
"""Entry titles are `<h4>` (page h1, source h2, section h3): entry `#` becomes h5."""

_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_APOSTROPHES = "'\u2019"


@dataclass(frozen=True)
class NameTable:
    """The names of a game's entries that may be linked automatically, longest first.

    A name qualifies when it is at least MIN_NAME_LENGTH characters long, is
    claimed by a single entry of the game, and is either the entry's title or
    an alias that looks like a name rather than a common word: several words,
    a capital letter or a digit ("Pearl Bed", "Liet", "13 points"), not a
    lower-case single word ("draw", "victory", "even"), which would link half
    the ordinary sentences of a game.
    """

    names: tuple[tuple[str, str], ...]
    """(name, entry id) pairs, longest name first, then alphabetical."""
    targets: dict[str, str] = field(default_factory=dict)
    """Casefolded name -> entry id, to map a match back to its entry."""
    langs: dict[str, str] = field(default_factory=dict)
    """Casefolded name -> its language, when not English (the link gets a lang attribute)."""
    _grouped: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    """`pattern` with its names grouped by first character (see `finditer`)."""
    _firsts: tuple[re.Pattern[str], ...] = field(default=(), repr=False, compare=False)
    """The first characters of each group of `_grouped`, as a case-insensitive pattern."""
    _ambiguous: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    """Character -> whether it may start names of two groups (computed as met)."""

    @classmethod
    def for_entries(cls, entries: Iterable[Entry]) -> NameTable:
        """The table of the names of these entries (those of one game)."""
        owners: dict[str, set[str]] = {}
        spelling: dict[str, str] = {}
        langs: dict[str, str] = {}
        for entry in entries:
            for name, lang in _candidate_names(entry):
                if not _linkable(name, is_title=lang is None):
                    continue
                key = _key(name)
                owners.setdefault(key, set()).add(entry.id)
                spelling.setdefault(key, name)
                if lang not in (None, "en"):
                    langs.setdefault(key, lang)
        targets = {key: ids.pop() for key, ids in owners.items() if len(ids) == 1}
        names = tuple(sorted(((spelling[k], v) for k, v in targets.items()), key=lambda p: (-len(p[0]), _key(p[0]), p[1])))
        if not names:
            return cls(names=(), targets={})
        # Names by their first character, casefolded ("S" and "s" together):
        # the characters they start with as written, and their regexes in order.
        groups: dict[str, tuple[set[str], list[str]]] = {}
        for name, _ in names:
            first = _first_chars(name)
            starts, regexes = groups.setdefault(_key(first[0]), (set(), []))
            starts.update(first)
            regexes.append(_name_regex(name))
        firsts = ["[" + "".join(re.escape(char) for char in sorted(starts)) + "]" for starts, _ in groups.values()]
        # The lookahead lets the regex engine skip a whole group on one character.
        alternation = "|".join(f"(?={first})(?:{'|'.join(regexes)})" for first, (_, regexes) in zip(firsts, groups.values()))
        return cls(
            names=names,
            targets=targets,
            langs={k: v for k, v in langs.items() if k in targets},
            _grouped=_whole_words(alternation),
            _firsts=tuple(re.compile(first, re.IGNORECASE) for first in firsts),
        )

    @functools.cached_property
    def pattern(self) -> re.Pattern[str] | None:
        """One case-insensitive whole-word alternation of every name, longest first: the name a text mentions."""
        if not self.names:
            return None
        return _whole_words("|".join(_name_regex(name) for name, _ in self.names))

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches of `pattern` in `text`, found without trying every name at every word.

        `pattern` tries its names one after the other at each word of a text:
        with thousands of names, that was most of the time of a site build.
        The grouped regex tries only the group of names starting with the
        character found there. It finds the same matches: a name cannot match
        where its first character does not, and a group keeps its names in
        `pattern`'s order. Only where the character may start names of two
        groups (case-insensitively "I" matches both "i" and "ı") could the
        group tried first hide a longer name of the other: there `pattern` decides.
        """
        if self._grouped is None:
            return
        pos = 0
        while (match := self._grouped.search(text, pos)) is not None:
            if self._is_ambiguous(text[match.start()]):
                assert self.pattern is not None
                exact = self.pattern.match(text, match.start())
                assert exact is not None  # some name matches here, so `pattern` matches too
                match = exact
            yield match
            pos = match.end()

    def _is_ambiguous(self, char: str) -> bool:
        ambiguous = self._ambiguous.get(char)
        if ambiguous is None:
            ambiguous = self._ambiguous[char] = sum(1 for first in self._firsts if first.fullmatch(char)) > 1
        return ambiguous

    def target(self, matched: str) -> str | None:
        """The entry id a matched piece of text names."""
        return self.targets.get(_key(matched))

    def lang(self, matched: str) -> str | None:
        """The language of a matched name, when it is not English."""
        return self.langs.get(_key(matched))


@dataclass(frozen=True)
class LinkContext:
    """What the site's Markdown rules need to know about the entry being rendered."""

    entry_id: str
    """The entry whose text it is: never linked to itself."""
    names: NameTable
    """The linkable names of the entry's game."""
    href_for: Callable[[str], str | None]
    """An entry id -> the href reaching it from the current page (None: no such entry)."""
    titles: dict[str, str] = field(default_factory=dict)
    """Entry id -> title, for the tooltip of automatic links."""
    relative: Callable[[str], str | None] = lambda href: href
    """A relative href -> the href to keep (None: it leads to no page of the site)."""


def _candidate_names(entry: Entry) -> Iterator[tuple[str, str | None]]:
    """(name, language) for the aliases, (title, None) for the title."""
    yield entry.title, None
    for alias in entry.aliases:
        yield alias.text, alias.lang


def _linkable(name: str, is_title: bool) -> bool:
    if len(name.strip()) < MIN_NAME_LENGTH:
        return False
    if is_title:
        return True
    return len(name.split()) > 1 or name != name.lower() or any(c.isdigit() for c in name)


def _key(name: str) -> str:
    for quote in _APOSTROPHES:
        name = name.replace(quote, "'")
    return " ".join(name.casefold().split())


def _whole_words(alternation: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


def _first_chars(name: str) -> str:
    """The characters `_name_regex(name)` starts with, case aside: its first, or either apostrophe."""
    first = name.split()[0][0]
    return _APOSTROPHES if first in _APOSTROPHES else first


def _name_regex(name: str) -> str:
    """A name as a regex: any run of spaces matches any whitespace, either apostrophe matches."""
    parts = []
    for word in name.split():
        escaped = re.escape(word)
        for quote in _APOSTROPHES:
            escaped = escaped.replace(re.escape(quote), f"[{_APOSTROPHES}]")
        parts.append(escaped)
    return r"\s+".join(parts)


def site_plugin(md: MarkdownIt) -> None:
    """Register the site's core rules (once; they act only on a site parse)."""
    present = md.core.ruler.get_all_rules()
    for name, rule in (
        ("rulebot_safe_links", safe_links_rule),
        ("rulebot_auto_links", auto_links_rule),
        ("rulebot_site_headings", headings_rule),
    ):
        if name not in present:
            md.core.ruler.push(name, rule)


def _context(state: StateCore) -> LinkContext | None:
    env = state.env
    context = env.get(ENV_KEY) if isinstance(env, dict) else None
    return context if isinstance(context, LinkContext) else None


# -- safe links -------------------------------------------------------------


def classify_href(href: str) -> str:
    """'external' (http/https), 'anchor' (#...), 'relative', or 'refused' for anything else."""
    if href.startswith("#"):
        return "anchor"
    match = _SCHEME_RE.match(href)
    if match:
        return "external" if match.group(1).lower() in ("http", "https") and href[match.end():].startswith("//") else "refused"
    if href.startswith(("/", "\\")) or "\\" in href or any(ord(c) < 0x20 for c in href):
        return "refused"  # absolute paths and //host: outside the site, or not what they seem
    head = re.split(r"[/?#]", href, maxsplit=1)[0]
    return "refused" if ":" in head else "relative"


def safe_links_rule(state: StateCore) -> None:
    """Keep only http(s), relative and entry-anchor links; images become (linked) alt text."""
    context = _context(state)
    if context is None:
        return
    linked: set[str] = state.env.setdefault(LINKED_KEY, set())
    for block in state.tokens:
        if block.type == "inline" and block.children:
            block.children = _safe_children(block.children, context, linked)


def _safe_children(children: Sequence[Token], context: LinkContext, linked: set[str]) -> list[Token]:
    out: list[Token] = []
    kept: list[bool] = []  # per open link: whether its link_close is kept
    for token in children:
        if token.type == "link_open":
            original = str(token.attrGet("href") or "")
            href = _resolve(original, context)
            kept.append(href is not None)
            if href is not None and classify_href(original) == "anchor":
                linked.add(original[1:])
            if href is not None:
                token.attrSet("href", href)
                if classify_href(href) == "external":
                    token.attrSet("rel", "noopener noreferrer")
                out.append(token)
        elif token.type == "link_close":
            if kept.pop() if kept else False:
                out.append(token)
        elif token.type == "image":
            out.extend(_image_as_text(token))
        else:
            out.append(token)
    return out


def _resolve(href: str, context: LinkContext) -> str | None:
    kind = classify_href(href)
    if kind == "anchor":
        return context.href_for(href[1:])  # an entry of the corpus, or no link
    if kind == "relative":
        return context.relative(href)
    return None if kind == "refused" else href


def _image_as_text(image: Token) -> list[Token]:
    text = Token("text", "", 0, content=image.content or "image")
    src = str(image.attrGet("src") or "")
    if classify_href(src) != "external":
        return [text]
    return [
        Token("link_open", "a", 1, attrs={"href": src, "rel": "noopener noreferrer"}),
        text,
        Token("link_close", "a", -1),
    ]


# -- automatic links between entries ---------------------------------------


def auto_links_rule(state: StateCore) -> None:
    """Link the first mention of each other entry's name, longest name first."""
    context = _context(state)
    if context is None or not context.names.names:
        return
    # An entry the text links itself, like the entry itself, is not linked again.
    linked: set[str] = {context.entry_id, *state.env.get(LINKED_KEY, ())}
    for index, block in enumerate(state.tokens):
        if block.type != "inline" or not block.children:
            continue
        if index and state.tokens[index - 1].type == "heading_open":
            continue
        block.children = _link_children(block.children, context, linked)


def _link_children(children: Sequence[Token], context: LinkContext, linked: set[str]) -> list[Token]:
    out: list[Token] = []
    depth = 0
    for token in children:
        if token.type == "link_open":
            depth += 1
        elif token.type == "link_close":
            depth -= 1
        if token.type != "text" or depth > 0 or not token.content:
            out.append(token)
            continue
        out.extend(_link_text(token, context, linked))
    return out


def _link_text(token: Token, context: LinkContext, linked: set[str]) -> list[Token]:
    text = token.content
    pieces: list[Token] = []
    start = 0
    for match in context.names.finditer(text):
        # The regex tries the longest names first, and a name of the entry
        # itself or of an entry already linked still consumes its words, so
        # that a shorter name inside it is not linked instead.
        target = context.names.target(match.group(0))
        if target is None or target in linked:
            continue
        href = context.href_for(target)
        if href is None:
            continue
        linked.add(target)
        if match.start() > start:
            pieces.append(Token("text", "", 0, content=text[start:match.start()]))
        attrs: dict[str, str | int | float] = {"href": href, "class": "autolink"}
        if target in context.titles:
            attrs["title"] = context.titles[target]
        lang = context.names.lang(match.group(0))
        if lang:
            attrs["lang"] = lang
        pieces.append(Token("link_open", "a", 1, attrs=attrs))
        pieces.append(Token("text", "", 0, content=match.group(0)))
        pieces.append(Token("link_close", "a", -1))
        start = match.end()
    if not pieces:
        return [token]
    if start < len(text):
        pieces.append(Token("text", "", 0, content=text[start:]))
    return pieces


# -- headings and rendering -------------------------------------------------


def headings_rule(state: StateCore) -> None:
    """Entry texts' headings go below the entry title's level (h4)."""
    if _context(state) is None:
        return
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            level = min(int(token.tag[1:]) + HEADING_SHIFT, 6)
            token.tag = f"h{level}"


class SiteRenderer(RendererHTML):
    """The HTML renderer of entry texts: tables scroll inside their own box."""

    def table_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        box = '<div class="table-wrap" role="region" aria-label="Table" tabindex="0">\n'
        return box + self.renderToken(tokens, idx, options, env)

    def table_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return self.renderToken(tokens, idx, options, env) + "</div>\n"


_RENDERER = SiteRenderer()


def to_html(markdown: str, context: LinkContext) -> str:
    """An entry text as safe HTML, with links to the entries it mentions."""
    md = parser()
    site_plugin(md)
    env: EnvType = {ENV_KEY: context}
    tokens = md.parse(markdown, env)
    return _RENDERER.render(tokens, md.options, env)
