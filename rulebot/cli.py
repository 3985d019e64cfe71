"""The `rulebot` command: a thin click layer over the core modules.

Each command parses its options, makes one or two core calls and prints.
Core modules are imported inside the commands, so that `rulebot ask` loads
only what answering needs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rulebot import __version__
from rulebot.errors import CorpusError, QueryError, RulebotError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Settings:
    """What the group options decided, handed to every command."""

    def __init__(self, corpora: tuple[Path, ...], shipped: bool):
        self.extra = corpora
        self.shipped = shipped

    def corpus_dirs(self) -> list[Path]:
        from rulebot.corpus import shipped_corpus_dir

        dirs = [shipped_corpus_dir()] if self.shipped else []
        dirs.extend(self.extra)
        if not dirs:
            raise click.UsageError("no corpus: --no-shipped needs at least one --corpus DIR")
        return dirs

    def searcher(self):  # -> rulebot.search.Searcher
        from rulebot.index import open_index
        from rulebot.search import Searcher

        announced = False

        def progress(done: int, total: int) -> None:
            nonlocal announced
            if not announced:
                click.echo(f"Building the search index ({total} entries)…", err=True)
                announced = True

        opened = open_index(self.corpus_dirs(), progress=progress, warn=_warn)
        return Searcher(opened)


def _warn(message: str) -> None:
    click.echo(f"Warning: {message}", err=True)


def _color() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _style():
    from rulebot.output import Style

    return Style(_color())


def _split_paths(value: str | None) -> tuple[Path, ...]:
    return tuple(Path(p) for p in (value or "").split(os.pathsep) if p)


class RulebotGroup(click.Group):
    """Turns the core's errors into one-line click errors (exit 1), for every command."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CorpusError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            raise click.ClickException(f"{exc} (run `rulebot check` for the full list)") from None
        except QueryError as exc:
            raise click.UsageError(str(exc)) from None
        except RulebotError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=RulebotGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="rulebot")
@click.option(
    "--corpus",
    "corpora",
    multiple=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Add a corpus folder on top of the shipped one (repeatable; also $RULEBOT_CORPUS, a path list).",
)
@click.option("--no-shipped", is_flag=True, help="Leave out the corpus shipped with rulebot.")
@click.pass_context
def cli(ctx: click.Context, corpora: tuple[Path, ...], no_shipped: bool) -> None:
    """Rules answers for board games, from a curated corpus of rules, FAQs and errata.

    \b
    Ask a question (the game is found from the question when not given):
      rulebot ask "can i trash assassination mission"
      rulebot ask --game catalyst "how many coins can i keep"
      rulebot ask "combien d'actions par tour"
    Look around:
      rulebot games               the games and their expansions
      rulebot list --game res-arcana --kind faq
      rulebot show dune-chaumurky
    Curate:
      rulebot check               validate the corpus (FILE:LINE: message)
      rulebot index --rebuild     rebuild the search index

    The index is built on first use in the user cache directory and rebuilt
    whenever the corpus changes. Set NO_COLOR to turn colour off.
    """
    ctx.obj = Settings(_split_paths(os.environ.get("RULEBOT_CORPUS")) + corpora, shipped=not no_shipped)


@cli.command()
@click.argument("question", nargs=-1, required=True)
@click.option("-g", "--game", metavar="SLUG", help="Only this game (see `rulebot games`).")
@click.option("-n", "--limit", default=3, show_default=True, type=click.IntRange(1, 50), help="How many entries to show.")
@click.option(
    "-w",
    "--with",
    "with_",
    multiple=True,
    metavar="EXP",
    help="An expansion in play (repeatable); 'base' with --game for none. Default: `rulebot config`.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: {query, game, results: [...]}.")
@click.pass_obj
def ask(
    settings: Settings, question: tuple[str, ...], game: str | None, limit: int, with_: tuple[str, ...], as_json: bool
) -> None:
    """Answer a rules question, best ruling first, with its source.

    QUESTION is free text: a card name, a sloppy question, typos, French.
    Quotes are optional: `rulebot ask chamurky tie` works.

    With expansions in play (--with, or `rulebot config set GAME.with EXP`),
    entries of other expansions of that game are left out, and a rule an
    expansion changes is shown after the change. Without any, every entry
    counts, and an expansion named in the question is taken as in play.
    """
    from rulebot import config, output

    text = " ".join(question)
    with settings.searcher() as searcher:
        in_play = {g: set(e) for g, e in config.expansions_in_play().items() if g in searcher.games}
        in_play.update(searcher.resolve_expansions(with_, game))
        answer = searcher.ask(text, game=game, limit=limit, expansions=in_play)
    if as_json:
        click.echo(output.to_json(output.answer_json(answer)))
    else:
        click.echo(output.answer_text(answer, _style()), color=_color())


@cli.command()
@click.argument("entry_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as a JSON object.")
@click.pass_obj
def show(settings: Settings, entry_id: str, as_json: bool) -> None:
    """Show one entry in full, with everything that links to it."""
    from rulebot import output

    with settings.searcher() as searcher:
        entry = searcher.get(entry_id)
        referenced = [searcher.get(i) for i in entry.get("referenced_by", [])]
    if as_json:
        click.echo(output.to_json(output.public(entry)))
        return
    style = _style()
    lines = output.entry_block(entry, style)
    if referenced:
        refs = [{"id": r["id"], "title": r["title"]} for r in referenced]
        lines.insert(-1, "  " + style("Referenced by: ", output.DIM) + output.refs(refs, style))
    click.echo("\n".join(lines), color=_color())


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print {games: [...]} as JSON.")
@click.pass_obj
def games(settings: Settings, as_json: bool) -> None:
    """List the games of the corpus, with their expansions."""
    from rulebot import output

    with settings.searcher() as searcher:
        found = list(searcher.games.values())
    if as_json:
        keep = ("slug", "name", "language", "aliases", "expansions", "entries")
        click.echo(output.to_json({"games": [{k: g[k] for k in keep} for g in found]}))
        return
    style = _style()
    for game in found:
        expansions = ", ".join(f"{e['name']} ({e['slug']})" for e in game["expansions"])
        line = f"{style(game['slug'], output.BOLD)}  {game['name']} – {game['entries']} entries"
        click.echo(line + (f"; expansions: {expansions}" if expansions else ""), color=_color())


@cli.command(name="list")
@click.option("-g", "--game", metavar="SLUG", help="Only this game.")
@click.option("-k", "--kind", help="Only this kind (rule, setup, faq, errata, fine-point, variant, house-rule).")
@click.option("-e", "--expansion", metavar="SLUG", help="Only this expansion ('base' for the base game).")
@click.option("--json", "as_json", is_flag=True, help='Print {"results": [...]} with the same objects as `ask --json`.')
@click.pass_obj
def list_(settings: Settings, game: str | None, kind: str | None, expansion: str | None, as_json: bool) -> None:
    """List entries: id, title and kind, in corpus order."""
    from rulebot import output

    with settings.searcher() as searcher:
        found = searcher.entries(game=game, kind=kind, expansion=expansion)
    if as_json:
        click.echo(output.to_json({"results": [output.public(e) for e in found]}))
        return
    style = _style()
    for entry in found:
        click.echo(f"{entry['id']}  {entry['title']} {style('[' + entry['kind'] + ']', output.DIM)}", color=_color())
    if not found:
        click.echo("No entries match.", err=True)


@cli.command()
@click.argument("corpus_dirs", nargs=-1, type=click.Path(path_type=Path), metavar="[CORPUS_DIR]...")
@click.pass_obj
def check(settings: Settings, corpus_dirs: tuple[Path, ...]) -> None:
    """Validate a corpus and report every problem as FILE:LINE: message.

    Without CORPUS_DIR, checks the corpora rulebot uses (the shipped one and
    any --corpus). Exits 1 when there is a problem, 0 with a summary when none.
    """
    from collections import Counter

    from rulebot import corpus

    dirs = list(corpus_dirs) or settings.corpus_dirs()
    loaded, problems = corpus.check(dirs)
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        raise click.ClickException(f"{len(problems)} problem(s) found")
    counts = Counter(e.game for e in loaded.entries.values())
    per_game = ", ".join(f"{slug} {counts.get(slug, 0)}" for slug in loaded.games)
    click.echo(f"OK: {len(loaded.entries)} entries in {len(loaded.games)} game(s) ({per_game})")


@cli.group(name="config")
def config_group() -> None:
    """Default settings, kept in the user config directory.

    \b
    The only setting is GAME.with, the expansions in play for a game:
      rulebot config set res-arcana.with perlae-imperii
      rulebot config get res-arcana.with
      rulebot config unset res-arcana.with
    """


@config_group.command(name="set")
@click.argument("key")
@click.argument("values", nargs=-1, required=True)
@click.pass_obj
def config_set(settings: Settings, key: str, values: tuple[str, ...]) -> None:
    """Set KEY (GAME.with) to one or more VALUES (expansion slugs)."""
    from rulebot import config

    game, _ = config.split_key(key)
    with settings.searcher() as searcher:
        searcher.check_game(game)
        searcher.resolve_expansions([v for v in values if v != "base"], game)
    path = config.set_value(key, [v for v in values if v != "base"])
    click.echo(f"{key} = {', '.join(values)} (saved in {path})")


@config_group.command(name="get")
@click.argument("key")
def config_get(key: str) -> None:
    """Print the value of KEY (GAME.with), one item a line."""
    from rulebot import config

    game, setting = config.split_key(key)
    for value in config.load().get(game, {}).get(setting, []):
        click.echo(value)


@config_group.command(name="unset")
@click.argument("key")
def config_unset(key: str) -> None:
    """Remove KEY (GAME.with): every expansion counts again."""
    from rulebot import config

    path = config.set_value(key, [])
    click.echo(f"{key} removed (from {path})")


@config_group.command(name="path")
def config_path() -> None:
    """Print where the config file is."""
    from rulebot import config

    click.echo(str(config.config_path()))


@cli.command()
@click.option("--rebuild", is_flag=True, help="Rebuild even if the index is up to date.")
@click.pass_obj
def index(settings: Settings, rebuild: bool) -> None:
    """Build the search index now (it is otherwise built on first use)."""
    import time

    from rulebot.index import open_index

    started = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        end = "\r" if tty and done < total else "\n"
        click.echo(f"Indexed {done}/{total} entries", err=True, nl=False)
        click.echo(end, err=True, nl=False)

    opened = open_index(settings.corpus_dirs(), rebuild=rebuild, progress=progress, warn=_warn)
    where = opened.path or "memory"
    state = f"built in {time.perf_counter() - started:.2f} s" if opened.built else "already up to date"
    click.echo(f"Index of {opened.meta['count']} entries at {where}: {state}")


def main() -> None:
    """Entry point: run the CLI; report even unexpected errors in one line, never a traceback."""
    try:
        cli.main(prog_name="rulebot")
    except Exception as exc:  # the last line of defence
        if os.environ.get("RULEBOT_DEBUG"):
            raise
        click.echo(f"Error: unexpected {type(exc).__name__}: {exc} (set RULEBOT_DEBUG=1 for details)", err=True)
        sys.exit(70)
