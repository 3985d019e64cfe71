"""Shell completion of rulebot's arguments, for bash, zsh and fish (through click).

click calls these functions when the user presses Tab after `rulebot show`,
`--game` or `--with` (docs/players.md says how to enable it in a shell). Each
Tab runs a fresh process, so they open the index themselves, from the same
corpus folders the command line names, and they never print or raise: any
problem means no suggestion rather than noise in the user's prompt.

This module is imported with the click commands (rulebot.cli.shared), so it
imports nothing heavy at module level.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import click
    from click.shell_completion import CompletionItem

    from rulebot.answering import Searcher

T = TypeVar("T")


def corpus_dirs(ctx: click.Context) -> list[Path]:
    """The corpus folders the command line being completed names, as `rulebot` itself would use them.

    During completion click parses without running the group's callback, so
    this reads the group's `--corpus` / `--no-shipped` values, then those given
    after the command's name (the Settings their parsing made), and
    $RULEBOT_CORPUS directly, in the order `rulebot.cli.shared.Settings` uses (which
    keys the index cache: the same order finds the same index).
    """
    from rulebot.cli.shared import Settings
    from rulebot.corpus.files import chosen_dirs

    params = ctx.find_root().params
    settings = Settings()
    settings.take(params.get("corpora") or (), bool(params.get("no_shipped")))
    after = ctx.find_object(Settings)
    if after is not None:
        settings.take(after.extra, not after.shipped)
    return chosen_dirs(settings.extra, shipped=settings.shipped)


def _quietly(ctx: click.Context, use: Callable[[Searcher], list[T]]) -> list[T]:
    """Open the index and call `use` with a searcher; [] on any problem, nothing printed."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from rulebot.answering import searcher_over

            dirs = corpus_dirs(ctx)
            if not dirs:
                return []
            with searcher_over(dirs) as searcher:
                return use(searcher)
    except Exception:
        return []


def _items(pairs: list[tuple[str, str]], incomplete: str) -> list[CompletionItem]:
    """(value, help) pairs whose value starts with `incomplete`; else those containing it anywhere."""
    from click.shell_completion import CompletionItem

    needle = incomplete.casefold()
    chosen = [p for p in pairs if p[0].casefold().startswith(needle)]
    if not chosen and needle:
        chosen = [p for p in pairs if needle in p[0].casefold() or needle in p[1].casefold()]
    return [CompletionItem(value, help=help or None) for value, help in chosen]


def entry_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Entry ids (with their titles as help): `rulebot show <Tab>`.

    Ids starting with what is typed come first; when none does, ids whose id
    or title contains it (`rulebot show chaum<Tab>` finds dune-chaumurky).
    """

    def find(searcher: Searcher) -> list[CompletionItem]:
        game = ctx.params.get("game")
        entries = searcher.entries(game=game if game in searcher.games else None)
        return _items([(e["id"], e["title"]) for e in entries], incomplete)

    return _quietly(ctx, find)


def game_slugs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Game slugs (with the game's name as help): `--game <Tab>`."""
    return _quietly(ctx, lambda s: _items([(slug, g["name"]) for slug, g in s.games.items()], incomplete))


def setup_words(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """`setup`'s words: game slugs, then, once the words typed name a game, its player counts."""

    def find(searcher: Searcher) -> list[CompletionItem]:
        game, count = _game_given(ctx, searcher)
        if count is not None:
            return []  # (a count given: nothing follows it)
        if game is None:
            return _items([(slug, g["name"]) for slug, g in searcher.games.items()], incomplete)
        setup = searcher.games[game].get("setup")
        return _items([(str(n), "players") for n in setup["players"]] if setup else [], incomplete)

    return _quietly(ctx, find)


def _game_given(ctx: click.Context, searcher: Searcher) -> tuple[str | None, int | None]:
    """The game the command line names before the word completed: `--game`'s value, or the words of a command
    whose first argument is a game, read as `setup` reads them (rulebot.answering.game_and_count: `setup res
    arcana 3`), with the player count after them; None for none, or for words that name no game."""
    from rulebot.answering import game_and_count
    from rulebot.errors import RulebotError

    value = ctx.params.get("game")
    positional = [p.name for p in ctx.command.params if p.param_type_name == "argument"]
    if isinstance(value, str):
        words = [value]
    elif positional[:1] == ["game"]:
        # (a positional GAME is left unparsed, in ctx.args, while an option after it waits for its value; ask's
        # first word is its question's, never a game)
        words = list(value or ()) or list(ctx.args)
    else:
        return None, None
    try:
        return game_and_count(searcher, tuple(words)) if words else (None, None)
    except RulebotError:
        return None, None


def expansion_slugs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Expansion slugs (with name and game as help): `--with <Tab>`.

    Only the given game's expansions, and `base`, when the game comes first on
    the line (`--game GAME`, or `setup GAME`: by any name a player gives it);
    every game's expansions otherwise.
    """

    def find(searcher: Searcher) -> list[CompletionItem]:
        game, _count = _game_given(ctx, searcher)
        games = {game: searcher.games[game]} if game else searcher.games
        pairs = [(e["slug"], f"{e['name']} ({slug})") for slug, g in games.items() for e in g["expansions"]]
        if game:  # `--with base` needs a game
            pairs.append(("base", "no expansion"))
        return _items(pairs, incomplete)

    return _quietly(ctx, find)
