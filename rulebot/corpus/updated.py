"""What an import's update did (rulebot.corpus.updating): to the entries file, each entry's fate, counted and
listed (DraftsWritten); with the drafting and the vocabulary proposed, what the curator is told (Update)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.drafted import Imported
from rulebot.corpus.glossary import Vocabulary
from rulebot.text import plural

JOINED_NAMED = 5
"""Drafts removed as joined that the report names: a document drafted before rules were joined may have hundreds."""
SAID_UNWRITTEN = 10
"""The proposed terms (or synonym groups) not written to game.toml that the summary says, when no more."""


@dataclass(frozen=True)
class Gone:
    """A draft entry of the file whose anchor the document no longer has."""

    id: str
    title: str
    line: int
    """Its heading's line in the file, as it was read."""
    gave_up: tuple[str, ...] = ()
    """Its aliases a draft of the document now claims, taken off it so that no name is claimed twice."""


@dataclass(frozen=True)
class Outdated:
    """An entry restated, or a draft being edited, whose rule the document now words otherwise than the text the
    curator worked from."""

    id: str
    title: str
    state: str
    """"restated", "edited" for a draft still marked so, or "merged or split" (in review)."""
    drafted: str
    """The fingerprint of the document's new text (rulebot.corpus.drafted.drafted_fingerprint): its `drafted:`
    once the entry says what that text says."""


@dataclass(frozen=True)
class Moved:
    """A restated entry whose heading the document has renamed or moved: where it is now."""

    id: str
    title: str
    anchor: str
    """The anchor of the draft it is paired with: its `anchor:` from now on."""


@dataclass
class DraftsWritten:
    """What an import did to an entries file."""

    path: Path
    """The entries file."""
    added: list[str] = field(default_factory=list)
    """Ids of the drafts added at the end of the file."""
    updated: list[str] = field(default_factory=list)
    """Ids of the draft entries rewritten with the document's new text."""
    unchanged: list[str] = field(default_factory=list)
    """Ids of the draft entries the document drafts the same as before."""
    restated: list[str] = field(default_factory=list)
    """Ids of the entries of the document a curator has restated (no longer drafts): left as they are."""
    reshaped: list[str] = field(default_factory=list)
    """Ids of the entries a curator has merged from several drafts or split (`rulebot review`): left as they are."""
    edited: list[str] = field(default_factory=list)
    """Ids of the draft entries whose text a curator has edited, still marked draft: left as they are."""
    gone: list[Gone] = field(default_factory=list)
    """Draft entries of the file the document no longer has: kept, for the curator to decide."""
    outdated: list[Outdated] = field(default_factory=list)
    """Entries among `restated` and `edited` whose text in the document has changed since the curator took it up
    (their `drafted:` fingerprint is another text's): left as they are, for the curator to restate again."""
    restated_gone: list[Gone] = field(default_factory=list)
    """Restated entries drafted from the document, whose place in it (their anchor) it no longer has: left as
    they are, but the rule they restate may have gone."""
    joined: list[Gone] = field(default_factory=list)
    """Drafts of one rule each that the document's drafts now hold, joined with their family: removed."""
    moved: list[Moved] = field(default_factory=list)
    """Restated entries paired with a draft whose anchor is not theirs (a heading renamed or moved): left as they are,
    their anchor for the curator to set."""

    @property
    def written(self) -> bool:
        return bool(self.added or self.updated or self.joined or any(g.gave_up for g in self.gone))

    def summary(self) -> str:
        """One line: how many of each, and the gone ones named."""
        counts = (
            f"{len(self.updated)} updated, {len(self.added)} added, {len(self.unchanged)} unchanged, "
            f"{len(self.gone)} gone, {len(self.restated)} kept as restated"
            + (f" ({changed} of them changed in the document)" if (changed := self._outdated("restated")) else "")
            + (f", {len(self.reshaped)} kept as merged or split" if self.reshaped else "")
            + (f" ({changed} of them changed in the document)" if (changed := self._outdated("merged or split")) else "")
            + (f", {len(self.edited)} kept as edited (still marked draft)" if self.edited else "")
            + (f" ({changed} of them changed in the document)" if (changed := self._outdated("edited")) else "")
            + (f", {len(self.joined)} removed as joined with their rule's family" if self.joined else "")
        )
        where = f"written to {self.path}" if self.written else f"nothing written to {self.path}"
        return f"{counts}; {where}"

    def _outdated(self, state: str) -> int:
        return sum(1 for outdated in self.outdated if outdated.state == state)


@dataclass
class Update:
    """What `rulebot import --append` did: the drafting, the entries file's update, the vocabulary proposed."""

    drafted: Imported
    written: DraftsWritten
    proposed: Vocabulary = field(default_factory=Vocabulary)
    """The vocabulary the document proposes that the game's own did not have."""
    vocabulary: list[str] = field(default_factory=list)
    """The game.toml keys the proposed vocabulary was written to."""
    game_file: str = ""
    """The game's game.toml."""
    document_renamed: str | None = None
    """The document's file name, when the import wrote it as its source's `document` in game.toml in place of
    another (a new edition from a file of another name)."""

    def report(self) -> str:
        """The lines told to the curator: the counts, each entry gone from the document, the vocabulary written."""
        lines = [self.drafted.summary(), *self.drafted.unresolved_lines(), self.written.summary()]
        for gone in self.written.gone:
            moved = f"; its aliases {', '.join(gone.gave_up)} are now the document's new draft's" if gone.gave_up else ""
            lines.append(f"  gone from the document (kept, to restate or delete): {gone.id} ({gone.title}){moved}")
        for outdated in self.written.outdated:
            lines.append(
                f"  {outdated.state}, its text changed in the document since (left as it is): {outdated.id} ({outdated.title});"
                f" once it says what the document says now, set its drafted: to {outdated.drafted}"
            )
        for gone in self.written.restated_gone:
            lines.append(f"  restated, its place gone from the document (left as it is): {gone.id} ({gone.title})")
        for shifted in self.written.moved:
            lines.append(
                f"  restated, its heading renamed or moved in the document (left as it is): {shifted.id} ({shifted.title});"
                f" set its anchor: to {shifted.anchor}"
            )
        for edited in self.written.edited:
            lines.append(f"  edited since it was imported (left as it is; remove its draft: true line once restated): {edited}")
        if self.written.joined:
            named = ", ".join(g.id for g in self.written.joined[:JOINED_NAMED])
            more = f" and {len(self.written.joined) - JOINED_NAMED} more" if len(self.written.joined) > JOINED_NAMED else ""
            lines.append(f"  removed, their rule now one draft with its family, which holds their text: {named}{more}")
        if self.vocabulary:
            lines.append(f"Proposed vocabulary ({' and '.join(self.vocabulary)}) written to {self.game_file}: review it")
        if self.document_renamed:
            lines.append(f"The source's document is now {self.document_renamed} in {self.game_file} (`check --sources DIR` finds it by that name)")
        vocabulary = self.proposed
        for key, found, what in (("synonyms", [" = ".join(g) for g in vocabulary.synonyms], "synonym group"), ("terms", vocabulary.terms, "term")):
            if found and key not in self.vocabulary:
                # (a few are said here; more, `rulebot import` without --append prints in full)
                said = f": {'; '.join(found)}" if len(found) <= SAID_UNWRITTEN else " (`rulebot import` without --append prints them)"
                lines.append(
                    f"{plural(len(found), 'proposed ' + what)} not written, as {self.game_file} has no empty `{key} = []` under"
                    f" [vocabulary]{said}"
                )
        return "\n".join(lines)
