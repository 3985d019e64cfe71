"""An entry as the Python API gives it: typed, immutable records of its fields (rulebot.api).

A Ruling is an entry of the corpus as `rulebot ask --json` prints it
(rulebot.index.payload.EntryJSON); a Match is one the search found for a
question. An Answer (rulebot.search.answer) makes them from its hits when
asked, so that a command that prints its answer never loads them: they are
dataclasses, and a cold `rulebot ask` loads no `dataclasses`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulebot.index.payload import EntryJSON
    from rulebot.index.payload import Link as LinkJSON


@dataclass(frozen=True)
class Citation:
    """Where a ruling comes from."""

    document: str
    """The source's id."""
    title: str
    """The source document's title."""
    edition: str
    """Its edition, version or revision."""
    date: str | None
    """Its date (YYYY-MM-DD), when known."""
    trust: str | None
    """official, designer, community or house."""
    section: str
    """Where in the document."""


@dataclass(frozen=True)
class Link:
    """Another entry a ruling links to."""

    id: str
    title: str
    game: str | None = None
    expansion: str | None = None
    house_rule: bool = False
    titles: tuple[tuple[str, str], ...] = ()
    """Its title in its other languages: (language, title) each."""

    def __post_init__(self) -> None:
        if isinstance(self.titles, dict):  # as the JSON gives them
            object.__setattr__(self, "titles", tuple(self.titles.items()))

    @classmethod
    def from_payload(cls, link: LinkJSON) -> Link:
        """A link as an entry's payload gives it (rulebot.index.payload.Link)."""
        return cls(
            id=link["id"],
            title=link["title"],
            game=link.get("game"),
            expansion=link.get("expansion"),
            house_rule=link.get("house_rule", False),
            titles=tuple(link.get("titles", {}).items()),
        )


@dataclass(frozen=True)
class Phrase:
    """A name or question players use for a ruling, with its language."""

    text: str
    lang: str


@dataclass(frozen=True)
class Translated:
    """A ruling's title and text in another of its languages."""

    lang: str
    title: str
    text: str


@dataclass(frozen=True)
class Ruling:
    """One entry of the corpus: a rule, setup step, fine point, FAQ answer or erratum.

    Its fields are those of the entry's JSON (rulebot.index.payload.EntryJSON, as `ask --json` prints it)."""

    id: str
    """Its stable id (`rulebot show ID`)."""
    game: str
    """The game's slug."""
    game_name: str
    kind: str
    """rule, setup, faq, errata, fine-point, term, variant or house-rule."""
    title: str
    text: str
    """The ruling, in Markdown."""
    source: Citation
    expansion: str | None = None
    """The expansion's slug, None for the base game."""
    expansion_name: str | None = None
    lang: str = "en"
    """The language of its title and text."""
    translations: tuple[Translated, ...] = ()
    """Its title and text in its other languages."""
    aliases: tuple[Phrase, ...] = ()
    asked: tuple[Phrase, ...] = ()
    """Questions players ask that it answers."""
    see_also: tuple[str, ...] = ()
    """Ids of the related entries."""
    see_also_refs: tuple[Link, ...] = ()
    """The related entries, with their titles."""
    modifies: tuple[Link, ...] = ()
    """The rulings it changes."""
    modified_by: tuple[Link, ...] = ()
    """The rulings that change it."""
    referenced_by: tuple[str, ...] = ()
    """Ids of the entries whose See also names it."""
    revised: str | None = None
    new: bool = False
    """The edition of `revised` adds it, rather than revises it."""
    draft: bool = False
    house_rule: bool = False
    """A group's own rule, never an official ruling."""

    @classmethod
    def from_payload(cls, payload: EntryJSON) -> Ruling:
        """A ruling from an entry as the index stores it (rulebot.index.payload.entry_payload)."""
        return cls(
            id=payload["id"],
            game=payload["game"],
            game_name=payload["game_name"],
            kind=payload["kind"],
            title=payload["title"],
            text=payload["text"],
            source=Citation(**payload["source"]),
            expansion=payload.get("expansion"),
            expansion_name=payload.get("expansion_name"),
            lang=payload.get("lang", "en"),
            translations=tuple(Translated(**t) for t in payload.get("translations", ())),
            aliases=tuple(Phrase(**a) for a in payload.get("aliases", ())),
            asked=tuple(Phrase(**a) for a in payload.get("asked", ())),
            see_also=tuple(payload.get("see_also", ())),
            see_also_refs=tuple(Link.from_payload(r) for r in payload.get("see_also_refs", ())),
            modifies=tuple(Link.from_payload(r) for r in payload.get("modifies", ())),
            modified_by=tuple(Link.from_payload(r) for r in payload.get("modified_by", ())),
            referenced_by=tuple(payload.get("referenced_by", ())),
            revised=payload.get("revised"),
            new=bool(payload.get("new")),
            draft=bool(payload.get("draft")),
            house_rule=bool(payload.get("house_rule")),
        )

    def to_json(self) -> dict[str, Any]:
        """The ruling as plain JSON data, shaped as the entries of `ask --json` and `show --json` are (a link's titles an
        object by language, lists for tuples)."""
        data: dict[str, Any] = _lists(asdict(self))
        for key in ("see_also_refs", "modifies", "modified_by"):
            for link in data[key]:
                link["titles"] = dict(link["titles"])
        return data


def _lists(value: Any) -> Any:
    """The value with every tuple in it a list, as JSON holds them."""
    if isinstance(value, dict):
        return {key: _lists(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lists(item) for item in value]
    return value


@dataclass(frozen=True)
class Match:
    """A ruling found for a question."""

    ruling: Ruling
    score: float
    """Comparable within one answer only."""
    coverage: float
    """Share of the question's words the ruling matches (0..1)."""
    part_of_answer: bool
    """Whether it is one of the rulings that make up the answer (the best, and those that complete it)."""
