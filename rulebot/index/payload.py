"""The public shape of an entry and of a game: the JSON objects the commands print (`ask`, `show`, `games`...).

The index keeps each entry's payload (rulebot.index.build makes it, with a
few fields for ranking added) and each game's in its metadata, so that
answering a question does not load the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from rulebot.corpus.model import Corpus, Entry


def entry_payload(corpus: Corpus, entry: Entry, modified_by: Iterable[str] = (), referenced_by: Iterable[str] = ()) -> dict:
    """The JSON object of an entry, as `ask`, `show` and `list` print it."""
    game = corpus.games[entry.game]
    source = game.source(entry.source)

    def ref(entry_id: str) -> dict:
        other = corpus.entries.get(entry_id)
        if other is None:
            return {"id": entry_id, "title": entry_id}
        return {"id": other.id, "title": other.title, "game": other.game, "expansion": other.expansion, "house_rule": corpus.is_house_rule(other)}

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
        "aliases": [{"text": a.text, "lang": a.lang} for a in entry.aliases],
        "asked": [{"text": a.text, "lang": a.lang} for a in entry.asked],
        "see_also": list(entry.see_also),
        "see_also_refs": [ref(i) for i in entry.see_also],
        "modifies": [ref(i) for i in entry.modifies],
        "modified_by": [ref(i) for i in modified_by],
        "referenced_by": list(referenced_by),
        "revised": entry.revised,
        "draft": entry.draft,
        "house_rule": corpus.is_house_rule(entry),
    }


def game_payload(corpus: Corpus, slug: str, entries: int) -> dict:
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
