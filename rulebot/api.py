"""rulebot for scripts and chat bots: open a library of corpora, ask it questions, read typed answers.

    from rulebot import Library

    with Library() as rules:                      # the shipped corpus, and yours
        answer = rules.ask("can i trash assassination mission")
        if answer.confident:
            ruling = answer.rulings[0]
            print(ruling.title, "-", ruling.text)
            print("Source:", ruling.source.title, ruling.source.section)

The same core as the `rulebot` command: the same index (built on first use
in the user cache folder), the same answers, the same JSON shapes
(`Ruling.to_json()` is an entry of `rulebot ask --json`). Errors are
rulebot.errors.RulebotError and its subclasses, with one-line messages:
an argument of the wrong type or out of range is a UsageError (a
ValueError too), as the command's usage errors are, never a TypeError from
deep inside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from rulebot.answering import Answerer, searcher_over
from rulebot.config import LANGUAGES, LIMITS
from rulebot.corpus.files import chosen_dirs
from rulebot.errors import UsageError
from rulebot.search.answer import Answer
from rulebot.search.rulings import Citation, Link, Match, Phrase, Ruling, Translated

__all__ = ["Answer", "Citation", "GameInfo", "Library", "Link", "Match", "Phrase", "Ruling", "Translated"]


@dataclass(frozen=True)
class GameInfo:
    """A game of the library."""

    slug: str
    name: str
    language: str
    entries: int
    expansions: tuple[tuple[str, str], ...] = field(default=())
    """(slug, name) of each expansion."""


class Library:
    """The corpora rulebot answers from: open it once, ask many questions, close it (or use `with`).

    `corpora`: corpus folders to add on top of the shipped one (as `--corpus`),
    each of which must be there (UsageError otherwise); `shipped=False` leaves
    the shipped corpus out. The index is built first when missing or stale
    (`progress(done, total)` is told how far it is), and a corpus with
    problems is answered from its valid entries, each problem told once to
    `warn(message)`. `config=False` leaves the user's `rulebot config` out:
    no expansions in play but those given to `ask`, and answers in the
    question's language unless `ask` is given one (a bot answering for many
    players reads no one's settings).
    """

    def __init__(
        self,
        corpora: Iterable[str | Path] = (),
        *,
        shipped: bool = True,
        progress: Callable[[int, int], None] | None = None,
        warn: Callable[[str], None] | None = None,
        config: bool = True,
    ) -> None:
        given: list[str | Path] = _sequence("corpora", corpora, (str, Path), "corpus folders (str or Path)")
        folders = [Path(c) for c in given]
        _expect("shipped", shipped, bool, "True or False")
        _expect("config", config, bool, "True or False")
        self._configured = config
        for name, function in (("progress", progress), ("warn", warn)):
            if function is not None and not callable(function):
                raise UsageError(f"{name} must be a function, not {_shown(function)}")
        # The command line warns of a folder that is not there and goes on ($RULEBOT_CORPUS may name one not made
        # yet); a program that names a folder means to read it, and would otherwise get answers without it.
        for folder in folders:
            if not folder.is_dir():
                raise UsageError(f"no corpus folder {str(folder)!r}: " + ("it is a file" if folder.exists() else "no such folder"))
        dirs = chosen_dirs(folders, shipped=shipped)
        if not dirs:
            raise UsageError("no corpus: shipped=False needs at least one corpus folder")
        self._answerer: Answerer | None = Answerer(searcher_over(dirs, progress=progress, warn=warn))

    def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        with_: Iterable[str] | None = (),
        limit: int = 3,
        official_only: bool = False,
        lang: str | None = None,
    ) -> Answer:
        """Answer a question as `rulebot ask` does. `game`: the game (its slug, name or an alias), None to find it
        from the question;
        `with_`: the expansions in play, as `--with` (for their game, instead of those configured with
        `rulebot config`; None or empty: the configured ones, none with `config=False`); `limit`: how many matches at most, 1 to 40 (as `--limit`); `lang`: the
        language to answer in, as `--lang` (None: the configured one, else the question's; with `config=False`, the
        question's)."""
        _expect("question", question, str, "a string")
        _expect("game", game, (str, type(None)), "a game (its slug, name or an alias) or None")
        with_ = [] if with_ is None else _sequence("with_", with_, str, "expansion slugs")
        if game is not None and not game.strip():
            raise UsageError(f"game must name a game (its slug, name or an alias), or be None to find it from the question; not {game!r}")
        if game is None and any(name.lower() == "base" for name in with_):
            # (the command's own words would be "--with base needs --game")
            raise UsageError("with_=['base'] needs game=, to say which game is played without expansions")
        _expect("limit", limit, int, "a whole number")
        if not LIMITS[0] <= limit <= LIMITS[1]:
            raise UsageError(f"limit must be {LIMITS[0]} to {LIMITS[1]}, not {limit}")
        _expect("official_only", official_only, bool, "True or False")
        if isinstance(lang, str):
            lang = lang.lower()  # ("FR" as a player writes it)
        if lang is not None and lang not in LANGUAGES:
            raise UsageError(f"lang must be one of {', '.join(LANGUAGES)} (or None: the question's), not {_shown(lang)}")
        return self._open_answerer.ask(
            question, game=game, limit=limit, with_=with_, official_only=official_only, lang=lang, configured=self._configured
        )

    def ruling(self, entry_id: str) -> Ruling:
        """One ruling by its id (any case); UnknownEntryError, with close ids, if there is none."""
        _expect("entry_id", entry_id, str, "an entry's id")
        return Ruling.from_payload(self._open_answerer.searcher.get(entry_id))

    def rulings(self, *, game: str | None = None, kind: str | None = None, expansion: str | None = None) -> list[Ruling]:
        """Every ruling, or those of a game, kind or expansion ('base' for the base game's), in corpus order.

        A filter that names nothing is an error, as `rulebot list`'s is (UnknownGameError, UnknownKindError,
        UnknownExpansionError, each naming the valid values and the one meant), never an empty list."""
        for name, value in (("game", game), ("kind", kind), ("expansion", expansion)):
            _expect(name, value, (str, type(None)), "a string or None")
        return [Ruling.from_payload(payload) for payload in self._open_answerer.searcher.entries(game=game, kind=kind, expansion=expansion)]

    def games(self) -> list[GameInfo]:
        """The games of the library."""
        return [
            GameInfo(g["slug"], g["name"], g["language"], g["entries"], tuple((e["slug"], e["name"]) for e in g["expansions"]))
            for g in self._open_answerer.searcher.games.values()
        ]

    def close(self) -> None:
        """Close its index; a closed library answers nothing (UsageError). Closing it again does nothing."""
        if self._answerer is not None:
            self._answerer.close()
            self._answerer = None

    @property
    def _open_answerer(self) -> Answerer:
        """Its answerer, while it is open; UsageError once closed."""
        if self._answerer is None:
            raise UsageError("this Library is closed: open another one")
        return self._answerer

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shown(value: object) -> str:
    """A value as an error names it: its type, and itself when short."""
    text = repr(value)
    return f"{type(value).__name__} {text}" if len(text) <= 40 else type(value).__name__


T = TypeVar("T")
"""The type of the items _sequence accepts."""


def _expect(name: str, value: object, types: type | tuple[type, ...], what: str) -> None:
    """UsageError unless `value` is of `types` (True and False are no numbers here)."""
    allowed = types if isinstance(types, tuple) else (types,)
    if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
        raise UsageError(f"{name} must be {what}, not {_shown(value)}")


def _sequence(name: str, values: object, types: type[T] | tuple[type[T], ...], what: str) -> list[T]:
    """The items of a list (or any iterable but a string) of `types`; UsageError otherwise.

    A string alone is refused, not read letter by letter: `with_="rise-of-ix"` would name no expansion."""
    if isinstance(values, (str, bytes, Path)) or not isinstance(values, Iterable):
        hint = f": write [{values!r}]" if isinstance(values, (str, Path)) else ""
        raise UsageError(f"{name} must be a list of {what}, not {_shown(values)}{hint}")
    items: list[T] = []
    for item in values:
        if not isinstance(item, types):
            raise UsageError(f"{name} must be a list of {what}; {_shown(item)} is not one")
        items.append(item)
    return items
