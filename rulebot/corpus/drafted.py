"""What an import drafted: the drafts (DraftEntry) and the import's account of them (Imported); each draft's
anchor (its place in the document, by which an import of the document again finds its entry) and the
fingerprint of its text (its `drafted:` key, which tells whether a curator has edited the draft since)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from rulebot.corpus import glossary
from rulebot.corpus.format import LIST_SEPARATOR, format_entry, one_line
from rulebot.text import fold, plural

QUESTION_NUMBER_RE = re.compile(r"(?:^|,\s*)question \d+$")
"""How the importer numbers a question in its section (`FAQ, question 3`): a place that moves when a question
is added above it, left out of the anchor, which the question itself (the title) makes precise."""


def anchor(section: str, title: str) -> str:
    """A draft's anchor: its section, and its title when the section does not end with it already (without `;`,
    which separates the anchors of an entry merged from several drafts, nor a question's number)."""
    section, title = one_line(section).replace(LIST_SEPARATOR, ","), one_line(title).replace(LIST_SEPARATOR, ",")
    if title:
        section = QUESTION_NUMBER_RE.sub("", section)
    if not section:
        return title
    last = section.rsplit(" > ", 1)[-1]
    return section if not title or fold(last) == fold(title) else f"{section} > {title}"


def anchors_of(drafts: list[DraftEntry]) -> dict[DraftEntry, str]:
    """Each draft's anchor (see anchor); the same heading twice in one section told apart by its order there:
    the second's anchor ends with ` (2)`, and so on."""
    seen: dict[str, int] = {}
    found = {}
    for draft in drafts:
        name = anchor(draft.section, draft.title)
        seen[fold(name)] = count = seen.get(fold(name), 0) + 1
        found[draft] = name if count == 1 else f"{name} ({count})"
    return found


def compared_text(text: str) -> str:
    """A text as compared: its lines without their trailing spaces, the blank lines around it left out."""
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def drafted_fingerprint(text: str) -> str:
    """A short hash of a draft's text as compared (compared_text): its `drafted:` key, which tells an import
    whether a curator has edited the draft since."""
    return hashlib.sha256(compared_text(text).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class DraftEntry:
    """One drafted entry, ready to be written in the entries-file format."""

    id: str
    """Its id: the game's id_prefix and a slug of its title, unique."""
    title: str
    """The heading, lead-in, question or rule number (with its rule's name)."""
    kind: str
    """Guessed from the section (errata, FAQ, setup, glossary) and the form."""
    section: str
    """Where it sits in the document: headings joined by ` > `, then a name, number or question."""
    text: str
    """The document's own text (Markdown), with notes for the curator at the end."""
    line: int
    """Its line in the document."""
    aliases: tuple[str, ...] = ()
    """Names redirecting to it (`X - See Y.`)."""
    see_also: tuple[str, ...] = ()
    """Ids of the drafts (or existing entries) it refers to."""
    held: tuple[tuple[str, str, str], ...] = ()
    """For a family of rules joined into it: the (section, title, text) each of its rules had as a draft of its
    own, before rules were joined. Not written; importing again a document drafted then finds those drafts by them."""

    def block(
        self, anchor: str, *, entry_id: str = "", see_also: list[str] | None = None, kept: list[tuple[str, str]] | None = None, text: str | None = None
    ) -> str:
        """The entry in the entries-file format, with its `anchor` (its place in the document), `draft: true`
        and the fingerprint of its text (`drafted:`). An update writes it under `entry_id` (its entry's in the
        file), with its links renamed so (`see_also`, and in its `text`) and the header keys of that entry the
        importer does not write (`kept`)."""
        text = self.text if text is None else text
        headers = [("title", self.title), ("kind", self.kind), ("section", self.section), ("anchor", anchor)]
        if self.aliases:
            headers.append(("aliases", f"{LIST_SEPARATOR} ".join(self.aliases)))
        links = self.see_also if see_also is None else see_also
        if links:
            headers.append(("see_also", f"{LIST_SEPARATOR} ".join(links)))
        headers += [*(kept or []), ("draft", "true"), ("drafted", drafted_fingerprint(text))]
        return format_entry(entry_id or self.id, headers, text)


@dataclass
class Imported:
    """What `rulebot import` drafted from one document, and how its references fared."""

    document: str
    """The document's file name."""
    game: str
    """Slug of the game the drafts are for."""
    source: str
    """Id of the source they cite (their entries file is `<source>.md`)."""
    entries: list[DraftEntry] = field(default_factory=list)
    """The drafts, in document order."""
    resolved: int = 0
    """References turned into see_also links (distinct per entry)."""
    unresolved: list[tuple[int, str]] = field(default_factory=list)
    """References that name nothing drafted: (document line, reference as written)."""
    aliases: int = 0
    """Redirects turned into aliases."""
    redirects_unresolved: list[tuple[int, str]] = field(default_factory=list)
    """Redirects whose target was not found: (document line, redirect as written)."""
    seconds: float = 0.0
    """Time the drafting took."""
    vocabulary: glossary.Vocabulary = field(default_factory=glossary.Vocabulary)
    """Synonym groups and terms the document defines, proposed for the game's game.toml."""

    def to_markdown(self, vocabulary_written: Collection[str] | None = None) -> str:
        """The drafts as an entries file, after a preamble of notes for the curator (`notes`)."""
        return self.notes(vocabulary_written) + self.entries_markdown()

    def notes(self, vocabulary_written: Collection[str] | None = None) -> str:
        """The notes for the curator that begin an entries file of drafts. `vocabulary_written`: the keys of
        [vocabulary] ("synonyms", "terms") written into the game's game.toml (`--append`), where the notes send
        the curator, the rest of the vocabulary listed as game.toml had no room for it; None: the drafts are
        printed, the whole vocabulary listed."""
        lines = [
            f"# Drafts imported from {self.document}",
            "",
            f"Drafted by `rulebot import` for the game `{self.game}`, source `{self.source}`.",
            "Every entry below is a draft: its text is still the document's own. Restate it in",
            "your own words, check its title, kind, section, aliases and see_also, then remove",
            "its `draft: true` line (`rulebot check --strict` lists the drafts left).",
            "",
        ]
        if self.unresolved or self.redirects_unresolved:
            lines += ["References that name nothing drafted (document line: reference):", ""]
            lines.extend(f"- {line}: {one_line(text)}" for line, text in sorted(self.unresolved + self.redirects_unresolved))
            lines.append("")
        written = vocabulary_written or ()
        synonyms = self.vocabulary.synonyms if "synonyms" not in written else []
        terms = self.vocabulary.terms if "terms" not in written else []
        if written:
            lines += [f"The {' and '.join(written)} the document defines are proposed in the game's game.toml, [vocabulary]: review them there.", ""]
        if synonyms or terms:
            if vocabulary_written is None:
                lines += ["Vocabulary the document defines, for game.toml's [vocabulary] (review it; `--append` writes it where a list is empty):", ""]
            else:
                lines += ["Vocabulary the document defines that game.toml had no empty list under [vocabulary] for (add what players say there):", ""]
            lines.extend(f"- synonyms: {', '.join(group)}" for group in synonyms)
            if terms:
                lines.append(f"- terms: {', '.join(terms)}")
            lines.append("")
        return "\n".join(lines) + "\n"

    def entries_markdown(self) -> str:
        """The drafts alone, in the entries-file format."""
        anchors = anchors_of(self.entries)
        return "\n".join(e.block(anchors[e]) for e in self.entries)

    def summary(self) -> str:
        """One line: entries drafted, references resolved and not, aliases, time."""
        unresolved = len(self.unresolved) + len(self.redirects_unresolved)
        return (
            f"Drafted {plural(len(self.entries), 'entry', 'entries')} from {self.document}: "
            f"{plural(self.resolved, 'reference')} resolved, {unresolved} unresolved, "
            f"{plural(self.aliases, 'alias', 'aliases')} from redirects, "
            f"{plural(len(self.vocabulary.synonyms), 'synonym group')} and {plural(len(self.vocabulary.terms), 'term')} proposed"
            f"{' (the first ones only: the glossary has more)' if self.vocabulary.more_terms else ''} ({self.seconds:.2f} s)"
        )

    def unresolved_lines(self) -> list[str]:
        """The first references that name nothing drafted (UNRESOLVED_NAMED), a line each, for the curator told the
        summary: its count alone says nothing of where to look."""
        unresolved = sorted(self.unresolved + self.redirects_unresolved)
        lines = [f"  unresolved, line {line} of the document: {one_line(text)}" for line, text in unresolved[:UNRESOLVED_NAMED]]
        if len(unresolved) > UNRESOLVED_NAMED:
            lines.append(f"  and {len(unresolved) - UNRESOLVED_NAMED} more (the notes of printed drafts list every one: `rulebot import` without --append)")
        return lines


UNRESOLVED_NAMED = 5
"""The references that name nothing drafted that an import's summary names (its notes name every one)."""
