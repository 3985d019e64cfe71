"""The public shape of an entry and of a game: the JSON objects the commands print (`ask`, `show`, `games`...).

The index keeps each entry's payload (rulebot.index.build makes it, with a
few fields for ranking added) and each game's in its metadata, so that
answering a question does not load the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

if TYPE_CHECKING:
    from rulebot.corpus.model import Corpus, Entry


class Citation(TypedDict):
    """Where an entry's ruling comes from."""

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


class Link(TypedDict):
    """Another entry an entry links to (See also, Changes, Changed by)."""

    id: str
    title: str
    """Its title (the id itself for an entry left out of a corpus with problems)."""
    game: NotRequired[str]
    expansion: NotRequired[str | None]
    house_rule: NotRequired[bool]
    titles: NotRequired[dict[str, str]]
    """Its title in its other languages, by language (only for an entry that has some)."""


class Phrase(TypedDict):
    """A name or a question players use for an entry, with its language."""

    text: str
    lang: str


class Translated(TypedDict):
    """An entry's title and text in one of its languages."""

    lang: str
    """The language (two-letter code)."""
    title: str
    text: str
    """In Markdown."""


class EntryJSON(TypedDict):
    """An entry as every output gives it: `ask --json`, `show --json`, `list --json`, the Python API (rulebot.api.Ruling
    holds the same fields), the index's stored payloads, and the site's search data. The one definition of its shape:
    rulebot/schemas/ask.schema.json describes it for JSON readers, and tests hold both to it."""

    id: str
    game: str
    game_name: str
    kind: str
    title: str
    expansion: str | None
    expansion_name: str | None
    source: Citation
    text: str
    """The ruling, in Markdown."""
    lang: str
    """The language of its title and text (two-letter code)."""
    translations: list[Translated]
    """Its title and text in its other languages."""
    aliases: list[Phrase]
    asked: list[Phrase]
    """Questions players ask that it answers."""
    see_also: list[str]
    see_also_refs: list[Link]
    modifies: list[Link]
    """The entries it changes."""
    modified_by: list[Link]
    """The entries that change it."""
    referenced_by: list[str]
    revised: str | None
    new: bool
    draft: bool
    house_rule: bool


class StoredEntry(EntryJSON):
    """An entry's payload as the index keeps it: its JSON, with what ranking reads (rulebot.index.build adds it)."""

    terminal: NotRequired[str]
    """Its text rendered for the terminal, when it has markup (not in the site's index)."""
    translated_terminal: NotRequired[dict[str, str]]
    """Its translations' texts rendered for the terminal, by language, those with markup."""
    name_stems: list[list[str]]
    """The stems of each of its names (analysis.entry_name_stems: a numbered heading's section number left out)."""
    counted: list[str]
    """The stems of what its numbers count (quantities.counted_stems)."""
    player_counts: list[int]
    """The player counts it gives a value for (quantities.player_counts)."""
    defers: bool
    """Whether it is a drafted glossary item that sends to the rule it sums up (rulebot.corpus.glossary.sends_to_rule)."""


class GameJSON(TypedDict):
    """A game as the index keeps it (and `games --json` prints its public part)."""

    slug: str
    name: str
    language: str
    aliases: list[str]
    expansions: list[dict[str, str]]
    synonyms: list[list[str]]
    terms: list[str]
    entries: int
    setup: dict[str, Any] | None
    """The game's setup as data (rulebot.corpus.setup.GameSetup.to_json), None without one."""


def entry_payload(corpus: Corpus, entry: Entry, modified_by: Iterable[str] = (), referenced_by: Iterable[str] = ()) -> EntryJSON:
    """The JSON object of an entry, as `ask`, `show` and `list` print it: in the entry's own language (in_language
    gives it in another)."""
    from rulebot.corpus.model import TEXT_LANGUAGE

    game = corpus.games[entry.game]
    source = game.source(entry.source)

    def ref(entry_id: str) -> Link:
        other = corpus.entries.get(entry_id)
        if other is None:
            return {"id": entry_id, "title": entry_id}
        link: Link = {"id": other.id, "title": other.title, "game": other.game, "expansion": other.expansion, "house_rule": corpus.is_house_rule(other)}
        if other.translations:
            link["titles"] = {t.lang: t.title for t in other.translations}
        return link

    expansion = game.expansion(entry.expansion) if entry.expansion else None
    return {
        "id": entry.id,
        "game": entry.game,
        "game_name": game.name,
        "kind": entry.kind,
        "title": entry.title,
        "expansion": entry.expansion,
        "expansion_name": expansion.name if expansion else None,
        "source": {
            "document": entry.source,
            "title": source.title if source else entry.source,
            "edition": source.edition if source else "",
            "date": source.date if source else None,
            "trust": source.trust if source else None,
            "section": entry.section,
        },
        "text": entry.text,
        "lang": TEXT_LANGUAGE,
        "translations": [{"lang": t.lang, "title": t.title, "text": t.text} for t in entry.translations],
        "aliases": [{"text": a.text, "lang": a.lang} for a in entry.aliases],
        "asked": [{"text": a.text, "lang": a.lang} for a in entry.asked],
        "see_also": list(entry.see_also),
        "see_also_refs": [ref(i) for i in entry.see_also],
        "modifies": [ref(i) for i in entry.modifies],
        "modified_by": [ref(i) for i in modified_by],
        "referenced_by": list(referenced_by),
        "revised": entry.revised,
        "new": entry.new,
        "draft": entry.draft,
        "house_rule": corpus.is_house_rule(entry),
    }


def game_payload(corpus: Corpus, slug: str, entries: int) -> GameJSON:
    """What a search needs to know of a game (which has that many entries), without loading the corpus."""
    game = corpus.games[slug]
    return {
        "slug": game.slug,
        "name": game.name,
        "language": game.language,
        "aliases": [game.name, *game.aliases],
        "expansions": [{"slug": e.slug, "name": e.name} for e in game.expansions],
        "synonyms": [list(group) for group in game.synonyms],
        "terms": list(game.terms),
        "entries": entries,
        # its setup checklist's data (rulebot.corpus.setup), for `rulebot setup` and questions with a player count
        "setup": corpus.setups[slug].to_json() if slug in corpus.setups else None,
    }
