"""Shaping drafts for answers: one entry per rule a player asks about, each with a title of its own.

The drafts of a document, once read (rulebot.corpus.drafts), are reshaped
before they get their ids:

- a numbered rule and its sub-rules (`702.11a`-`702.11h`, `7.5.5.A`-`7.5.5.F`)
  are one entry when together they are short enough to be one answer: a
  player asking about hexproof gets the hexproof rule, not the one of its
  eight points that shares most words with the question. Each sub-rule keeps
  its number in bold at its start; deeper rules join first, so a rule whose
  sub-rules are joined may in turn join its siblings;
- a draft too long to be one answer is cut at its list items, else its
  paragraphs, into parts of a readable size: the first part stays the entry
  (its title, aliases and links), each other part is an entry of its own,
  titled by the entry's title and its own lead (`Stress: A stressed ship…`),
  citing the entry's section with the bullet or paragraph, and linked both
  ways with the entry;
- titles that repeat in a game are told apart by the section they are in
  (`Setup (Huge Ships)`); a glossary's definition keeps the plain title;
- (in rulebot.corpus.drafts, when redirects are resolved) a name that
  redirects to an entry (`Koiogran Turn` - see Bearing) goes to the part or
  sub-entry that defines it, where there is one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from typing import NamedTuple

from rulebot.corpus.documents import number_key, parent_number, shown_number
from rulebot.corpus.drafts import Draft
from rulebot.text import fold

MAX_ENTRY_WORDS = 250
"""A draft of more words is cut into parts; shorter ones stay whole."""
JOIN_WORDS = MAX_ENTRY_WORDS
"""A family of numbered rules of at most this many words is joined into one draft: one answer's size."""
PART_WORDS = 150
"""The size parts are filled to (a part is never cut inside a list item or paragraph)."""
LABEL_WORDS = 7
"""Words of a part's first sentence that make its title when it has no lead of its own."""
ITEM_RE = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s+")
LEAD_RE = re.compile(r"^(?:[-*+]|\d{1,3}[.)])?\s*(?:\*\*|__)?(?P<lead>[^:*_\n]{1,50}?)(?:\*\*|__)?\s*(?::|\s[—–]\s)")
BOLD_LEAD_RE = re.compile(r"^(?:\*\*|__)[^*_\n]{1,50}?(?:\*\*|__)\s*(?::|[—–]\s)")
"""A paragraph led by a bold name and a colon or a dash (`**Heroic Mode** — …`): the start of a rule of its own."""
EXAMPLE_RE = re.compile(r"^(?:\*\*|__|\*|_)?(?:for |par )?(?P<word>examples?|exemples?)\b", re.IGNORECASE)
"""A paragraph, or a line of one, that gives an example (`Example: …`, `**Exemple :**`, `For example, …`): what
it shows is the rule before it, and a long draft's examples are parts of their own (`_parts`)."""
BLOCK_START_RE = re.compile(r"^(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|>|#{1,6}(?:\s|$)|\||```|~~~|(?:[-*_]\s*){3,}$)")
"""What starts a Markdown block other than a paragraph: a list item, quote, heading, table row, fence, thematic break."""
MARKUP_RE = re.compile(r"\*\*|__|\[([^\]]*)\]\([^)]*\)|[`*_]")


def words(text: str) -> int:
    return len(text.split())


def shape(drafts: list[Draft], names: dict[str, str] | None = None) -> list[Draft]:
    """The drafts with text, short rule families joined (`names`: the name of each titled rule number), long ones
    cut into parts, titles told apart."""
    shaped = split_long(join_short_rules([d for d in drafts if d.body or d.see_lines], names or {}))
    distinct_titles(shaped)
    return shaped


# -- short numbered rules joined ---------------------------------------------------


def join_short_rules(drafts: list[Draft], names: dict[str, str]) -> list[Draft]:
    """The drafts with each short family of numbered rules joined into one draft (each member's `joined`), titled
    by its head rule's number and name (`names`: the name of each titled rule or heading; else the nearest named
    rule's above it)."""
    depths = [_depth(d.number) for d in drafts if d.number]
    for depth in range(max(depths, default=0), 0, -1):
        under = Counter(above for d in drafts for above in _above(d.number))
        joined: list[Draft] = []
        at = 0
        while at < len(drafts):
            head, family = _family(drafts, at, depth, under)
            name = next((names[n] for n in (head, *_above(head)) if n in names), "") if head else ""
            body, lines = _family_text(head, name, family, names) if head else ([], [])
            if head and sum(words(piece) for piece in body) <= JOIN_WORDS:
                joined.append(_joined(head, name, family, body, lines))
                at += len(family)
            else:
                joined.append(drafts[at])
                at += 1
        drafts = joined
    return drafts


def _above(number: str | None) -> list[str]:
    """The rules a rule number is under, innermost first: 702.11a → 702.11, 702."""
    above = []
    while number and (number := parent_number(number)):
        above.append(number)
    return above


def _depth(number: str) -> int:
    """How many rules a rule number is under: 702 → 0, 702.11 → 1, 702.11a → 2."""
    return len(_above(number))


def _family(drafts: list[Draft], at: int, depth: int, under: Counter[str]) -> tuple[str | None, list[Draft]]:
    """The family of rules starting at `at`, and its head's number: the rule numbered P (when it has text of
    its own) and every rule under P (`under` counts them), all right under it at `depth`, in a row, of one
    kind. (None, [drafts[at]]) when there is none."""
    first = drafts[at]
    alone: tuple[str | None, list[Draft]] = (None, [first])
    if not first.number or first.parent is not None or _depth(first.number) not in (depth - 1, depth):
        return alone
    head = first.number if _depth(first.number) == depth - 1 else parent_number(first.number)
    assert head is not None
    if head != first.number and at and drafts[at - 1].number == head:
        return alone  # the head rule's own text, too long with them, is not left out of its family
    end = at + 1
    while end < len(drafts) and drafts[end].parent is None and parent_number(drafts[end].number or "") == head:
        end += 1
    family = drafts[at:end]
    members = len(family) - (first.number == head)
    if len(family) < 2 or members != under[head] or len({d.kind for d in family}) > 1:
        return alone
    return head, family


def _family_text(head: str, name: str, family: list[Draft], names: dict[str, str]) -> tuple[list[str], list[int]]:
    """A family's text pieces and their lines: each rule's text (or its See also lines) after its number in bold,
    and its own name (`names`) when it has one other than the family's `name`; on a paragraph of its own before
    text it would break, and before a family joined before (whose text starts with its first rule's number)."""
    body: list[str] = []
    lines: list[int] = []
    for draft in family:
        pieces = list(draft.body) or list(draft.see_lines)
        piece_lines = _lines_of(draft) if draft.body else [draft.line] * len(pieces)
        if draft.number != head:
            own = names.get(draft.number or "", "")
            label = shown_number(draft.number or "") + (f" {own}" if own and fold(own) != fold(name) else "")
            if pieces:  # a rule written as a paragraph starting with its number (`3.1 During ...`): numbered once
                number = re.escape(shown_number(draft.number or ""))
                # `3.1 text`, `**3.1** text`, `**3.1 Name:** text` (the name kept in bold)
                bare = re.sub(rf"^\s*(?:(\*\*|__){number}\.?\1\s+|{number}\.?\s+|(\*\*|__){number}\.?\s+)(?=\S)", r"\2", pieces[0], count=1, flags=re.IGNORECASE)
                pieces[0] = pieces[0] if BLOCK_START_RE.match(bare) else bare  # (`3.2 - text` would become a list)
            # (a family joined before whose text starts with its first rule's number: "**4.2** **4.2a** ..." would
            # read as one label; one that starts with its head's own text takes the number as any rule does)
            if (draft.held and NUMBERED_START_RE.match(pieces[0])) or not pieces or not _plain_paragraph(pieces[0]):
                pieces, piece_lines = [f"**{label}**", *pieces], [draft.line, *piece_lines]
            else:
                pieces[0] = f"**{label}** {pieces[0]}"
        body.extend(pieces)
        lines.extend(piece_lines)
    return body, lines


NUMBERED_START_RE = re.compile(r"^\s*(?:\*\*|__)\S*\d")
"""A text that starts with a rule's number in bold, as a joined family's does when its head has no text."""


def _plain_paragraph(piece: str) -> bool:
    """Whether a piece of text is a paragraph a bold number may start: not a list, table, quote, fence, heading,
    thematic break, HTML or indented code, which the number would break."""
    first, _, rest = piece.partition("\n")
    if re.match(r"^(?: {4}|\t|\s*(?:[-*+>|#<_=]|\d{1,9}[.)](?:\s|$)|```|~~~))", first):
        return False
    # A table whose rows do not start with `|`: its second line is the row of dashes under the header.
    return not re.match(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$", rest.partition("\n")[0])


def _joined(head: str, name: str, family: list[Draft], body: list[str], lines: list[int]) -> Draft:
    """One draft of a family of rules and its text: the head rule's title (else its number and `name`) and section,
    every rule's references, notes and aliases."""
    first = family[0]
    own = first.number == head
    joined = replace(
        first,
        title=first.title if own else f"{shown_number(head)} {name}".strip(),
        # Each rule as a draft of its own, as the importer wrote it before rules were joined.
        held=[one for d in family if d.number != head for one in (d.held or [(d.section or d.title, d.title, d.text())])],
        section=first.section if own else _head_section(first.section, head),
        number=head,
        body=body,
        lines=lines,
        refs=[ref for d in family for ref in d.refs],
        see_lines=[],
        notes=list(dict.fromkeys(note for d in family for note in d.notes)),
        aliases=list(dict.fromkeys(alias for d in family for alias in d.aliases)),
    )
    for draft in family:
        draft.joined = joined
    return joined


def _head_section(section: str, head: str) -> str:
    """A sub-rule's section as its head rule's: `702. Keyword Abilities > 702.11a` → `… > 702.11`, and
    `7.5.5. Ambush > 7.5.5.A` → `7.5.5. Ambush`."""
    components = section.split(" > ")[:-1]
    if components and number_key(components[-1].split()[0]) == head:
        return " > ".join(components)
    return " > ".join([*components, shown_number(head)])


# -- parts of long drafts --------------------------------------------------------


def split_long(drafts: list[Draft]) -> list[Draft]:
    """The drafts with each one over MAX_ENTRY_WORDS followed by its parts (the draft keeps the first)."""
    shaped: list[Draft] = []
    for draft in drafts:
        shaped.append(draft)
        if sum(words(piece) for piece in draft.body) > MAX_ENTRY_WORDS:
            shaped.extend(_parts(draft))
    return shaped


class _Unit(NamedTuple):
    """A piece of a draft's text that a part never cuts: a list item, a paragraph, an example, a sentence of one too
    long for an answer."""

    text: str
    what: str
    """"item" or "paragraph"."""
    number: int
    """Its item's or paragraph's number in the draft."""
    line: int
    """Its document line."""
    example: bool = False
    """Whether it gives an example (EXAMPLE_RE), or is a sentence of one."""


def _units(draft: Draft) -> list[_Unit]:
    """The draft's text as units (_Unit): lists cut at their top-level items (an item keeps the lines indented under
    it), a paragraph's examples apart, a unit too long for an answer cut between its sentences."""
    units: list[_Unit] = []
    items = paragraphs = 0
    for piece, line in zip(draft.body, _lines_of(draft), strict=True):
        rows = piece.split("\n")
        if not ITEM_RE.match(rows[0]):
            paragraphs += 1
            # A paragraph's examples, each on a line of its own, are units apart (of the same paragraph); a unit
            # too long for one answer is cut between its sentences.
            for run in _example_runs(rows):
                sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z(“\"])", run) if words(run) > MAX_ENTRY_WORDS else [run]
                example = EXAMPLE_RE.match(run) is not None
                units.extend(_Unit(sentence, "paragraph", paragraphs, line, example) for sentence in sentences)
            continue
        current: list[str] = []
        start = 0
        for offset, row in enumerate(rows):
            if ITEM_RE.match(row) and current:
                items += 1
                units.append(_Unit("\n".join(current), "item", items, line + start))
                current, start = [], offset
            current.append(row)
        if current:
            items += 1
            units.append(_Unit("\n".join(current), "item", items, line + start))
    return units


def _example_runs(rows: list[str]) -> list[str]:
    """A paragraph's lines, joined again into runs that each start at a line giving an example (EXAMPLE_RE)."""
    runs: list[list[str]] = []
    for row in rows:
        if not runs or EXAMPLE_RE.match(row):
            runs.append([])
        runs[-1].append(row)
    return ["\n".join(run) for run in runs]


def _parts(draft: Draft) -> list[Draft]:
    """Cut a long draft: its body becomes the first chunk, and the other chunks are returned as new drafts.

    A chunk is filled to PART_WORDS, and also ends before a paragraph led by a bold name (`**Heroic Mode** — …`) once
    it holds a third of that: such a paragraph starts a rule of its own, whose items follow it. Neither it nor a
    paragraph introducing a list (`… are:`) ends a chunk: what they introduce stays with them. A rule's examples
    (EXAMPLE_RE) are chunks of their own, between the rules they follow and the next: the rule answers, the examples
    show it. They are cut between examples only, but for one too long for an answer alone."""
    chunks: list[list[_Unit]] = []
    current: list[_Unit] = []
    for unit in _units(draft):
        size = sum(words(u.text) for u in current)
        led = _led(unit)
        # (a lead followed by another lead introduced nothing: a run of them is cut as any paragraphs are)
        introduces = bool(current) and (current[-1].text.rstrip().endswith(":") or (_led(current[-1]) and not led))
        # (the examples of a rule, or a rule after examples: what a chunk holds changes)
        turns = bool(current) and unit.example != current[-1].example
        if current and not introduces and (size + words(unit.text) > PART_WORDS or (led and size >= PART_WORDS // 3) or turns):
            chunks.append(current)
            current = []
        current.append(unit)
    if current:
        if chunks and sum(words(u.text) for u in current) < PART_WORDS // 4 and chunks[-1][-1].example == current[0].example:
            chunks[-1].extend(current)  # a short tail joins the part before it (examples or rules, as it is)
        else:
            chunks.append(current)
    if len(chunks) < 2:
        return []
    first, rest = chunks[0], chunks[1:]
    draft.body, draft.lines = _pieces(first)
    parts = []
    for chunk in rest:
        examples = chunk[0].example
        kind = "fine-point" if examples else "rule" if draft.kind == "term" else draft.kind
        joiner = " — " if draft.title.endswith("?") else ": "
        part = replace(
            draft,
            title=f"{draft.title}{joiner}{_examples_label(chunk) if examples else _label(chunk[0].text)}",
            kind=kind,
            section=f"{draft.section or draft.title}, {_where(chunk)}",
            line=chunk[0].line,
            number=None,
            level=0,
            body=_pieces(chunk)[0],
            lines=_pieces(chunk)[1],
            refs=[],
            see_lines=[],
            notes=[],
            aliases=[],
            parent=draft,
        )
        parts.append(part)
    return parts


def _led(unit: _Unit) -> bool:
    """Whether a unit of a draft's text is a paragraph led by a bold name (BOLD_LEAD_RE)."""
    return unit.what == "paragraph" and BOLD_LEAD_RE.match(unit.text) is not None


def _lines_of(draft: Draft) -> list[int]:
    """The document line of each piece of a draft's body (its own line for each, when they are not known)."""
    return draft.lines if len(draft.lines) == len(draft.body) else [draft.line] * len(draft.body)


def _pieces(chunk: list[_Unit]) -> tuple[list[str], list[int]]:
    """A chunk's text pieces and their lines: the sentences of one paragraph joined again."""
    pieces: list[str] = []
    lines: list[int] = []
    previous: tuple[str, int] | None = None
    for unit in chunk:
        if unit.what == "paragraph" and previous == (unit.what, unit.number):
            # (an example on a line of its own in its paragraph, as the document has it)
            pieces[-1] += ("\n" if EXAMPLE_RE.match(unit.text) else " ") + unit.text
        else:
            pieces.append(unit.text)
            lines.append(unit.line)
        previous = (unit.what, unit.number)
    return pieces, lines


def _where(chunk: list[_Unit]) -> str:
    """`bullet 3`, `bullets 3-5`, `paragraph 2` ...: where in its section a part is (by its first kind of unit)."""
    what = chunk[0].what
    numbers = list(dict.fromkeys(u.number for u in chunk if u.what == what))
    if len(numbers) == 1:
        return f"{'bullet' if what == 'item' else 'paragraph'} {numbers[0]}"
    return f"{'bullets' if what == 'item' else 'paragraphs'} {numbers[0]}-{numbers[-1]}"


def _examples_label(chunk: list[_Unit]) -> str:
    """A chunk of examples' own name: `Example — ` (or `Examples — `, in the document's word: `Exemple — `) and the
    start of the first, past its lead and number (`Example — Vesuvan Doppelganger reads, …`): the cards or pieces
    it shows tell the parts of one rule apart."""
    lead = EXAMPLE_RE.match(chunk[0].text)
    word = lead["word"].capitalize().rstrip("sS") if lead else "Example"
    if sum(1 for unit in chunk if EXAMPLE_RE.match(unit.text)) > 1:
        word += "s"
    rest = chunk[0].text[lead.end():] if lead else chunk[0].text
    shown = _label(re.sub(r"^[\W_]+", "", re.sub(r"^\s*#?\d+[a-z]?\b", "", rest)))
    return f"{word} — {shown}" if shown else word


def _label(text: str) -> str:
    """A part's own name: the lead of its first item (`Flanking:`), else the start of its first sentence."""
    first = text.strip().split("\n")[0]
    lead = LEAD_RE.match(first)
    if lead and 0 < words(lead.group("lead")) <= 6:
        return MARKUP_RE.sub(lambda m: m.group(1) or "", lead.group("lead")).strip()
    plain = " ".join(MARKUP_RE.sub(lambda m: m.group(1) or "", ITEM_RE.sub("", first)).split())
    sentence = re.split(r"(?<=[.!?])\s", plain, maxsplit=1)[0].rstrip(".:;,")
    kept = sentence.split()
    return " ".join(kept[:LABEL_WORDS]) + ("…" if len(kept) > LABEL_WORDS else "")


# -- titles ----------------------------------------------------------------------


def distinct_titles(drafts: list[Draft]) -> None:
    """Titles used by several drafts, qualified by the section each is in: `Setup (Huge Ships)`.

    A glossary's definition (kind `term`), when it is the only one, keeps the plain title.
    """
    by_title: dict[str, list[Draft]] = defaultdict(list)
    for draft in drafts:
        by_title[fold(draft.title)].append(draft)
    for same in by_title.values():
        if len(same) < 2:
            continue
        terms = [d for d in same if d.kind == "term"]
        keep = terms[0] if len(terms) == 1 else None
        for draft in same:
            if draft is keep:
                continue
            where = _qualifier(draft)
            if where:
                draft.title = f"{draft.title} ({where})"


def _qualifier(draft: Draft) -> str:
    """The innermost component of a draft's section that is not its own title."""
    own = fold(draft.title)
    for component in reversed([c.strip() for c in draft.section.split(" > ")]):
        component = component.split(",")[0].strip()
        if component and fold(component) != own:
            return component
    return ""
