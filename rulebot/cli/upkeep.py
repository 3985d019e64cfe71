"""The commands that look after rulebot's files: the user's settings (`config`), the search index (`index`)
and the static site (`site build`, `site serve`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rulebot.cli import status
from rulebot.cli.failures import Failure, RulebotGroup
from rulebot.cli.shared import Settings, warn
from rulebot.errors import CorpusError, RulebotError
from rulebot.text import plural


@click.group(name="config", cls=RulebotGroup)
def config_group() -> None:
    """Default settings, kept in the user config directory.

    \b
    GAME.with, the expansions in play for a game ('base': none; unset: all):
      rulebot config set res-arcana.with perlae-imperii
      rulebot config get res-arcana.with
      rulebot config unset res-arcana.with
    lang, the language to answer in (en or fr; unset: the question's):
      rulebot config set lang fr
    """


@config_group.command(name="set")
@click.argument("key")
@click.argument("values", nargs=-1, required=True)
@click.pass_obj
def config_set(settings: Settings, key: str, values: tuple[str, ...]) -> None:
    """Set KEY (GAME.with, or lang) to one or more VALUES (expansion slugs; a language: en or fr)."""
    from rulebot import config

    if key == config.LANG:
        if len(values) != 1:
            raise click.BadParameter(f"{key} takes one language ({', '.join(config.LANGUAGES)})", param_hint="VALUES")
        click.echo(f"{key} = {values[0].lower()} (saved in {config.set_language(values[0])})")
        return
    game, setting = config.split_key(key)
    values = tuple(v.lower() for v in values)  # (as slugs are written: "Perlae-Imperii" is perlae-imperii)
    expansions = [v for v in values if v != "base"]
    if expansions and len(expansions) < len(values):
        raise click.BadParameter(f"'base' (no expansion) and {', '.join(expansions)} say two things: give one", param_hint="VALUES")
    with settings.searcher() as searcher:
        slug = searcher.game_slug(game)
        searcher.resolve_expansions(expansions, slug)
    key = f"{slug}.{setting}"  # (saved under the slug, which every command reads it by: "dune.with" is dune-imperium's)
    path = config.set_value(key, expansions)  # (none: the base game alone, as `--with base`)
    click.echo(f"{key} = {', '.join(values)} (saved in {path})")


def _stored(settings: Settings, key: str) -> tuple[str, str]:
    """A GAME.SETTING key as the config file holds it: under the game's slug, as `config set` saves it ("Res
    Arcana.with" is res-arcana's), unless the file holds the game as given (a game the corpus no longer has)."""
    from rulebot import config

    game, setting = config.split_key(key)
    if game not in config.load():
        try:
            with settings.searcher() as searcher:
                game = searcher.game_slug(game)
        except (RulebotError, click.UsageError):
            pass  # (no game of that name, or no corpus to name one: the key as given, which is then not set)
    return game, setting


@config_group.command(name="get")
@click.argument("key")
@click.pass_context
def config_get(ctx: click.Context, key: str) -> None:
    """Print the value of KEY (GAME.with, or lang), one item a line; exit 1 when KEY is not set."""
    from rulebot import config

    if key == config.LANG:
        lang = config.language()
        values = [lang] if lang else []
    else:
        game, setting = _stored(ctx.obj, key)
        given = config.load().get(game, {}).get(setting)
        values = ["base"] if given == [] else given or []  # (no expansion in play: the base game alone)
    for value in values:
        click.echo(value)
    if not values:  # as `git config KEY`: a key not set is a negative result (1), told by the status alone
        ctx.exit(status.NEGATIVE)


@config_group.command(name="unset")
@click.argument("key")
@click.pass_obj
def config_unset(settings: Settings, key: str) -> None:
    """Remove KEY (GAME.with: every expansion counts again; lang: answers in the question's language); exit 1 when
    KEY is not set."""
    from rulebot import config

    if key == config.LANG:
        was = config.language() is not None
    else:
        game, setting = _stored(settings, key)
        was = config.load().get(game, {}).get(setting) is not None
        key = f"{game}.{setting}"
    if not was:  # (as `config get`: a key not set is a negative result, and nothing is written)
        click.echo(f"{key} is not set", err=True)
        click.get_current_context().exit(status.NEGATIVE)
    path = config.set_language(None) if key == config.LANG else config.set_value(key, None)
    click.echo(f"{key} removed (from {path})")


@config_group.command(name="path")
def config_path() -> None:
    """Print where the config file is."""
    from rulebot import config

    click.echo(str(config.config_path()))


@click.command()
@click.option("--rebuild", is_flag=True, help="Rebuild even if the index is up to date.")
@click.pass_obj
def index(settings: Settings, rebuild: bool) -> None:
    """Build the search index now (it is otherwise built on first use)."""
    import time

    from rulebot.index.cache import open_index

    started = time.perf_counter()
    tty = sys.stderr.isatty()

    shown = -1

    def progress(done: int, total: int) -> None:
        nonlocal shown
        if not tty:  # a log: one line per tenth, not one per batch
            tenth = done * 10 // max(total, 1)
            if tenth == shown:
                return
            shown = tenth
        end = "\r" if tty and done < total else "\n"
        click.echo(f"Indexed {done}/{plural(total, 'entry', 'entries')}", err=True, nl=False)
        click.echo(end, err=True, nl=False)

    opened = open_index(settings.corpus_dirs(), rebuild=rebuild, progress=progress, warn=warn)
    if opened.path is None:
        # Saving it is this command's one job: the other commands answer from an index kept in memory, this one fails.
        from rulebot.cli.failures import Failure

        raise Failure(f"the index of {plural(opened.meta['count'], 'entry', 'entries')} could not be saved (see the warning above):"
                      " the next command builds it again")
    state = f"built in {time.perf_counter() - started:.2f} s" if opened.built else "already up to date"
    click.echo(f"Index of {plural(opened.meta['count'], 'entry', 'entries')} at {opened.path}: {state}")


@click.group(cls=RulebotGroup)
def site() -> None:
    """The static HTML reference site: build it, preview it.

    \b
      rulebot site build public/        every game, cross-linked, searchable
      rulebot site serve public/        preview it on http://127.0.0.1
    The built folder is self-contained and works from disk (file://) too.
    """


@site.command(name="build")
@click.argument("out_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--force", is_flag=True, help="Replace the content of a non-empty folder rulebot did not create.")
@click.option("--keep-going", is_flag=True, help="When the corpus has problems, build from its valid entries (with a warning) rather than fail.")
@click.pass_obj
def site_build(settings: Settings, out_dir: Path, force: bool, keep_going: bool) -> None:
    """Build the site into OUT_DIR (created if needed).

    Refuses a non-empty folder it did not create unless --force, which
    replaces that folder's content; never writes outside OUT_DIR. A corpus
    with problems fails the build, unless --keep-going.
    """
    import time

    from rulebot.corpus import load as corpus
    from rulebot.site import build as site_module

    started = time.perf_counter()
    if keep_going:
        loaded = settings.usable_corpus()
    else:
        try:
            loaded = corpus.load(settings.corpus_dirs())
        except CorpusError as exc:
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            raise Failure(f"{exc.summary}: fix them, or leave out what they touch with --keep-going") from None
    report = site_module.build(loaded, out_dir, force=force, progress=lambda m: click.echo(m, err=True))
    elapsed = time.perf_counter() - started
    pages, entries, games = plural(report.pages, "page"), plural(report.entries, "entry", "entries"), plural(report.games, "game")
    click.echo(f"Built {pages} for {entries} of {games} in {out_dir} ({elapsed:.2f} s)")


@site.command(name="serve")
@click.argument("out_dir", type=click.Path(path_type=Path, file_okay=False), default="public", required=False)
@click.option("--port", default=0, type=click.IntRange(0, 65535), help="Port (default: a free one).")
def site_serve(out_dir: Path, port: int) -> None:
    """Preview a built site on 127.0.0.1 until Ctrl-C (OUT_DIR defaults to ./public, where `site build public/` writes).

    Ctrl-C is how the server ends, not an interruption: it exits 0.
    """
    from rulebot.site import server as site_server

    server = site_server.serve(out_dir, port=port)
    try:  # from the line that tells the address on: a Ctrl-C as soon as it is read stops the server as any later one
        click.echo(f"Serving {out_dir} at {server.url} (Ctrl-C to stop)")
        server.wait()
    except KeyboardInterrupt:  # its normal end: 0, where Ctrl-C interrupting any other command is 130
        click.echo("Stopped.", err=True)
    finally:
        server.close()
