"""The commands that answer: `ask`, `show`, `games`, `list`, `setup` and `play`.

Each parses its options, opens the index once (rulebot.cli.shared.Settings)
and prints what the core answers. A command line of `ask` that the quick
path reads is answered without this module (rulebot.cli.quick); both do
what rulebot.cli.asking.run does.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypedDict

import click

from rulebot.cli import asking, completion, status
from rulebot.cli.shared import Settings, bad_value, click_options, current_style, echo, kind_option, notify, with_option
from rulebot.config import LANGUAGES
from rulebot.corpus.kinds import KINDS
from rulebot.text import plural

if TYPE_CHECKING:
    from rulebot.answering import Searcher
    from rulebot.index.payload import GameJSON, Link


class QuestionArgument(click.Argument):
    """The words of `ask`'s question: when there are none, the error says that `rulebot ask -` reads it from standard input."""

    def process_value(self, ctx: click.Context, value: object) -> object:
        try:
            return super().process_value(ctx, value)
        except click.MissingParameter as missing:
            # click types `message` as set once, by its constructor; the error is told with the one set here
            if sys.stdin is not None and not sys.stdin.isatty():  # `echo QUESTION | rulebot ask`, most likely
                missing.message = "Standard input is not a terminal: `rulebot ask -` reads the question from it"  # type: ignore[misc]
            else:
                missing.message = "Type the question after ask, or read it from standard input with `rulebot ask -`"  # type: ignore[misc]
            raise


class QuestionCommand(click.Command):
    """`ask`, whose question may hold a word that begins with a dash and a digit (asking.SIGNED_VALUE: "can i have -1
    gold", "my 2/2 gets -3/-3", "-1hp"): a word of the question, unquoted too, where click would take it for options.
    Every other word that begins with a dash is an option, as the quick path reads them (rulebot.cli.asking)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.resilient_parsing:  # (completing a word: click reads the line as it is, forgiving what is wrong)
            return super().parse_args(ctx, args)
        valued = {name for p in self.get_params(ctx) if isinstance(p, click.Option) and not p.is_flag and not p.count for name in p.opts}
        options: list[str] = []
        words: list[str] = []
        at = 0
        while at < len(args):
            arg = args[at]
            if arg == "--":
                words.extend(args[at + 1:])
                break
            if arg.startswith("-") and arg != "-" and not asking.SIGNED_VALUE.match(arg):
                options.append(arg)
                if arg in valued:  # its value is the next word, whatever it begins with
                    if at + 1 == len(args):
                        return super().parse_args(ctx, args)  # (click says what it lacks)
                    options.append(args[at + 1])
                    at += 1
            else:
                words.append(arg)
            at += 1
        # The options first, then the words after `--`: click reads no word of the question as an option.
        return super().parse_args(ctx, [*options, "--", *words] if words else options)


@click.command(cls=QuestionCommand)
@click.argument("question", nargs=-1, required=True, cls=QuestionArgument)
@click_options(asking.ASK_OPTIONS)
@click.pass_context
def ask(ctx: click.Context, /, question: tuple[str, ...], **options: Any) -> None:
    """Answer a rules question, best ruling first, with its source.

    QUESTION is free text: a card name, a sloppy question, typos, French.
    Quotes are optional: `rulebot ask chamurky tie` works, and so does a value
    such as -1 or -3/-3 among its words. `rulebot ask -` reads the question
    from standard input (all of it, as one question). A question is at most
    1,000 characters; one with no word to search for, or only question words
    and common words ("what?", "hello"), is refused (exit 2).

    With expansions in play (--with, or `rulebot config set GAME.with EXP`),
    entries of other expansions of that game are left out, and a rule an
    expansion changes is shown after the change. Without any, every entry
    counts, and an expansion named in the question is taken as in play. A
    question that says "base game only" (or "without expansions", "sans
    extension") leaves the expansions out, whatever is in play, and says so.

    Exits 0 for a clear answer, 3 when no entry answers clearly (the closest
    are shown), 1 when nothing matches at all; with --json, 0 whenever the
    object is printed (its "confident" and "results" tell the rest).

    \b
    rulebot ask "can i trash assassination mission"
    rulebot ask -g res-arcana --with perlae-imperii how many monuments with 3 players
    rulebot ask --json "combien de cartes en main à molthar"
    """
    settings: Settings = ctx.obj
    text = _stdin_question() if question == ("-",) else " ".join(question)
    ctx.exit(asking.run(settings.corpus_dirs(), text, **options, colored=settings.color, notify=notify, echo=echo))


def _stdin_question() -> str:
    """The question `ask -` reads: all of standard input (UTF-8), without the blanks around it; a usage error when
    there is none."""
    stdin = getattr(sys.stdin, "buffer", None)
    text = stdin.read().decode("utf-8", "replace") if stdin else sys.stdin.read()
    if not text.strip():
        raise click.UsageError("standard input is empty: `rulebot ask -` reads the question from it")
    return text.strip()  # (the newline `echo` ends it with is no part of the question, as said back or in --json)


@click.command()
@click.argument("entry_id", metavar="ID", shell_complete=completion.entry_ids)
@click.option("--json", "as_json", is_flag=True, help="Print the entry as a JSON object.")
@click.pass_obj
def show(settings: Settings, entry_id: str, as_json: bool) -> None:
    """Show one entry in full, with everything that links to it.

    ID may be typed in any case; an unknown one gets the close ids (an answer
    ends with the id of each entry it shows).

    \b
    rulebot show dune-chaumurky
    rulebot show --json arcana-tiebreak
    """
    from rulebot.cli import output

    with settings.searcher() as searcher:
        entry = searcher.get(entry_id)
        referenced = [searcher.get(i) for i in entry.get("referenced_by", [])]
    if as_json:
        from rulebot.search.answer import public

        click.echo(output.to_json(public(entry)))
        return
    style = current_style()
    lines = output.entry_block(entry, style)
    if referenced:
        refs: list[Link] = [{"id": r["id"], "title": r["title"]} for r in referenced]
        lines.insert(-1, "  " + style("Referenced by: ", output.DIM) + output.refs(refs, style))
    echo("\n".join(output.fit(lines, output.width())))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print {games: [...]} as JSON.")
@click.pass_obj
def games(settings: Settings, as_json: bool) -> None:
    """List the games and their expansions, with their entry counts.

    \b
    rulebot games
    rulebot games --json
    """
    from rulebot.cli import output

    with settings.searcher() as searcher:
        found = [(g, _expansion_counts(searcher, g)) for g in searcher.games.values()]
    if as_json:
        public = [
            {"slug": g["slug"], "name": g["name"], "language": g["language"], "aliases": g["aliases"], "expansions": counts, "entries": g["entries"]}
            for g, counts in found
        ]
        click.echo(output.to_json({"games": public}))
        return
    style = current_style()
    width = max((len(game["slug"]) for game, _ in found), default=0)  # (the names in one column, after the slugs)
    lines = []
    for game, counts in found:
        expansions = ", ".join(
            f"{e['name']} ({e['slug']}, {plural(e['entries'], 'entry', 'entries') if e['entries'] else 'no entries yet'})"
            for e in counts
        )
        padding = " " * (width - len(game["slug"]))
        line = f"{style(game['slug'], output.BOLD)}{padding}  {game['name']} – {plural(game['entries'], 'entry', 'entries')}"
        lines.append(line + (f"; expansions: {expansions}" if expansions else ""))
    echo("\n".join(output.fit(lines, output.width())))  # (to the terminal's width, as every listing of an answer)


class _ExpansionCount(TypedDict):
    """An expansion as `games` lists it."""

    slug: str
    name: str
    entries: int


def _expansion_counts(searcher: Searcher, game: GameJSON) -> list[_ExpansionCount]:
    """A game's expansions ({slug, name}), each with its number of entries."""
    in_game = searcher.scorer.docs("game", game["slug"])
    return [
        {"slug": e["slug"], "name": e["name"], "entries": len(in_game & searcher.scorer.docs("expansion", e["slug"]))}
        for e in game["expansions"]
    ]


@click.command(name="list")
@click.option("-g", "--game", metavar="GAME", shell_complete=completion.game_slugs, help="Only this game (its slug, name or an alias).")
@kind_option(f"Only this kind ({', '.join(KINDS)}).")
@click.option("-e", "--expansion", metavar="SLUG", shell_complete=completion.expansion_slugs, help="Only this expansion ('base' for the base game).")
@click.option("--json", "as_json", is_flag=True, help='Print {"results": [...]} with the same objects as `ask --json`.')
@click.pass_context
def list_(ctx: click.Context, game: str | None, kind: str | None, expansion: str | None, as_json: bool) -> None:
    """List entries: id, title and kind, in corpus order.

    \b
    rulebot list -g catalyst
    rulebot list -g res-arcana --expansion perlae-imperii --kind faq
    """
    from rulebot.cli import output
    from rulebot.errors import UnknownExpansionError

    with ctx.ensure_object(Settings).searcher() as searcher:
        try:
            found = searcher.entries(game=game, kind=kind, expansion=expansion)
        except UnknownExpansionError as exc:  # known once the index is open; told as --kind's bad value is
            raise bad_value(ctx, "expansion", exc) from None
    if as_json:
        from rulebot.search.answer import public

        click.echo(output.to_json({"results": [public(e) for e in found]}))
        return
    style = current_style()
    for entry in found:
        echo(f"{entry['id']}  {entry['title']} {style('[' + entry['kind'] + ']', output.DIM)}")
    if not found:
        click.echo("No entries match.", err=True)


@click.command()
@click.argument("game", metavar="GAME [N]", nargs=-1, required=True, shell_complete=completion.setup_words)
@click.option("-p", "--players", type=int, metavar="N", help="The number of players (or N after the game).")
@with_option("An expansion in play (repeatable); 'base' for none. Default: `rulebot config`.")
@click.option("--json", "as_json", is_flag=True, help="Print the checklist as one JSON object.")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    help="Print it in this language, the steps too where the setup gives them in it. Default: `rulebot config set lang`, else English.",
)
@click.pass_obj
def setup(settings: Settings, game: tuple[str, ...], players: int | None, with_: tuple[str, ...], as_json: bool, lang: str | None) -> None:
    """Print the setup checklist of GAME for N players and the expansions in play.

    The steps in order, with the numbers for N players (what to take out of
    the box, how many of each, what to deal, who starts, what each player
    gets), each citing the entry that states it. A step whose numbers the
    sources leave open says so. A player count the game is not played by
    is an error that names the counts it is.

    \b
    rulebot setup dune-imperium 3
    rulebot setup res arcana --players 2 --with perlae-imperii
    """
    from rulebot import config
    from rulebot.answering import expansions_in_play, game_and_count, setup_checklist
    from rulebot.cli import messages, output
    from rulebot.errors import SetupError

    lang = (lang or config.language() or "en").lower()

    with settings.searcher() as searcher:
        slug, count = game_and_count(searcher, game)
        if count is not None and players is not None and players != count:
            raise click.UsageError(f"{count} players after the game and --players {players}: give one count")
        players = count if count is not None else players
        in_play = expansions_in_play(searcher, with_, slug).get(slug, set())
        try:
            checklist = setup_checklist(searcher, slug, players, in_play, lang)
        except SetupError as exc:
            if players is None:
                raise click.UsageError(f"{exc}; say how many with --players N") from None
            raise
    if as_json:
        click.echo(output.to_json(checklist))
        return
    messages.use(lang)
    echo("\n".join(output.fit(output.checklist_lines(checklist, current_style()), output.width())))


@click.command()
@click.option(
    "-g", "--game", metavar="SLUG", shell_complete=completion.game_slugs, help="Start with this game (`:game` changes it)."
)
@with_option("An expansion in play (repeatable; `:with` adds more). Default: `rulebot config`.")
@click.pass_obj
def play(settings: Settings, game: str | None, with_: tuple[str, ...]) -> None:
    """Answer question after question at the table, in an interactive prompt.

    \b
    Type a question to ask it, or a command:
      :game [SLUG|-]     show, set or clear the game
      :with [EXP...|-]   show, add or clear the expansions in play
      :setup N           the setup checklist of the game for N players
      :show ID           show one entry in full
      :see N             follow the Nth "See also" of the last entry
      :help, :quit       (q, quit, exit or Ctrl-D leave too; Ctrl-C cancels the line)

    Tab completes card names, titles, entry ids and commands. The index is
    opened once, so every answer is instant; the lines typed are kept across
    sessions in the user data directory ($RULEBOT_DATA_DIR overrides it).
    Lines piped in are answered one after the other, without a prompt; a line
    that is an error is told on standard error, and play then exits 2.
    """
    from rulebot.answering import expansions_in_play
    from rulebot.cli import play as playing

    with settings.searcher() as searcher:
        if game is not None:
            game = searcher.game_slug(game)
        session = playing.PlaySession(
            searcher,
            game=game,
            configured=expansions_in_play(searcher, (), game),
            given=searcher.resolve_expansions(with_, game),
            style=current_style(),
        )
        if sys.stdin.isatty() and sys.stdout.isatty():
            playing.run(session, playing.history_path(), echo=echo)
        else:
            playing.run_plain(session, sys.stdin, echo=echo, echo_error=lambda text: click.echo(text, err=True))
            if session.errors:  # (a script's lines: as a command that fails, 2 when one of them was an error)
                sys.exit(status.ERROR)
