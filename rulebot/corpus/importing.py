"""Drafting corpus entries from a rules or FAQ document (`rulebot import`).

The document is cut into blocks (rulebot.corpus.documents): headings give the
sections and titles, paragraphs, lists, tables and code the texts. Each
heading, then each paragraph, goes through an ordered list of recognisers
(HEADING_STEPS, PARAGRAPH_STEPS): the first that takes it decides what it is.
Inside a section, entries start at

- bold lead-ins, `**Card name** — text` (also `Term — text` with a dash),
- `Q:` / `A:` pairs: one FAQ entry per question (under a heading of questions,
  also a question in bold and the paragraphs after it),
- numbered rules: `702.19b text`, or headings such as `#### 1.5.2. Title`,
- glossary terms of plain-text documents: a short line, its definition below.

A heading with text of its own is an entry too. References become `see_also`
links between the drafts: `See also X.` lines, `see rule 702.19` (and
`rules 205.1a–b, 305.7`), `See 1.7.`, `(see X)` and links to the document's
own headings (`[Ability](#ability)`). Redirects (`X - See Y.`, or a heading
whose only text is `See Y.`) put the alias X on Y. What cannot be resolved is
kept as a note for the curator. The drafts, their references and their
resolving are in rulebot.corpus.drafts.

Every drafted entry carries `draft: true`: its text is still the document's
own, to be restated by a curator (`rulebot check --strict` lists drafts).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulebot.corpus import shaping
from rulebot.corpus.documents import (
    DASHES,
    MARKDOWN_SUFFIXES,
    NUMBERED_RE,
    SECTION_NUMBER_RE,
    Block,
    document_acronyms,
    github_anchor,
    markdown_blocks,
    number_key,
    read_document,
    split_lead_ins,
    text_blocks,
    title_like,
)
from rulebot.corpus.drafted import Imported
from rulebot.corpus.drafts import KIND_PATTERNS, MIN_TOPICS, Draft, Drafting, Heading, heading_links
from rulebot.corpus.kinds import HOUSE_TRUST
from rulebot.corpus.model import Corpus, Game, Source
from rulebot.errors import CurationError
from rulebot.text import fold

SEE_ALSO_RE = re.compile(r"^\s*See (?i:also)\s*:?\s*(?P<names>.+?)\s*$", re.DOTALL)
RELATED_RE = re.compile(r"^\s*(?i:related\s+topics?)\s*:\s*(?P<names>\S.*?)\s*$", re.DOTALL)
"""`Related topics: X, Y`, which a rules reference ends each of its topics with: the topic's See also."""
HEADING_NUMBER_RE = re.compile(r"^\s*(?P<number>\d{1,3})\s+(?P<rest>[^\W\d_].*)$")
"""`3 Action Phase`: a heading numbered without a dot, as a rules reference numbers its topics (3.1, 3.2 ... below)."""
SEE_RE = re.compile(r"^\s*See\s*:?\s+(?P<name>[^.;:()]{1,120}?)\s*\.?\s*$")
REDIRECT_RE = re.compile(rf"^\s*(?P<name>[^{DASHES}\n]{{1,60}}?)\s+[-{DASHES}]\s+see\s+(?P<target>[^\n]{{1,80}}?)\s*\.?\s*$", re.IGNORECASE)
QUESTION_RE = re.compile(r"^\s*(?:\*\*|__)?\s*Q\s*[:.]\s*(?:\*\*|__)?\s*(?P<rest>.*)$", re.DOTALL)
QUESTION_LINE_RE = re.compile(r"^\s*(?:\*\*|__)?\s*Q\s*[:.]\s*(?:\*\*|__)?\s*\S")
"""A line that asks a question of an FAQ (`Q: …`): one within a paragraph starts a question of its own."""
ANSWER_RE = re.compile(r"^\s*(?:\*\*|__)?\s*A\s*[:.]\s*(?:\*\*|__)?\s*", re.DOTALL)
BOLD_QUESTION_RE = re.compile(r"^\s*(?P<bold>\*\*|__)(?P<rest>(?:(?!\*\*|__).)+\?)\s*(?P=bold)\s*$", re.DOTALL)
"""`**Can I ...?**`: a paragraph all in bold that asks, as FAQ sections print their questions without `Q:`."""
REVISION_MARK_RE = re.compile(r"^\s*(?:\\\*|\*(?=\s))\s*")
BOLD_LEAD_RE = re.compile(
    rf"^\s*(?P<mark>(?:\\\*|\*(?=\s))\s*)?(?:\*\*|__)(?P<name>[^*_\n]{{1,80}}?)(?P<colon>[:.])?(?:\*\*|__)"
    rf"(?(colon)\s*|\s*(?:[{DASHES}:]|-(?=\s))\s*)(?P<rest>\S.*)$",
    re.DOTALL,
)
DASH_LEAD_RE = re.compile(
    rf"^\s*(?P<mark>(?:\\\*|\*(?=\s))\s*)?(?P<name>[^{DASHES}\n.!?:;*]{{1,60}}?)\s+[{DASHES}]\s+(?P<rest>\S.*)$", re.DOTALL
)
PAGE_LEAD_RE = re.compile(r"^(?:page|p\.|step|section)\s*\d", re.IGNORECASE)
MAX_LEAD_WORDS = 8
MAX_INLINE_LEAD_WORDS = 40
"""A lead-in of this many words or fewer inside a heading's entry (level 3 or deeper) stays in that entry."""
WRAPPED_WORDS = 4
"""A plain-text line of this many words or more, with a line going on in lower case below it, is a wrapped
sentence, not a glossary term (a term of a glossary is seldom longer)."""


def imported_source(corpus: Corpus, game: str, source: str | None) -> str:
    """The id of the source a document is drafted for: `source`, else the game's only source (a game started by
    `rulebot new-game` has one), house rules aside (a house-rules folder adds its own source to the game it extends).
    CurationError when none is given and the game declares several or none; UnknownGameError for an unknown game."""
    if source is not None:
        return source
    sources = [s.id for s in corpus.game(game).sources if s.trust != HOUSE_TRUST]
    if len(sources) == 1:
        return sources[0]
    if not sources:
        raise CurationError(f"{game} declares no source; declare the document's in its game.toml first")
    raise CurationError(f"{game} declares several sources ({', '.join(sources)}): name the one the document is (--source)")


def import_document(path: Path, corpus: Corpus, game: str, source: str) -> Imported:
    """Draft entries for a game's source from a Markdown (.md), PDF (.pdf, read by rulebot.corpus.pdf) or plain-text document.

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
    drafting = Drafting(game, markdown, corpus, document_acronyms(text))
    walk(drafting, blocks)
    drafting.drafts = shaping.shape(drafting.drafts, drafting.number_names)
    result = Imported(document=document, game=game.slug, source=source.id)
    drafting.finish(result)
    return result


def walk(drafting: Drafting, blocks: list[Block]) -> None:
    """Each block in turn: a heading through HEADING_STEPS, each piece of a paragraph through PARAGRAPH_STEPS,
    anything else (a list, a table, code) as text of the draft in progress."""
    top = [b for b in blocks if b.kind == "heading" and b.level <= 1]
    drafting.topics = find_topics(blocks)
    for block in blocks:
        if block.kind == "heading":
            is_title = block.level == 0 or (drafting.markdown and block.level == 1 and len(top) == 1)
            read_heading(drafting, block, is_title)
        elif block.kind == "para":
            for part, line in segments(block, drafting.markdown):
                read_paragraph(drafting, part, line)
        else:
            drafting.add_text(block.source, block.line)


def find_topics(blocks: list[Block]) -> dict[int, str]:
    """The headings that are a rules reference's topics, by line, with their numbers: a heading numbered without a
    dot (`3 Action Phase`) with rules numbered under it (3.1, 3.2) before the next such heading; and, once
    MIN_TOPICS have rules, each other heading so numbered at their levels that comes in their order (a topic of
    one paragraph, `29 Defender` after 28). Not a heading starting with a count (`2 Players`, `10 Minute Quickstart`)."""
    candidates = {
        b.line: number_key(found.group("number"))
        for b in blocks
        if b.kind == "heading" and not NUMBERED_RE.match(b.text) and not SECTION_NUMBER_RE.match(b.text) and (found := HEADING_NUMBER_RE.match(b.text))
    }
    levels = {b.line: b.level for b in blocks if b.line in candidates}
    ruled: dict[int, str] = {}
    last: int | None = None
    for block in blocks:
        if block.line in candidates:
            last = block.line
        elif last is not None and last not in ruled and block.kind in ("para", "heading"):
            for text_line in (block.text if block.kind == "heading" else block.source).split("\n"):
                rule = NUMBERED_RE.match(text_line)
                if rule and number_key(rule.group("number")).startswith(candidates[last] + "."):
                    ruled[last] = candidates[last]
                    break
    if len(ruled) < MIN_TOPICS:
        return ruled
    topics: dict[int, str] = {}
    at_levels = {levels[line] for line in ruled}
    previous = 0
    for line, number in candidates.items():
        # A topic with no rules of its own comes in the topics' order: `29 Defender` right after 28.
        if line in ruled or (levels[line] in at_levels and int(number) == previous + 1 and number not in ruled.values()):
            topics[line] = number
            previous = int(number)
    return topics


def segments(block: Block, markdown: bool) -> Iterator[tuple[str, int]]:
    """A paragraph cut at mid-paragraph lead-ins (Markdown), or at lines starting a numbered rule (plain text)."""
    if markdown:
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


# -- headings ------------------------------------------------------------------


@dataclass(frozen=True)
class HeadingBlock:
    """A heading as its recognisers see it."""

    block: Block
    """The heading's block."""
    text: str
    """Its text on one line, without revision mark or closing colon."""
    marked: bool
    """The document marks it new or revised (`* Heading`)."""
    is_title: bool
    """It is the document's title."""


def read_heading(drafting: Drafting, block: Block, is_title: bool) -> None:
    """A heading, given to the first step of HEADING_STEPS that takes it."""
    text = " ".join(block.text.split())
    marked = bool(REVISION_MARK_RE.match(text))
    text = REVISION_MARK_RE.sub("", text).strip().rstrip(":").strip()
    if not text:
        return
    seen = HeadingBlock(block, text, marked, is_title)
    for _name, step in HEADING_STEPS:
        if step(drafting, seen):
            return


def see_also_heading(drafting: Drafting, heading: HeadingBlock) -> bool:
    """`See also X` (or `Related topics: X`, a line of plain text read as a heading) as a heading: references of
    the draft in progress (of its topic)."""
    see_also = SEE_ALSO_RE.match(heading.text)
    found = see_also or RELATED_RE.match(heading.block.text)
    if found is None:
        return False
    drafting.see_also(found.group("names"), heading.block.source, heading.block.line, topic=see_also is None)
    return True


def redirect_heading(drafting: Drafting, heading: HeadingBlock) -> bool:
    """`X - See Y` as a heading: X an alias of Y."""
    found = REDIRECT_RE.match(heading.text)
    if found is None or found.group("name").lower().startswith("see"):
        return False
    drafting.redirect(found.group("name").strip(), found.group("target"), "", heading.block.line, heading.text)
    return True


def section_heading(drafting: Drafting, heading: HeadingBlock) -> bool:
    """Any other heading: it closes the entry in progress, and is a draft itself if text follows it."""
    block, text = heading.block, heading.text
    drafting.close()
    number = None
    numbered = NUMBERED_RE.match(text) or SECTION_NUMBER_RE.match(text)
    if numbered is None and block.line in drafting.topics:
        numbered = HEADING_NUMBER_RE.match(text)
        drafting.topic = drafting.topics[block.line]
    elif numbered and number_key(numbered.group("number")) in drafting.topics.values():
        # Another heading of a topic's number (an appendix's `5. Quick Setup`): the topics own their numbers, the
        # name of their rules, what a reference to the number means, and their names as terms.
        numbered = None
    if numbered:
        number = number_key(numbered.group("number"))
        rest = (numbered.group("rest") or "").strip().rstrip(".")
        if rest:
            drafting.number_names[number] = drafting.title(rest)
    found = Heading(block.level, text, github_anchor(block.text), number)
    drafting.all_headings.append(found)
    if heading.is_title:
        drafting.title_heading = found
        drafting.headings = []
    else:
        while drafting.headings and drafting.headings[-1].level >= block.level:
            drafting.headings.pop()
        drafting.headings.append(found)
    # `1.3.1. Precedence` as `1.3.1 Precedence`, like numbered rules; `1. Game Concepts` as it is.
    title = drafting.numbered_title(number, numbered.group("rest")) if numbered and number and "." in number else drafting.title(text)
    drafting.pending = Draft(title, drafting.kind(), drafting.section(), block.line, number=number, level=block.level)
    if heading.marked:
        drafting.pending.notes.append("the document marks this entry as new or revised")
    return True


HEADING_STEPS: tuple[tuple[str, Callable[[Drafting, HeadingBlock], bool]], ...] = (
    ("see also", see_also_heading),
    ("redirect", redirect_heading),
    ("section", section_heading),
)
"""What a heading can be, in the order tried: a step returns whether it took the heading."""


# -- paragraphs ----------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """A paragraph (or a piece of one, see segments) as its recognisers see it."""

    source: str
    """Its Markdown source, See also lines taken out."""
    lines: list[str]
    """The lines of `source`."""
    text: str
    """Its plain text on one line."""
    line: int
    """Its first line in the document."""


def read_paragraph(drafting: Drafting, source: str, line: int) -> None:
    """A paragraph's See also lines as references, then the rest given to the first step of PARAGRAPH_STEPS that takes it."""
    kept: list[str] = []
    related: list[str] = []
    """A Related topics line and the lines after it (a wrapped one), read once the rest is: they end a topic."""
    for offset, text_line in enumerate(source.split("\n")):
        see_also = None if related else SEE_ALSO_RE.match(drafting.plain(text_line))
        if see_also:
            drafting.see_also(see_also.group("names"), text_line, line + offset)
        elif related or RELATED_RE.match(drafting.plain(text_line)):
            related.append(text_line)
        else:
            kept.append(text_line)
    # Questions on lines of their own within one paragraph ("Q: …" / "A: …" / "Q: …", as a plain text runs them on):
    # each is read as a paragraph of its own, from its line on.
    asked = [at for at, text_line in enumerate(kept) if at and QUESTION_LINE_RE.match(text_line)]
    for start, end in zip([0, *asked], [*asked, len(kept)]) if kept else ():
        source = "\n".join(kept[start:end])
        seen = Paragraph(source, kept[start:end], " ".join(drafting.plain(source).split()), line + start)
        for _name, step in PARAGRAPH_STEPS:
            if step(drafting, seen):
                break
    if related:
        written = " ".join(related)
        found = RELATED_RE.match(drafting.plain(written))
        assert found is not None
        drafting.see_also(found.group("names"), written, line + len(kept), topic=True)


def redirect(drafting: Drafting, paragraph: Paragraph) -> bool:
    """`X - See Y.` standing alone: X an alias of Y."""
    found = REDIRECT_RE.match(REVISION_MARK_RE.sub("", paragraph.text))
    if found is None or len(paragraph.lines) != 1 or found.group("name").lower().startswith("see"):
        return False
    drafting.redirect(found.group("name").strip(), found.group("target"), "", paragraph.line, paragraph.text)
    return True


def see(drafting: Drafting, paragraph: Paragraph) -> bool:
    """`See Y.`: the only text of a heading (a redirect, the heading's name an alias of Y), else a See also."""
    found = SEE_RE.match(paragraph.text)
    if found is None or not (heading_links(paragraph.source) or len(found.group("name").split()) <= 6):
        return False
    if drafting.pending is not None:
        title = drafting.pending.title
        drafting.redirect(title, found.group("name"), paragraph.source, paragraph.line, f"{title}: {paragraph.text}")
        drafting.pending = None
        return True
    drafting.see_also(found.group("name"), paragraph.source, paragraph.line)
    return True


def question(drafting: Drafting, paragraph: Paragraph) -> bool:
    """`Q: ...`: an FAQ entry, the question its title, and its answer when in the same paragraph. Under a heading
    of questions (KIND_WORDS: FAQ), a question in bold too, its answer the paragraphs after it."""
    found = QUESTION_RE.match(paragraph.source)
    if found is None or not found.group("rest").strip():
        found = BOLD_QUESTION_RE.match(paragraph.source)
        if found is None or not _under_questions(drafting):
            return False
    parts = re.split(r"\n(?=\s*(?:\*\*|__)?\s*A\s*[:.])", found.group("rest"), maxsplit=1)
    asked = parts[0]
    title = " ".join(drafting.plain(asked).split()).strip()
    where = drafting.section()
    count = drafting.question_count[where] = drafting.question_count.get(where, 0) + 1
    section = f"{where}, question {count}" if where else f"question {count}"
    drafting.start(Draft(title[:300], "faq", section, paragraph.line), marked=False)
    if len(parts) > 1:
        drafting.add_text(ANSWER_RE.sub("", parts[1], count=1), paragraph.line + asked.count("\n") + 1)
    return True


def answer(drafting: Drafting, paragraph: Paragraph) -> bool:
    """The paragraph right after a question (`A: ...`, or any other: a bold lead-in or a numbered rule there is
    how the answer begins, not an entry that would leave the question empty): its answer."""
    current = drafting.current
    if current is None or current.kind != "faq" or current.body:
        return False
    drafting.add_text(ANSWER_RE.sub("", paragraph.source, count=1), paragraph.line)
    return True


def _under_questions(drafting: Drafting) -> bool:
    """Whether a heading above, the document's title included, is one of questions (KIND_WORDS' FAQ words): a
    question in bold there is one of them, in a sub-section too ("FAQ > Setup")."""
    headings = [*drafting.headings, *([drafting.title_heading] if drafting.title_heading else [])]
    return any(pattern.search(fold(h.title)) for pattern, kind in KIND_PATTERNS if kind == "faq" for h in headings)


def numbered_rule(drafting: Drafting, paragraph: Paragraph) -> bool:
    """`702.19b text`: a rule. `702.19. Trample` names the rules below it, and is an entry if text follows."""
    match = NUMBERED_RE.match(paragraph.text)
    if match is None:
        return False
    source, line = paragraph.source, paragraph.line
    number = number_key(match.group("number"))
    rest = (match.group("rest") or "").strip()
    if title_like(rest) and "\n" not in rest:
        # `702.19. Trample`: names the rules below it; text right under it would be its own.
        drafting.number_names[number] = drafting.title(rest)
        drafting.current = None
        section = drafting.section(match.group("number").rstrip("."))
        drafting.pending = Draft(f"{number} {drafting.title(rest)}", drafting.kind(), section, line, number=number)
        return True
    title = drafting.numbered_title(number, None)
    drafting.start(Draft(title, drafting.kind(), drafting.section(match.group("number").rstrip(".")), line, number=number), marked=False)
    body = re.sub(rf"^\s*{re.escape(match.group('number'))}\.?\s*", "", source, count=1) if not drafting.markdown else source
    drafting.add_text(body if body.strip() else source, line)
    return True


def lead_in(drafting: Drafting, paragraph: Paragraph) -> bool:
    """`**Name** — text` (or `Name — text`): an entry for Name, in the section."""
    lead = BOLD_LEAD_RE.match(paragraph.source)
    if lead is None and (dash := DASH_LEAD_RE.match(paragraph.source)) and _dash_lead_name(dash):
        lead = dash
    if not lead or not _is_lead_name(lead.group("name")):
        return False
    current = drafting.current
    if current is not None and current.open and current.level >= 3 and current.body and len(lead.group("rest").split()) <= MAX_INLINE_LEAD_WORDS:
        # `**Tough** — a status card that ...` inside the entry of a heading (Status Cards) that has
        # begun its text: a short item of that entry, not an entry taking its See also line.
        return False
    name = " ".join(drafting.plain(lead.group("name")).split()).strip().rstrip(":")
    title = name
    if PAGE_LEAD_RE.match(name) and drafting.headings:
        title = f"{drafting.title(drafting.headings[-1].title)}, {name}"
    draft = Draft(drafting.title(title), drafting.kind("fine-point", item=True), drafting.section(name), paragraph.line)
    drafting.start(draft, marked=bool(lead.group("mark")))
    drafting.add_text(lead.group("rest"), paragraph.line)
    return True


def glossary_term(drafting: Drafting, paragraph: Paragraph) -> bool:
    """A glossary term of a plain-text document: the term on a line, its definition below (not a wrapped sentence)."""
    lines = paragraph.lines
    if drafting.markdown or len(lines) < 2 or not title_like(lines[0]) or NUMBERED_RE.match(lines[0]) or _wrapped(lines):
        return False
    drafting.start(Draft(drafting.title(lines[0]), _line_kind(drafting, lines[0]), drafting.section(lines[0]), paragraph.line), marked=False)
    drafting.add_text("\n".join(lines[1:]), paragraph.line + 1)
    return True


def _line_kind(drafting: Drafting, name: str) -> str:
    """The kind of a draft a name on its own line starts: under a glossary heading a term, under another heading of a
    kind the kind it gives; else (a section's name glued to its text, as text taken out of a PDF has them: "SETUP" /
    "Place the board…", or a topic under a heading of rules: "Moving") the kind its own name says (setup, faq...),
    else a rule."""
    given = drafting.kind("rule", item=True)
    if given != "rule":
        return given
    named = next((kind for pattern, kind in KIND_PATTERNS if pattern.search(fold(name))), "rule")
    return "rule" if named == "term" else named


def _wrapped(lines: list[str]) -> bool:
    """Whether a paragraph's first line is the start of a sentence the page wrapped, which text taken out of a PDF
    is full of ("Le joueur peut immédiatement" / "effectuer trois actions"), rather than a term: the next line goes
    on in lower case, and the first is as long as a term seldom is, or itself in lower case. A short name over a
    lower-case definition ("Exhaust" / "turn the card sideways") is still a term."""
    return lines[1][:1].islower() and (len(lines[0].split()) >= WRAPPED_WORDS or lines[0][:1].islower())


def body_text(drafting: Drafting, paragraph: Paragraph) -> bool:
    """Anything else: text of the draft in progress."""
    drafting.add_text(paragraph.source, paragraph.line)
    return True


PARAGRAPH_STEPS: tuple[tuple[str, Callable[[Drafting, Paragraph], bool]], ...] = (
    ("redirect", redirect),
    ("see", see),
    ("question", question),
    ("answer", answer),
    ("numbered rule", numbered_rule),
    ("lead-in", lead_in),
    ("glossary term", glossary_term),
    ("text", body_text),
)
"""What a paragraph can be, in the order tried: a step returns whether it took the paragraph."""


def _dash_lead_name(match: re.Match[str]) -> bool:
    """`Alliance — If you ...`: a short name without digits, then a new sentence."""
    name, rest = match.group("name").strip(), match.group("rest")
    return len(name.split()) <= 4 and not re.search(r"\d", name) and rest[:1].isupper()


def _is_lead_name(name: str) -> bool:
    """A lead-in's name: a few words, not `See`, `Note` or `Example`."""
    name = name.strip()
    lowered = name.lower()
    return bool(name) and len(name.split()) <= MAX_LEAD_WORDS and lowered != "see" and not lowered.startswith(("see ", "note", "example"))
