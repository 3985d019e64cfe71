"""The drafts of one import: entries gathered while a document is read, their references, and what they end as.

rulebot.corpus.importing recognises what each block of a document is and
records it here, in a Drafting: the headings above, the draft taking text,
the references each draft makes (`see rule 702.19`, `(see X)`, links to
headings, See also lines) and the redirects (`X - See Y.`). Once the whole
document is read, finish() gives each draft its id, resolves references to
see_also links and redirects to aliases, and makes the DraftEntry list
(rulebot.corpus.drafted, with what the import ends as: Imported).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebot.corpus import documents, glossary
from rulebot.corpus.documents import (
    DASHES,
    NUMBER,
    escape_text,
    expand_range,
    name_key,
    name_variants,
    nice_title,
    number_key,
    parent_number,
    plain,
    split_names,
    strip_number,
)
from rulebot.corpus.drafted import DraftEntry, Imported
from rulebot.corpus.format import DRAFT_NOTE, FENCES, LIST_SEPARATOR, one_line, unique_id
from rulebot.corpus.model import Corpus, Game
from rulebot.text import fold, links, relink, target_of

RULE_REF_RE = re.compile(
    rf"\brules?[ \t]+(?P<list>{NUMBER}\.?(?:\s*[{DASHES}-]\s*[a-z]\b)?"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){NUMBER}\.?(?:\s*[{DASHES}-]\s*[a-z]\b)?)*)",
    re.IGNORECASE,
)
SECTION_REF_RE = re.compile(r"\brules?[ \t]+(?P<number>\d{3})\b(?!\.\d)", re.IGNORECASE)
SEE_NUMBER_RE = re.compile(rf"\bsee\s+(?P<number>{NUMBER})", re.IGNORECASE)
RANGE_RE = re.compile(rf"(?P<number>{NUMBER})\.?(?:\s*[{DASHES}-]\s*(?P<last>[a-z])\b)?")
SEE_SENTENCE_RE = re.compile(r"(?:^|(?<=[.!?])\s+)See(?:\s+also)?\s+(?P<name>[A-Z“\"][^.;:()\n]{0,80}?)\s*\.(?=\s|$)")
"""`See Attack.` as a sentence of a paragraph (a paragraph that is only that is a redirect or See also)."""
PAREN_SEE_RE = re.compile(r"\(\s*see\s+(?P<name>[^()]{1,60}?)\s*\)", re.IGNORECASE)
MIN_TOPICS = 3
"""Fewer topics (`3 Action Phase` over 3.1...) make no reference by topics: no other topic, no names as terms."""
KIND_WORDS = (
    # Innermost section first: the first component naming one of these gives the kind.
    (("errata", "erratum", "corrections"), "errata"),
    (("faq", "faqs", "frequently asked", "questions"), "faq"),
    (("variant", "variants", "variante", "variantes"), "variant"),
    (("house rule", "house rules"), "house-rule"),
    (("setup", "set-up", "set up", "preparation", "mise en place"), "setup"),
    (("glossary", "glossaire", "index/glossary"), "term"),
    (("example", "examples", "exemple", "exemples"), "fine-point"),
)
KIND_PATTERNS = tuple((re.compile("|".join(rf"\b{re.escape(w)}\b" for w in words)), kind) for words, kind in KIND_WORDS)
"""A FAQ heading makes only its questions and lead-ins `faq` (its other text is rules); a glossary heading makes its items
`term`s (the definitions), not what lies deeper under them."""


# -- drafting ----------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A reference a draft makes to another entry."""

    kind: str
    """"name", "number" (a rule number) or "anchor" (a link to a heading)."""
    value: str
    """What is looked up: a name, a rule number as number_key() gives it, an anchor."""
    text: str
    """The reference as written, for the curator."""
    line: int
    """Its line in the document."""
    explicit: bool = False
    """A See also line: noted in the entry when it names nothing."""
    optional: bool = False
    """Not counted when it names nothing (a letter inside a range of rules)."""


@dataclass
class Heading:
    """A heading of the document."""

    level: int
    """As Block.level."""
    title: str
    """Its text, revision mark removed."""
    anchor: str
    """The anchor a link to it uses (github_anchor)."""
    number: str | None
    """Its rule or section number, if it has one."""
    first: Draft | None = None
    """The first draft under it, which a link or a reference to it names."""


@dataclass
class Draft:
    """An entry being drafted: DraftEntry's fields as gathered, and what it refers to."""

    title: str
    kind: str
    section: str
    line: int
    number: str | None = None
    """Its rule number, if it is a numbered rule."""
    level: int = 0
    """The level of the heading it is the entry of; 0 for a lead-in, question or rule."""
    body: list[str] = field(default_factory=list)
    """Its pieces of text, in document order."""
    lines: list[int] = field(default_factory=list)
    """The document line of each piece of `body`."""
    parent: Draft | None = None
    """The draft it is a part of (rulebot.corpus.shaping), linked both ways."""
    refs: list[Ref] = field(default_factory=list)
    see_lines: list[str] = field(default_factory=list)
    """The See also lines that are its only text, if any."""
    notes: list[str] = field(default_factory=list)
    """Notes for the curator, added to the text."""
    aliases: list[str] = field(default_factory=list)
    """Names redirecting to it."""
    joined: Draft | None = None
    """The draft of its family of rules it was joined into (rulebot.corpus.shaping), if it was."""
    held: list[tuple[str, str, str]] = field(default_factory=list)
    """As DraftEntry.held: not empty for a family of rules joined into one draft."""
    id: str = ""
    """Given by finish()."""
    open: bool = True
    """Still taking the paragraphs that follow (not after a heading closed it)."""

    def text(self) -> str:
        """Its text as its entry's, notes aside: its pieces, else its See also lines."""
        return "\n\n".join(self.body).strip() or "\n".join(self.see_lines).strip()


class Drafting:
    """What reading one document has gathered so far, and the ways to add to it."""

    def __init__(self, game: Game, markdown: bool, corpus: Corpus | None, acronyms: frozenset[str] = frozenset()):
        self.game = game
        self.markdown = markdown
        self.corpus = corpus
        self.acronyms = acronyms
        """Words the document writes in capitals in running text (ATK, SCH): kept so in titles."""
        self.drafts: list[Draft] = []
        """Every draft, in document order (those left without text are dropped by finish())."""
        self.headings: list[Heading] = []
        """The headings the text now read is under, outermost first."""
        self.all_headings: list[Heading] = []
        """Every heading, in document order."""
        self.pending: Draft | None = None
        """The draft of the last heading, made an entry when text follows it."""
        self.current: Draft | None = None
        """The draft taking the text now read."""
        self.title_heading: Heading | None = None
        """The document's title."""
        self.topics: dict[int, str] = {}
        """The document's topics (`3 Action Phase`, rulebot.corpus.importing.find_topics): their numbers by line."""
        self.topic: str | None = None
        """The number of the last topic read."""
        self.number_names: dict[str, str] = {}
        """The name of each titled rule or section number (`702.19. Trample`)."""
        self.numbers: dict[str, Draft] = {}
        """The draft a rule number refers to: the rule's own, else the first of its sub-rules."""
        self.redirects: list[tuple[str, list[Ref], int, str]] = []
        """(alias, references to what it redirects to, line, as written)."""
        self.question_count: dict[str, int] = {}
        """Questions so far in each section, which number them."""

    # -- entries ---------------------------------------------------------

    def close(self) -> None:
        """A heading ends the entry in progress."""
        if self.current is not None:
            self.current.open = False
        self.current = None
        self.pending = None

    def start(self, draft: Draft, marked: bool) -> None:
        """A draft the document starts (a question, a lead-in, a rule), `marked` new or revised."""
        self.pending = None
        if marked:
            draft.notes.append("the document marks this entry as new or revised")
        self.commit(draft)

    def commit(self, draft: Draft) -> None:
        """A draft becomes an entry, taking the text that follows."""
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
                number = parent_number(number)

    def add_text(self, source: str, line: int) -> None:
        """Text for the draft in progress (the pending heading's, else a new one), its references scanned."""
        if not source.strip():
            return
        if self.current is None or not self.current.open:
            if self.pending is not None:
                draft, self.pending = self.pending, None
            else:
                title = self.title_heading.title if self.title_heading and not self.headings else "Introduction"
                draft = Draft(self.title(title), self.kind(), self.section() or title, line)
            self.commit(draft)
        assert self.current is not None
        if not self.markdown:
            source = "\n".join(escape_text(text_line) for text_line in source.split("\n"))
        self.current.body.append(source.strip("\n"))
        self.current.lines.append(line)
        self.scan(self.current, source, line)

    def see_also(self, names: str, source: str, line: int, topic: bool = False) -> None:
        """A See also line's references, for the draft in progress (else the last one); with `topic` (a `Related
        topics:` line), once the rules of the last topic read are, for that topic's draft."""
        target = self.current if self.current is not None else (self.pending or (self.drafts[-1] if self.drafts else None))
        if topic and self.topic and any(number.startswith(self.topic + ".") for number in self.numbers):
            target = self.numbers[self.topic]  # after the rules of a topic (`3 Action Phase`, 3.1...): the topic's
        if target is None:
            return
        if target is self.pending:
            # A heading with nothing but a See also line: an entry all the same, that line its text.
            target.see_lines.append(source)
            self.commit(target)
            self.pending = None
        target.refs.extend(self.refs(names, source, line))

    def redirect(self, alias: str, target: str, source: str, line: int, written: str) -> None:
        """`alias` names what `target` names (`X - See Y.`): an alias of that entry, once it is known."""
        self.redirects.append((alias, self.refs(target, source, line), line, written))

    def numbered_title(self, number: str, rest: str | None) -> str:
        """The title of a numbered rule: its number and its own name, else the name of the rule or heading above."""
        shown = documents.shown_number(number)
        if rest and rest.strip().rstrip("."):
            return f"{shown} {self.title(rest.strip().rstrip('.'))}"
        parent = parent_number(number)
        while parent:
            if parent in self.number_names:
                # A topic's rule under an unnumbered heading after the topic's (`1 Abilities`, `Costs`, 1.10): its name.
                inner = next((h for h in reversed(self.all_headings) if h.number or h is not self.title_heading), None)
                if parent == self.topic and inner and inner.number is None:
                    return f"{shown} {self.title(inner.title)}"
                return f"{shown} {self.number_names[parent]}"
            parent = parent_number(parent)
        if self.headings:
            return f"{shown} {self.title(strip_number(self.headings[-1].title))}"
        return shown

    def title(self, text: str) -> str:
        """A heading or name as a title: one in capitals in title case, the document's acronyms kept."""
        return nice_title(text, self.acronyms)

    def kind(self, default: str = "rule", item: bool = False) -> str:
        """The kind the innermost heading naming one gives (KIND_WORDS), else `default`.

        `item`: the draft is a paragraph's (a lead-in, a glossary line), not the
        innermost heading's: an item right under a glossary heading is a term,
        as is a heading right under it.
        """
        for depth, heading in enumerate(reversed(self.headings)):
            folded = fold(heading.title)
            for pattern, kind in KIND_PATTERNS:
                if not pattern.search(folded):
                    continue
                if kind == "faq":
                    if item:
                        return kind  # `**Card** — ruling` under a FAQ heading: one of its answers
                    break  # the heading's own text is rules; questions say they are FAQ (importing.question)
                if kind == "term":
                    return "term" if depth == (0 if item else 1) else ("rule" if default == "term" else default)
                return kind
        return default

    def section(self, last: str | None = None) -> str:
        """The headings above, joined by ` > `, and `last` after them."""
        parts = [_clean_section(h.title, self.acronyms) for h in self.headings]
        if last:
            parts.append(_clean_section(last, self.acronyms))
        return " > ".join(p for p in parts if p)

    def plain(self, source: str) -> str:
        """Text as plain text: Markdown's markup removed (plain text has none)."""
        return plain(source) if self.markdown else source

    # -- references ------------------------------------------------------

    def refs(self, names: str, source: str, line: int) -> list[Ref]:
        """The references of a See or See also line: its links to headings, else the names it lists."""
        links = heading_links(source) if self.markdown else []
        if links:
            return [Ref("anchor", anchor, name, line, explicit=True) for name, anchor in links]
        found = []
        for name in split_names(self.plain(names)):
            numbered = re.match(r"^rules?\s+(\d+(?:\.\d+)*[a-z]?)", name, re.IGNORECASE)
            if numbered:
                found.append(Ref("number", number_key(numbered.group(1)), name, line, explicit=True))
            else:
                found.append(Ref("name", name, name, line, explicit=True))
        return found

    def scan(self, draft: Draft, source: str, line: int) -> None:
        """The inline references of a piece of text: rule numbers, (see X), links to headings."""
        text = self.plain(source)
        for match in RULE_REF_RE.finditer(text):
            for item in RANGE_RE.finditer(match.group("list")):
                numbers = expand_range(item.group("number"), item.group("last"))
                for number in numbers:
                    # Inside a range (603.7d–f), a letter the rules skip is no missing reference.
                    inside = number not in (numbers[0], numbers[-1])
                    draft.refs.append(Ref("number", number, f"rule {number}", line, optional=inside))
        for match in SECTION_REF_RE.finditer(text):
            draft.refs.append(Ref("number", match.group("number"), f"rule {match.group('number')}", line))
        for match in SEE_NUMBER_RE.finditer(text):
            draft.refs.append(Ref("number", number_key(match.group("number")), f"see {match.group('number')}", line))
        # The words of a link to a heading: a "See X" of them is that link, resolved by its anchor below.
        linked = [fold(words) for words, _anchor in heading_links(source)] if self.markdown else []
        for match in SEE_SENTENCE_RE.finditer(text) if "See " in text else ():
            name = match.group("name").strip()
            if _says_link(name, linked):
                continue
            if not re.match(r"^(?:rules?|page|pages|section|p\.|below|above|appendix)\b|^\d", name, re.IGNORECASE):
                for part in split_names(name):
                    draft.refs.append(Ref("name", part, f"See {name}.", line))
        for match in PAREN_SEE_RE.finditer(text):
            name = re.sub(r"^also\s+", "", match.group("name").strip(), flags=re.IGNORECASE)
            if _says_link(name, linked):
                continue
            if not re.match(r"^(?:rules?|page|pages|section|p\.|below|above)\b|^\d", name, re.IGNORECASE):
                for part in split_names(name):
                    draft.refs.append(Ref("name", part, f"(see {name})", line))
        if self.markdown:
            for _words, anchor in heading_links(source):
                draft.refs.append(Ref("anchor", anchor, anchor, line))

    # -- resolving and writing -------------------------------------------

    def finish(self, result: Imported) -> None:
        """Give each draft with text an id, resolve the references and redirects, and add the DraftEntry list to `result`."""
        # A rule joined into its family's draft is found as that draft, by its number or its heading's anchor.
        self.numbers = {number: final(draft) for number, draft in self.numbers.items()}
        for heading in self.all_headings:
            if heading.first is not None:
                heading.first = final(heading.first)
        drafts = [d for d in self.drafts if d.body or d.see_lines]
        kept = set(map(id, drafts))
        taken = set(self.corpus.entries) if self.corpus else set()
        for draft in drafts:
            draft.id = unique_id(self.game.id_prefix, draft.title, taken)
            taken.add(draft.id)
        names = self.name_table(drafts)
        anchors: dict[str, Draft] = {}
        for heading in self.all_headings:
            if heading.first is not None and id(heading.first) in kept:
                anchors.setdefault(heading.anchor, heading.first)
        claimed = set(names)
        for alias, refs, line, written in self.redirects:
            target = next((t for t in (self.resolve(r, names, anchors, kept) for r in refs) if t is not None), None)
            key = name_key(alias)
            if target is None:
                result.redirects_unresolved.append((line, written))
                continue
            if key in claimed or LIST_SEPARATOR in alias:
                continue  # already a title or alias: nothing to add
            if isinstance(target, str):
                result.redirects_unresolved.append((line, f"{written} (the existing entry {target}: add the alias there)"))
                continue
            claimed.add(key)
            target = defining(target, alias, drafts)
            target.aliases.append(alias)
            result.aliases += 1
        parts: dict[int, list[str]] = {}
        for draft in drafts:
            if draft.parent is not None:
                parts.setdefault(id(draft.parent), []).append(draft.id)
        for draft in drafts:
            # A part links to the entry it is part of, and an entry to its parts, first.
            links: list[str] = [draft.parent.id] if draft.parent is not None else list(parts.get(id(draft), []))
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
            text = self.relinked(draft.text(), names, anchors, kept)
            if draft.notes:
                text += "\n\n" + "\n".join(f"{DRAFT_NOTE} {note}." for note in dict.fromkeys(draft.notes))
            result.entries.append(
                DraftEntry(
                    id=draft.id,
                    title=one_line(draft.title),
                    kind=draft.kind,
                    section=one_line(draft.section or draft.title),
                    text=_safe_text(text),
                    line=draft.line,
                    aliases=tuple(one_line(a) for a in draft.aliases),
                    see_also=tuple(links),
                    held=tuple((one_line(section), one_line(title), _safe_text(own)) for section, title, own in draft.held),
                )
            )

        others: list[str] = []
        if self.corpus is not None:
            for slug, game in self.corpus.games.items():
                if slug != self.game.slug:
                    others.extend(f"{e.title}\n{e.text}" for e in self.corpus.entries_of(slug))
                    others.extend(game.terms)
        topics = [strip_number(h.title) for h in self.all_headings if h.number in self.topics.values()] if len(self.topics) >= MIN_TOPICS else []
        result.vocabulary = glossary.propose(((e.title, e.kind, e.text, e.aliases) for e in result.entries), others, topics)

    def relinked(self, text: str, names: dict[str, Draft | str], anchors: dict[str, Draft], kept: set[int]) -> str:
        """A draft's text with its links to the document's headings made links to the entries drafted from them
        (`[Defense](#toy-defense)`: the site links entries by id), and a link to nothing drafted left as its words."""
        if not self.markdown:
            return text

        def entry_link(link: re.Match[str]) -> str:
            words, anchor = link.group("words"), target_of(link)
            if not anchor.startswith("#"):
                return link.group()  # (a link out of the document)
            found = self.resolve(Ref("anchor", anchor, words, 0), names, anchors, kept)
            target = found if isinstance(found, str) or found is None else found.id
            return f"[{words}](#{target})" if target else words

        return relink(text, entry_link)

    def resolve(self, ref: Ref, names: dict[str, Draft | str], anchors: dict[str, Draft], kept: set[int]) -> Draft | str | None:
        """The draft (or existing entry id) a reference names, or None."""
        if ref.kind == "number":
            found = self.numbers.get(ref.value)
            return found if found is not None and id(found) in kept else None
        if ref.kind == "anchor":
            return anchors.get(ref.value.lower()) or self.by_name(names, ref.text)
        return self.by_name(names, ref.value)

    def name_table(self, drafts: list[Draft]) -> dict[str, Draft | str]:
        """Names a reference may use: drafted titles, headings, then the game's existing entries."""
        table: dict[str, Draft | str] = {}
        for draft in drafts:
            table.setdefault(name_key(draft.title), draft)
        kept = set(map(id, drafts))
        named = [(d.title, d) for d in drafts] + [(h.title, h.first) for h in self.all_headings if h.first is not None and id(h.first) in kept]
        for title, target in named:
            for variant in name_variants(title):
                table.setdefault(name_key(variant), target)
        if self.corpus is not None:
            for entry in self.corpus.entries_of(self.game.slug):
                for name in entry.names():
                    table.setdefault(name_key(name), entry.id)
        return table

    def by_name(self, names: dict[str, Draft | str], name: str) -> Draft | str | None:
        """What a name names, also in the singular or plural, or without `the`."""
        key = name_key(name)
        for candidate in (key, key.removesuffix("s"), key.removesuffix("es"), key + "s", re.sub(r"^the ", "", key)):
            if candidate and candidate in names:
                return names[candidate]
        return None


def heading_links(source: str) -> list[tuple[str, str]]:
    """The links of a Markdown text to headings of its document, `[Defense](#defense)`: (words, anchor), code aside."""
    return [(link.group("words"), target) for link in links(source) if (target := target_of(link)).startswith("#")]


def _says_link(name: str, linked: list[str]) -> bool:
    """Whether a name a "See" reference gives opens with the words of a link (folded): "See [Defense](#defense) for
    blocking" names Defense by its link, not a "Defense for blocking"; "(see Movement Points)" is no link "move"."""
    folded = fold(name)
    return any(words and (folded == words or folded.startswith(words + " ")) for words in linked)


def final(draft: Draft) -> Draft:
    """The draft a draft ended in: the one it was joined into, else itself."""
    while draft.joined is not None:
        draft = draft.joined
    return draft


def _clean_section(text: str, acronyms: frozenset[str] = frozenset()) -> str:
    """A heading as a component of a section: title case, no `>` (the separator), no closing `:` or `.`."""
    return nice_title(text.replace(">", "›"), acronyms).rstrip(":.").strip()


def _safe_text(text: str) -> str:
    """Entry text that cannot start a new entry: a line beginning `## ` outside a fence is escaped."""
    out = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith(FENCES):
            marker = stripped[:3]
            fence = marker if fence is None else (None if marker == fence else fence)
        if fence is None and line.startswith("## "):
            line = "\\" + line
        out.append(line)
    return "\n".join(out)


def defining(target: Draft, alias: str, drafts: list[Draft]) -> Draft:
    """The draft that defines `alias` among `target` and what lies under it (its parts, its sub-headings'
    entries): `target` when it does or none does."""
    family = [target] + [
        d for d in drafts if d is not target and (d.parent is target or (target.section and d.section.startswith(target.section + " > ")))
    ]
    name = re.escape(re.sub(r"\s*\([^)]*\)", "", alias).strip())
    if not name:
        return target
    defines = re.compile(
        rf"(?im)^\s*(?:[-*+]\s+)?(?:\*\*|__)?{name}(?:\*\*|__)?\s*(?:\([^)]*\)\s*)?(?::|\s[—–-]\s)|(?:\*\*|__){name}(?:\*\*|__)"
    )
    for draft in family:
        if any(defines.search(piece) for piece in draft.body):
            return draft
    return target
