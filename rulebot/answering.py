"""The front door: the one way a question is answered (Answerer), with the user told what happens and settings.

Every front end answers through an Answerer: the Python API (rulebot.api.Library)
and the command line, whose `ask` (rulebot.cli.asking.run) is the same with
click or without it (the quick path, rulebot.cli.quick), and whose `play`
asks each question of a session; so that all answer alike. Only the Answerer
calls the search (Searcher.ask: tests/test_architecture.py). What it adds to
the search's answer (the game it was asked of, each entry in the answer's
language, without house rules) makes a new Answer: an Answer is never
changed. Nothing here imports click.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulebot.index.payload import Link, StoredEntry, Translated
    from rulebot.search.answer import Answer as Answer
    from rulebot.search.answer import Hit
    from rulebot.search.ranking import Searcher as Searcher  # the front ends name its type from here

Notify = Callable[[str], None]
"""Tells the user one line (on standard error): progress of a build, a warning."""


def searcher_over(
    dirs: Iterable[Path], *, progress: Callable[[int, int], None] | None = None, warn: Callable[[str], None] | None = None
) -> Searcher:
    """A searcher over the index of corpus folders, built first when missing or stale (`progress(done, total)` is
    told how far); each problem of a corpus told once to `warn`. For look-ups; questions go to an Answerer."""
    from rulebot.index.cache import open_index
    from rulebot.search.ranking import Searcher

    return Searcher(open_index(dirs, progress=progress, warn=warn))


def open_searcher(dirs: Iterable[Path], notify: Notify) -> Searcher:
    """A searcher over the index of corpus folders, built first when missing or stale (the user is told)."""
    from rulebot.text import plural

    announced = False

    def progress(done: int, total: int) -> None:
        nonlocal announced
        if not announced:
            # (the entries indexed now: all of them, or those changed since the index an update starts from)
            notify(f"Building the search index ({plural(total, 'entry', 'entries')} to index)…")
            announced = True

    return searcher_over(dirs, progress=progress, warn=warner(notify))


def warner(notify: Notify) -> Callable[[str], None]:
    """How a warning is told: one line, marked as one."""
    return lambda message: notify(f"Warning: {message}")


def expansions_in_play(searcher: Searcher, with_: Collection[str], game: str | None) -> dict[str, set[str]]:
    """The expansions in play per game: the configured ones, then those given (`--with`) for the game. ConfigError
    for a configured name that is no expansion of its game (a file edited by hand): else the game would be asked
    of every expansion, or none, with nothing said."""
    from rulebot import config

    in_play: dict[str, set[str]] = {}
    for slug, names in config.expansions_in_play().items():
        if slug not in searcher.games or (game is not None and slug != searcher.game_slug(game)):
            continue  # (a game of another corpus folder, not loaded now; another game than the one asked of)
        expansions = [e["slug"] for e in searcher.games[slug]["expansions"]]
        unknown = [name for name in names if name not in expansions and name != "base"]  # ("base": none of them)
        if unknown:
            raise config.ConfigError(
                f"{config.config_path()}: {slug}.with names no expansion of {searcher.games[slug]['name']}: {', '.join(map(repr, unknown))}"
                f" (its expansions: {', '.join(expansions) or 'none'}); fix it with `rulebot config set {slug}.with ...` or"
                f" `rulebot config unset {slug}.with`"
            )
        in_play[slug] = {name for name in names if name != "base"}
    in_play.update(searcher.resolve_expansions(with_, game))
    return in_play


class Answerer:
    """The front door: answers questions from one opened index, as every front end does (`ask`, `play`, the
    Python API). Its `searcher` is there for look-ups (an entry, the games); a question goes to `ask`."""

    def __init__(self, searcher: Searcher) -> None:
        self.searcher = searcher

    def close(self) -> None:
        self.searcher.close()

    def __enter__(self) -> Answerer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        limit: int = 3,
        with_: Collection[str] = (),
        in_play: Mapping[str, set[str]] | None = None,
        official_only: bool = False,
        lang: str | None = None,
        configured: bool = True,
    ) -> Answer:
        """The answer to a question, with the expansions in play (configured, then given). `in_play`: the
        expansions in play per game, when the front end keeps them (`play`); else from the configuration and
        `with_` (`with_` alone, and no configured language, when not `configured`). `official_only`: without house rules, in the results and in what they link to; each entry in the
        answer's language (answer_language), where it has a text in it.

        An expansion given (`with_`) without a game says which game comes first: its own, unless the question names
        another. A game is given by its slug, name or an alias (Searcher.game_slug). When the game given
        or come first has no clear answer and the question names an entry of another game (its title or an
        alias) that answers clearly, that entry is the answer, and the answer says which game it was asked of
        (Answer.instead_of): a card of another game never vanishes behind the game in play."""
        searcher = self.searcher
        if game is not None:
            game = searcher.game_slug(game)
        if in_play is None:
            in_play = expansions_in_play(searcher, with_, game) if configured else searcher.resolve_expansions(with_, game)
        first = game
        if first is None:
            implied = searcher.resolve_expansions([name for name in with_ if name != "base"])
            # (a game the question names is asked of: "catalyst coin limit" with Rise of Ix in play is Catalyst's)
            if len(implied) == 1 and set(searcher.reading.named_games(question)) <= set(implied):
                first = next(iter(implied))
        from rulebot import config
        from rulebot.errors import QueryError

        chosen = lang or (config.language() if configured else None)  # (read once: the answer's, else the question's)
        try:
            found = searcher.ask(question, game=first, limit=limit, expansions=in_play, official_only=official_only, lang=chosen)
        except QueryError:
            if first is None or game is not None:
                raise
            # (the game an expansion implies refuses what every game's search may answer: "either", a card's alias)
            first = None
            found = searcher.ask(question, limit=limit, expansions=in_play, official_only=official_only, lang=chosen)
        instead_of = None
        if first is not None and not found.confident:
            try:
                wider: Answer | None = searcher.ask(question, limit=limit, expansions=in_play, official_only=official_only, lang=chosen)
            except QueryError:  # (what every game's search refuses, the game's own answered: that answer stands)
                wider = None
            best = wider.results[0] if wider is not None and wider.results else None
            # Only a name whose words the game asked of never uses can mean another game's entry: "setup" or
            # "dragon" said of Res Arcana are about Res Arcana, even where another game has an entry of that name.
            # A game the user chose (`--game`) is left only for one the question names as well ("dune assassination
            # mission"): a game may simply lack what it is asked about ("alliance", "is there a solo mode").
            if (
                wider is not None
                and wider.confident
                and best is not None
                and best.game != first
                and (game is None or best.game in searcher.reading.named_games(question))
                and names_entry(searcher, question, best.data, foreign_to=first)
            ):
                found, instead_of = wider, {"slug": first, "name": searcher.games[first]["name"]}
        language = answer_language(found.language, chosen)

        def shown(hit: Hit) -> Hit:
            """The hit as the answer gives it: without house rules when asked, in the answer's language."""
            data = without_house_rules(searcher, hit.data) if official_only else hit.data
            return hit.with_data(in_language(data, language))

        return found.replace(
            results=[shown(hit) for hit in found.results],
            runners_up=[shown(hit) for hit in found.runners_up],
            answer_language=language,
            instead_of=instead_of,
        )


def answer(searcher: Searcher, question: str, **options: Any) -> Answer:
    """The answer to a question from an opened searcher, through the front door (Answerer.ask, whose options
    these are): for a searcher a program already has open (the benchmarks, tests)."""
    return Answerer(searcher).ask(question, **options)


def names_entry(searcher: Searcher, question: str, payload: StoredEntry, foreign_to: str | None = None) -> bool:
    """Whether a question names an entry: every word of its title or of an alias, or a close spelling of it.
    `foreign_to`: a game none of whose names, vocabulary or entries has any word of that name (its words are
    then distinctive of the entry's game)."""
    from rulebot.language import analysis
    from rulebot.search.constants import MIN_NAME_LETTERS

    said: set[str] = set()
    for word in analysis.words(question):
        said.add(analysis.stem(word))
        if foreign_to is not None and uses_stem(searcher, foreign_to, analysis.stem(word)):
            continue  # a word of the game asked of is no typo there ("réduction" is not "reaction")
        said.update(analysis.stem(close) for spelling in searcher.spellings.of(word) for close in spelling)
    return any(
        name and said.issuperset(name) and sum(map(len, name)) >= MIN_NAME_LETTERS
        and (foreign_to is None or not any(uses_stem(searcher, foreign_to, s) for s in name))
        for name in payload["name_stems"]
    )


def uses_stem(searcher: Searcher, game: str, stem: str) -> bool:
    """Whether a game says a word of this stem: in its names, its expansions' names, its vocabulary (in every
    language) or any of its entries (in English or French)."""
    from rulebot.language import analysis

    data = searcher.games[game]
    names = [*data["aliases"], *(e["name"] for e in data["expansions"])]
    if any(stem == analysis.stem(word) for name in names for word in analysis.words(name)):
        return True
    if stem in searcher.reading.vocabulary_stems(game):
        return True
    own = searcher.scorer.docs("game", game)
    return any(own & searcher.scorer.docs(field, term) for field, term in _terms_of(stem))


def _terms_of(stem: str) -> list[tuple[str, str]]:
    """Where an entry's text keeps a word of this stem, and as what term: its English fields keep the stem; its
    names field (title and aliases, unstemmed) and French fields are looked up with the stem as a word."""
    from rulebot.language import analysis

    french = analysis.french_term(stem)
    return [
        *((field, stem) for field in ENGLISH_FIELDS),
        ("names", analysis.name_term(stem)),
        *(((field, french) for field in FRENCH_FIELDS) if french else ()),
    ]


ENGLISH_FIELDS = ("title", "aliases", "asked", "body", "section")
"""The fields of an entry that keep its English words as stems (analysis.english_term)."""
FRENCH_FIELDS = ("title_fr", "body_fr", "aliases_fr", "asked_fr")
"""The fields of an entry that keep its French words as French stems (analysis.french_term)."""


def answer_language(question_language: str, chosen: str | None = None) -> str:
    """The language to answer in: the one chosen (`--lang`, else the configured one: `rulebot config set lang`, read
    once by the caller), else the question's."""
    return chosen or question_language


def without_house_rules(searcher: Searcher, payload: StoredEntry) -> StoredEntry:
    """An entry's payload without its links to house rules ("Changed by", "Changes", "See also", "Referenced by")."""
    out = payload.copy()
    out["modified_by"] = [ref for ref in payload["modified_by"] if not ref.get("house_rule")]
    out["modifies"] = [ref for ref in payload["modifies"] if not ref.get("house_rule")]
    out["see_also_refs"] = [ref for ref in payload["see_also_refs"] if not ref.get("house_rule")]
    official = {ref["id"] for ref in out["see_also_refs"]}
    out["see_also"] = [i for i in payload["see_also"] if i in official]
    out["referenced_by"] = [i for i in payload["referenced_by"] if not searcher.get(i).get("house_rule")]
    return out


def game_and_count(searcher: Searcher, words: tuple[str, ...]) -> tuple[str, int | None]:
    """The game `setup`'s words name, and the number of players after its name, if any (`setup dune 3`); a name
    that ends with a number and names a game whole is that game's ("skyrail 2"), never one it only begins
    ("catan 5" beside catan-5-6-players is Catan for 5)."""
    from rulebot.errors import UnknownGameError, UsageError
    from rulebot.text import named, named_whole

    names = {slug: [g["name"], *g["aliases"]] for slug, g in searcher.games.items()}
    if words and words[-1].isdecimal():
        whole = named_whole(" ".join(words), names)
        if whole is not None:  # a game whose name ends in a number, or is one ("1830")
            return whole, None
        if all(word.isdecimal() for word in words) and (len(words) == 1 or named(" ".join(words[:-1]), names) is None):
            raise UsageError(f"{' '.join(words)} is no game: give the game, then the number of players (setup GAME N)")
        return searcher.game_slug(" ".join(words[:-1])), int(words[-1])
    try:
        return searcher.game_slug(" ".join(words)), None
    except UnknownGameError:
        # ("catalyst two", "res-arcana -1": a game named whole, then what was meant as a count; "res arcanna" is a typo)
        if len(words) > 1 and (re.fullmatch(COUNT_WORDS, words[-1], re.IGNORECASE) or words[-1].lstrip("+-").isdecimal()):
            if named_whole(" ".join(words[:-1]), names):
                raise UsageError(f"{words[-1]!r} is no number of players: give it in digits (setup {' '.join(words[:-1])} 2)") from None
        raise


COUNT_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|un|une|deux|trois|quatre|cinq|sept|huit"
"""A player count written out ("catalyst two"), in English or French: a pattern compiled only on the way to an
error, never by an answer."""


def setup_checklist(
    searcher: Searcher, game: str, players: int | None, expansions: Collection[str] = (), lang: str | None = None
) -> dict[str, Any]:
    """The setup checklist of a game for a player count and the expansions in play, as `rulebot setup --json`
    prints it, its steps and note in `lang` where the setup gives them so; SetupError when the game has no setup data
    or is not played by that count (None: no count given).

    {"game", "game_name", "players", "expansions": [{"slug", "name", "changes_setup"}],
    "supported", "complete", "note", "steps": [{"number", "id", "text", "who", "open",
    "expansion", "expansion_name", "change", "entry": {"id", "title", "source"}, "also": [...]}]}
    """
    from rulebot.corpus.setup import GameSetup, count_range, played_by
    from rulebot.errors import SetupError
    from rulebot.search.for_players import cite

    game = searcher.game_slug(game)
    data = searcher.games[game]
    stored = data.get("setup")
    if not stored:
        raise SetupError(f"the corpus has no setup checklist for {data['name']} ({game}): a setup.toml in its folder gives one")
    setup = GameSetup.from_json(stored)
    names = {e["slug"]: e["name"] for e in data["expansions"]}
    supported = setup.players_with(expansions)
    if players is None or not setup.allows(players, expansions):
        played = played_by(data["name"], [names[e] for e in expansions], supported)
        unstated = [names[e] for e in setup.unstated(expansions)]
        if unstated:  # the counts are those of the covered setups: say that the expansion's own are not known
            played += f" (the sources do not give {' or '.join(unstated)}'s own player counts: these are those of the setups they cover)"
        others = [
            f"with {names[e.expansion]}: {count_range(e.players)}"
            for e in setup.expansions
            if e.players and e.expansion not in expansions and (players is None or players in e.players)
        ]
        also = f" ({'; '.join(others)})" if others else ""
        raise SetupError(f"{played}, not {players}{also}" if players is not None else f"how many players? {played}{also}")
    checklist = setup.checklist(players, expansions, lang)
    changing = {e.expansion for e in setup.expansions}
    return {
        "game": game,
        "game_name": data["name"],
        "players": players,
        "expansions": [{"slug": e, "name": names[e], "changes_setup": e in changing} for e in checklist.expansions],
        "supported": list(supported),
        "complete": checklist.complete,
        "note": checklist.note or None,
        "steps": [step.to_json(lambda entry_id: cite(searcher.get, entry_id), names) for step in checklist.steps],
    }


def in_language(payload: StoredEntry, lang: str) -> StoredEntry:
    """An entry's payload with its title and text in `lang` when it has them in that language (its own title and
    text go to its translations), else as it is: its `lang` says which it is. The entries it links to are named
    in `lang` too, where they can be (their own title goes to their `titles`)."""
    if payload["lang"] == lang:
        return payload
    out = payload.copy()
    out["modified_by"] = [_link_in(link, payload["lang"], lang) for link in payload["modified_by"]]
    out["modifies"] = [_link_in(link, payload["lang"], lang) for link in payload["modifies"]]
    out["see_also_refs"] = [_link_in(link, payload["lang"], lang) for link in payload["see_also_refs"]]
    chosen = next((t for t in payload["translations"] if t["lang"] == lang), None)
    if chosen is None:
        return out
    own: Translated = {"lang": payload["lang"], "title": payload["title"], "text": payload["text"]}
    out["lang"], out["title"], out["text"] = lang, chosen["title"], chosen["text"]
    out["translations"] = [own, *(t for t in payload["translations"] if t is not chosen)]
    out.pop("terminal", None)
    from rulebot.index.reader import TRANSLATED_TERMINAL

    if lang in payload.get(TRANSLATED_TERMINAL, {}):
        out["terminal"] = payload[TRANSLATED_TERMINAL][lang]
    return out


def _link_in(link: Link, own: str, lang: str) -> Link:
    """A link to an entry named in `lang` when it has a title in it; its title in `own` goes to its `titles`."""
    titles = link.get("titles", {})
    if lang not in titles:
        return link
    out = link.copy()
    out["title"], out["titles"] = titles[lang], {**{k: v for k, v in titles.items() if k != lang}, own: link["title"]}
    return out
