"""The `rulebot` command: a thin click layer over the core modules.

Each command parses its options, makes one or two core calls and prints.
Core modules are imported inside the commands, so that `rulebot ask` loads
only what answering needs.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from rulebot.version import __version__

from rulebot.cli import completion

from rulebot.cli import status
from rulebot.answering import warner
from rulebot.cli.output import COLOR_MODES, silence_stdout
from rulebot.errors import CorpusError, QueryError, RulebotError
from rulebot.corpus.kinds import KINDS
from rulebot.text import plural

if TYPE_CHECKING:
    from collections import Counter

    from rulebot.corpus.review import Review

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Settings:
    """What the group options decided, handed to every command."""

    def __init__(self, corpora: tuple[Path, ...], shipped: bool, color: bool = False):
        self.extra = corpora
        self.shipped = shipped
        self.color = color
        """Whether to print in colour (`--color`, as rulebot.cli.output.color decides it)."""

    def corpus_dirs(self) -> list[Path]:
        from rulebot.corpus.files import chosen_dirs

        dirs = chosen_dirs(self.extra, shipped=self.shipped)
        if not dirs:
            raise click.UsageError("no corpus: --no-shipped needs at least one --corpus DIR")
        return dirs

    def searcher(self):  # -> rulebot.search.ranking.Searcher
        from rulebot.answering import open_searcher

        return open_searcher(self.corpus_dirs(), notify=_notify)

    def own_dir(self) -> Path:
        """The corpus folder a curator's additions go to (rulebot.corpus.files.own_dir)."""
        from rulebot.corpus.files import own_dir

        return own_dir(self.extra)

    def usable_corpus(self):  # -> rulebot.corpus.model.Corpus
        """The corpus without what has problems, the user warned of them once (see rulebot.corpus.load.load_usable)."""
        from rulebot.corpus import load as corpus
        from rulebot.errors import corpus_warning

        loaded = corpus.load_usable(self.corpus_dirs())
        told = corpus_warning(loaded.problems, loaded.left_out)
        if told is not None:
            _warn(told)
        return loaded


def _notify(line: str) -> None:
    click.echo(line, err=True)


_warn = warner(_notify)


def _color() -> bool:
    """Whether the command running prints in colour (the group's --color)."""
    return click.get_current_context().find_object(Settings).color


def _style():
    from rulebot.cli.output import Style

    return Style(_color())


def _echo(text: str) -> None:
    """Print to standard output, coloured or not as --color says."""
    click.echo(text, color=_color())


def with_option(help: str):
    """The `--with EXP` option of the commands that answer questions."""
    return click.option(
        "-w", "--with", "with_", multiple=True, metavar="EXP", shell_complete=completion.expansion_slugs, help=help
    )


class Failure(click.ClickException):
    """An error rulebot reports: exit 2, as a usage error (click's own 1 is for a negative result)."""

    exit_code = status.ERROR


class Interrupted(click.ClickException):
    """Ctrl-C: "Aborted!" as click says it, with the shell's status for an interrupt (130)."""

    exit_code = status.INTERRUPTED

    def __init__(self) -> None:
        super().__init__("Aborted!")

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        click.echo(err=True)  # ends the line the terminal's ^C is on
        click.echo(self.message, err=True)


def kind_option(help: str, **kwargs):
    """The `--kind` option: one of the kinds, else a usage error naming them (with the one meant, if close)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is None or value in KINDS:
            return value
        from rulebot.text import meant, unknown

        raise click.BadParameter(unknown("kind", value, KINDS, meant(value, {k: [k] for k in KINDS})))

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        return [k for k in KINDS if k.startswith(incomplete)]

    return click.option("-k", "--kind", metavar="KIND", callback=check, shell_complete=complete, help=help, **kwargs)


def click_error(exc: RulebotError) -> click.ClickException:
    """The one-line click error a core error is reported as (exit 2, a refused question as a usage error),
    after a corpus's problems, one per line. Also what rulebot.cli.quick reports."""
    if isinstance(exc, CorpusError):
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        return Failure(f"{exc} (run `rulebot check` for the full list)")
    if isinstance(exc, QueryError):
        return click.UsageError(str(exc))
    return Failure(str(exc))


@contextlib.contextmanager
def _how_commands_end() -> Iterator[None]:
    """A core error becomes a one-line click error, Ctrl-C exits 130, and a closed pipe (`| head`) exits 0 quietly."""
    try:
        yield
    except RulebotError as exc:
        raise click_error(exc) from None
    except KeyboardInterrupt:
        raise Interrupted() from None
    except BrokenPipeError:
        silence_stdout()
        raise click.exceptions.Exit(status.OK) from None


class RulebotGroup(click.Group):
    """Ends every command alike (see _how_commands_end), from parsing its options (`--help`) to its last line."""

    def make_context(self, *args, **kwargs) -> click.Context:  # type: ignore[no-untyped-def]
        with _how_commands_end():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        with _how_commands_end():
            return super().invoke(ctx)


@click.group(cls=RulebotGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="rulebot")
@click.option(
    "--corpus",
    "corpora",
    multiple=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Add a corpus folder on top of the shipped one (repeatable; also $RULEBOT_CORPUS, a path list);"
    " what `new` and `new-game` add goes to the last one.",
)
@click.option("--no-shipped", is_flag=True, help="Leave out the corpus shipped with rulebot.")
@click.option(
    "--color",
    type=click.Choice(COLOR_MODES),
    default="auto",
    show_default=True,
    help="Colour the output: always, never, or on a terminal only (not with NO_COLOR set, nor TERM=dumb).",
)
@click.pass_context
def cli(ctx: click.Context, corpora: tuple[Path, ...], no_shipped: bool, color: str) -> None:
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
      rulebot import rules.md --game SLUG --source ID   draft entries from a document
      rulebot new --game SLUG --kind faq                start a new entry
      rulebot new-game SLUG --name NAME --title DOC     start a new game
      rulebot changes SLUG --since 2024-01-01           what is new or revised
      rulebot index --rebuild     rebuild the search index

    The index is built on first use in the user cache directory and rebuilt
    whenever the corpus changes.

    \b
    Exit status: 0 success (ask: a clear answer; ask --json: always, once printed),
    1 nothing found (ask) or problems found (check), 2 an error, 3 no clear
    answer (ask), 70 an internal error, 130 interrupted.
    """
    from rulebot.cli.output import color as decide_color

    ctx.obj = Settings(corpora, shipped=not no_shipped, color=decide_color(color))


@cli.command()
@click.argument("question", nargs=-1, required=True)
@click.option(
    "-g", "--game", metavar="SLUG", shell_complete=completion.game_slugs, help="Only this game (see `rulebot games`)."
)
@click.option("-n", "--limit", default=3, show_default=True, type=click.IntRange(1, 50), help="How many entries to show.")
@with_option("An expansion in play (repeatable); 'base' with --game for none. Default: `rulebot config`.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object: {query, game, confident, results: [...]}; exit 0 once printed."
)
@click.option("--official-only", is_flag=True, help="Leave out house rules (kind house-rule, or a source of trust house).")
@click.pass_context
def ask(
    ctx: click.Context,
    question: tuple[str, ...],
    game: str | None,
    limit: int,
    with_: tuple[str, ...],
    as_json: bool,
    official_only: bool,
) -> None:
    """Answer a rules question, best ruling first, with its source.

    QUESTION is free text: a card name, a sloppy question, typos, French.
    Quotes are optional: `rulebot ask chamurky tie` works. `rulebot ask -`
    reads the question from standard input (all of it, as one question).

    With expansions in play (--with, or `rulebot config set GAME.with EXP`),
    entries of other expansions of that game are left out, and a rule an
    expansion changes is shown after the change. Without any, every entry
    counts, and an expansion named in the question is taken as in play.

    Exits 0 for a clear answer, 3 when no entry answers clearly (the closest
    are shown), 1 when nothing matches at all; with --json, 0 whenever the
    object is printed (its "confident" and "results" tell the rest).
    """
    from rulebot import answering
    from rulebot.cli import output

    settings: Settings = ctx.obj
    text = _stdin_question() if question == ("-",) else " ".join(question)
    with settings.searcher() as searcher:
        answer = answering.answer(searcher, text, game=game, limit=limit, with_=with_, official_only=official_only)
    _echo(output.answer_output(answer, as_json=as_json, colored=settings.color))
    ctx.exit(output.answer_status(answer, as_json=as_json))


def _stdin_question() -> str:
    """The question `ask -` reads: all of standard input (UTF-8); a usage error when there is none."""
    stdin = getattr(sys.stdin, "buffer", None)
    text = stdin.read().decode("utf-8", "replace") if stdin else sys.stdin.read()
    if not text.strip():
        raise click.UsageError("standard input is empty: `rulebot ask -` reads the question from it")
    return text


@cli.command()
@click.argument("entry_id", metavar="ID", shell_complete=completion.entry_ids)
@click.option("--json", "as_json", is_flag=True, help="Print the entry as a JSON object.")
@click.pass_obj
def show(settings: Settings, entry_id: str, as_json: bool) -> None:
    """Show one entry in full, with everything that links to it.

    ID may be typed in any case; an unknown one gets the close ids.
    """
    from rulebot.cli import output

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
    _echo("\n".join(output.fit(lines, output.width())))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print {games: [...]} as JSON.")
@click.pass_obj
def games(settings: Settings, as_json: bool) -> None:
    """List the games and their expansions, with their entry counts."""
    from rulebot.cli import output

    with settings.searcher() as searcher:
        found = [{**g, "expansions": _expansion_counts(searcher, g)} for g in searcher.games.values()]
    if as_json:
        keep = ("slug", "name", "language", "aliases", "expansions", "entries")
        click.echo(output.to_json({"games": [{k: g[k] for k in keep} for g in found]}))
        return
    style = _style()
    for game in found:
        expansions = ", ".join(
            f"{e['name']} ({e['slug']}, {plural(e['entries'], 'entry', 'entries') if e['entries'] else 'no entries yet'})"
            for e in game["expansions"]
        )
        line = f"{style(game['slug'], output.BOLD)}  {game['name']} – {plural(game['entries'], 'entry', 'entries')}"
        _echo(line + (f"; expansions: {expansions}" if expansions else ""))


def _expansion_counts(searcher, game: dict) -> list[dict]:
    """A game's expansions ({slug, name}), each with its number of entries."""
    in_game = searcher.scorer.docs("game", game["slug"])
    return [{**e, "entries": len(in_game & searcher.scorer.docs("expansion", e["slug"]))} for e in game["expansions"]]


@cli.command(name="list")
@click.option("-g", "--game", metavar="SLUG", shell_complete=completion.game_slugs, help="Only this game.")
@kind_option(f"Only this kind ({', '.join(KINDS)}).")
@click.option("-e", "--expansion", metavar="SLUG", help="Only this expansion ('base' for the base game).")
@click.option("--json", "as_json", is_flag=True, help='Print {"results": [...]} with the same objects as `ask --json`.')
@click.pass_obj
def list_(settings: Settings, game: str | None, kind: str | None, expansion: str | None, as_json: bool) -> None:
    """List entries: id, title and kind, in corpus order."""
    from rulebot.cli import output

    with settings.searcher() as searcher:
        if game is not None:
            searcher.check_game(game)
        if expansion is not None:
            _check_expansion(searcher, expansion, game)
        found = searcher.entries(game=game, kind=kind, expansion=expansion)
    if as_json:
        click.echo(output.to_json({"results": [output.public(e) for e in found]}))
        return
    style = _style()
    for entry in found:
        _echo(f"{entry['id']}  {entry['title']} {style('[' + entry['kind'] + ']', output.DIM)}")
    if not found:
        click.echo("No entries match.", err=True)


def _check_expansion(searcher, expansion: str, game: str | None) -> None:
    """A usage error unless `expansion` is `base` or an expansion (of the game, when given)."""
    from rulebot.text import meant, unknown

    names = {"base": ["base game"]}
    for slug, data in searcher.games.items():
        if game in (None, slug):
            names.update((e["slug"], [e["name"]]) for e in data["expansions"])
    if expansion not in names:
        message = unknown("expansion", expansion, names, meant(expansion, names), of=game or "")
        raise click.BadParameter(message, param_hint="'-e' / '--expansion'")


@cli.command()
@click.argument("corpus_dirs", nargs=-1, type=click.Path(path_type=Path), metavar="[CORPUS_DIR]...")
@click.option("--strict", is_flag=True, help="Fail on warnings too: draft entries, ambiguous citations.")
@click.option(
    "--sources",
    "sources_dir",
    metavar="DIR",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Check that each cited section is in your copy of its source document (DIR/<source-id>.md or .txt).",
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print one object: {"ok", "problems": [{"file", "line", "message", "severity"}], "summary"}.'
)
@click.pass_context
def check(ctx: click.Context, corpus_dirs: tuple[Path, ...], strict: bool, sources_dir: Path | None, as_json: bool) -> None:
    """Validate a corpus and report every problem as FILE:LINE: message.

    Without CORPUS_DIR, checks the corpora rulebot uses (the shipped one,
    your own corpus folder and any --corpus). Exits 1 when there is a problem, 0 with a summary when none.
    Draft entries (`rulebot import`) are counted in a warning; --strict lists
    them as problems. --sources DIR also reports dangling citations (a section
    not found in its document) and, as warnings, ambiguous ones. --json prints
    every problem and warning in one object (same exit status).
    """
    from collections import Counter

    from rulebot.corpus import review as corpus_review

    dirs = list(corpus_dirs) or ctx.obj.corpus_dirs()
    review = corpus_review.review(dirs, strict=strict, sources=sources_dir)
    loaded, problems = review.corpus, review.problems
    counts = Counter(e.game for e in loaded.entries.values())
    if as_json:
        from rulebot.cli import output

        click.echo(output.to_json(_check_json(review, counts)))
        ctx.exit(status.NEGATIVE if problems else status.OK)
    for warning in review.warnings:
        _warn(warning)
    if review.drafts:
        drafts = plural(len(review.drafts), "draft entry", "draft entries")
        _warn(f"{drafts}, whose text is still the document's own (--strict lists them)")
    for note in review.notes:
        click.echo(note, err=True)
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        found = click.ClickException(f"{plural(len(problems), 'problem')} found")
        found.exit_code = status.NEGATIVE
        raise found
    per_game = ", ".join(f"{slug} {counts.get(slug, 0)}" for slug in loaded.games)
    entries, games = plural(len(loaded.entries), "entry", "entries"), plural(len(loaded.games), "game")
    click.echo(f"OK: {entries} in {games} ({per_game})")


def _check_json(review: Review, counts: Counter[str]) -> dict:
    """The object `check --json` prints: problems are errors, warnings and drafts are warnings
    (with --strict they are among the problems by then, so errors)."""
    found = [(p, "error") for p in review.problems] + [(p, "warning") for p in [*review.warnings, *review.drafts]]
    return {
        "ok": not review.problems,
        "problems": [{"file": str(p.path), "line": p.line, "message": p.message, "severity": severity} for p, severity in found],
        "summary": {
            "entries": len(review.corpus.entries),
            "games": {slug: counts.get(slug, 0) for slug in review.corpus.games},
            "errors": len(review.problems),
            "warnings": len(found) - len(review.problems),
            "notes": review.notes,
        },
    }


@cli.command()
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
      :show ID           show one entry in full
      :see N             follow the Nth "See also" of the last entry
      :help, :quit       (Ctrl-D leaves too; Ctrl-C cancels the line)

    Tab completes card names, titles, entry ids and commands. The index is
    opened once, so every answer is instant; the lines typed are kept across
    sessions in the user data directory ($RULEBOT_DATA_DIR overrides it).
    Lines piped in are answered one after the other, without a prompt.
    """
    from rulebot.cli import play as playing
    from rulebot.answering import expansions_in_play

    with settings.searcher() as searcher:
        if game is not None:
            searcher.check_game(game)
        session = playing.PlaySession(searcher, game=game, expansions=expansions_in_play(searcher, with_, game), style=_style())
        if sys.stdin.isatty() and sys.stdout.isatty():
            playing.run(session, playing.history_path(), echo=_echo)
        else:
            playing.run_plain(session, sys.stdin, echo=_echo)


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


@cli.command(name="import")
@click.argument("document", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("-g", "--game", required=True, metavar="SLUG", shell_complete=completion.game_slugs, help="The game the document is for.")
@click.option("-s", "--source", "source_id", required=True, metavar="ID", help="The source the drafts cite (declared in game.toml).")
@click.option("-o", "--out", type=click.Path(path_type=Path, dir_okay=False), help="Write the drafts to FILE instead of printing them.")
@click.option("--force", is_flag=True, help="With --out: replace FILE if it exists.")
@click.option("--append", is_flag=True, help="Add the drafts to the source's entries file in the corpus, where rulebot finds them.")
@click.pass_obj
def import_(settings: Settings, document: Path, game: str, source_id: str, out: Path | None, force: bool, append: bool) -> None:
    """Draft corpus entries from a rules or FAQ document (.md, or plain text).

    Headings, bold lead-ins (**Name** — text), Q:/A: pairs and numbered rules
    (702.19b) become entries; See also lines, `see rule 702.19` and links to
    headings become see_also; redirects (X - See Y.) become aliases. Every
    entry is marked `draft: true` until a curator restates it.

    The drafts are printed, written to --out FILE, or with --append added to
    the source's entries file (of a game started with `rulebot new-game`, say),
    so that `rulebot ask` finds them at once.
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import importing as importer
    from rulebot.corpus import scaffold

    if force and out is None:
        raise click.UsageError("--force goes with --out")
    if append and out is not None:
        raise click.UsageError("--append and --out are two places for the drafts: choose one")
    loaded, _ = corpus.check(settings.corpus_dirs())
    drafted = importer.import_document(document, loaded, game, source_id)
    written = out
    if append:
        written = scaffold.writable_entries_file(scaffold.entries_file(loaded, game, source_id), game, instead=", write the drafts elsewhere (--out FILE)")
        # After entries already there, the notes that open the drafts would end the last entry's text.
        scaffold.append_text(written, drafted.to_markdown() if not scaffold.has_entries(written) else drafted.entries_markdown())
    elif out is None:
        click.echo(drafted.to_markdown(), nl=False)
    else:
        scaffold.write_new(out, drafted.to_markdown(), force=force)
    click.echo(drafted.summary() + (f"; written to {written}" if written else ""), err=True)


@cli.command()
@click.option("-g", "--game", required=True, metavar="SLUG", shell_complete=completion.game_slugs, help="The game of the entry.")
@kind_option(f"The entry's kind ({', '.join(KINDS)}).", required=True)
@click.option("-s", "--source", "source_id", metavar="ID", help="The source it restates (default: the game's first).")
@click.option("-t", "--title", help="Its title (also gives its id).")
@click.option("--append", is_flag=True, help="Append it to the source's entries file instead of printing it.")
@click.pass_obj
def new(settings: Settings, game: str, kind: str, source_id: str | None, title: str | None, append: bool) -> None:
    """Start a new entry: a block with a fresh unique id, ready to fill in.

    The section and text are left empty: `rulebot check` points at them
    until they are written. With --append, a house rule goes to the game's
    house-rules folder in your corpus folder (the last --corpus DIR, else the
    user corpus folder), made when missing; other entries to their source's
    file, except in the corpus installed with rulebot, which is never changed.
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    loaded, _ = corpus.check(settings.corpus_dirs())
    block = scaffold.scaffold(loaded, game, kind, source_id, title, own_dir=settings.own_dir() if append else None)
    if append:
        path = scaffold.append(block)
        click.echo(f"{block.id} appended to {path}", err=True)
    else:
        click.echo(block.block, nl=False)


@cli.command(name="new-game")
@click.argument("slug")
@click.option("-n", "--name", required=True, help="The game's name, as players know it.")
@click.option("-s", "--source", "source_id", default="rules", show_default=True, metavar="ID", help="The id of its first source document.")
@click.option("-t", "--title", required=True, help="The title of that document.")
@click.option("--edition", default="", help="The document's edition, version or revision.")
@click.option("--date", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="The document's date (YYYY-MM-DD).")
@click.option("--language", default="en", show_default=True, metavar="XX", help="The language of the game's sources (two letters).")
@click.option("--id-prefix", metavar="PREFIX", help="What every entry id of the game starts with (default: the slug).")
@click.pass_obj
def new_game(
    settings: Settings, slug: str, name: str, source_id: str, title: str, edition: str, date: str | None, language: str, id_prefix: str | None
) -> None:
    """Start a new game: its folder, with a game.toml declaring the game and its first source.

    The folder goes to your corpus folder (the last --corpus DIR, else the
    user corpus folder, read by every command from then on). Then draft its
    entries from the rules document:

    \b
      rulebot new-game x-wing --name "Star Wars: X-Wing" --source rules-reference --title "Rules Reference"
      rulebot import rules.md --game x-wing --source rules-reference --append
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    loaded, _ = corpus.check(settings.corpus_dirs())
    folder = scaffold.new_game(
        loaded, settings.own_dir(), slug, name=name, source=source_id, title=title,
        id_prefix=id_prefix, edition=edition, date=date, language=language,
    )
    click.echo(f"{slug} started in {folder}; next: rulebot import DOCUMENT --game {slug} --source {source_id} --append", err=True)


@cli.command()
@click.argument("game", metavar="GAME", shell_complete=completion.game_slugs)
@click.option("--since", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="Only entries dated DATE (YYYY-MM-DD) or later.")
@click.option("--json", "as_json", is_flag=True, help='Print {"game", "since", "results": [...]}, entries with "changed" and "because".')
@click.pass_obj
def changes(settings: Settings, game: str, since: str | None, as_json: bool) -> None:
    """List a game's entries new or revised since a date, newest first.

    An entry's date is its `revised` date, else its source's date. Without
    --since, every dated entry is listed.
    """
    from rulebot.corpus import changes as changes_core
    from rulebot.cli import output

    loaded = settings.usable_corpus()
    found = changes_core.changes(loaded, game, since)
    if as_json:
        from rulebot.index.payload import entry_payload

        results = [output.public(entry_payload(loaded, c.entry), changed=c.date, because=c.because) for c in found]
        click.echo(output.to_json({"game": game, "since": since, "results": results}))
        return
    style = _style()
    name = loaded.games[game].name
    _echo(f"{name}: {plural(len(found), 'entry', 'entries')} new or revised" + (f" since {since}" if since else ""))
    for change in found:
        why = "revised" if change.because == changes_core.REVISED else "source date"
        _echo(f"{change.date}  {change.entry.id}  {change.entry.title} {style('[' + change.entry.kind + ', ' + why + ']', output.DIM)}")


def _date(value: str | None) -> str | None:
    """A --since value checked: YYYY-MM-DD, else a usage error."""
    if value is None:
        return None
    from rulebot.corpus.changes import parse_date
    from rulebot.errors import CurationError

    try:
        return parse_date(value)
    except CurationError as exc:
        raise click.BadParameter(str(exc)) from None


@cli.command()
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

    opened = open_index(settings.corpus_dirs(), rebuild=rebuild, progress=progress, warn=_warn)
    where = opened.path or "memory"
    state = f"built in {time.perf_counter() - started:.2f} s" if opened.built else "already up to date"
    click.echo(f"Index of {plural(opened.meta['count'], 'entry', 'entries')} at {where}: {state}")


@cli.group()
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
            raise Failure(f"{exc}: fix them, or leave out what they touch with --keep-going") from None
    report = site_module.build(loaded, out_dir, force=force, progress=lambda m: click.echo(m, err=True))
    elapsed = time.perf_counter() - started
    pages, entries, games = plural(report.pages, "page"), plural(report.entries, "entry", "entries"), plural(report.games, "game")
    click.echo(f"Built {pages} for {entries} of {games} in {out_dir} ({elapsed:.2f} s)")


@site.command(name="serve")
@click.argument("out_dir", type=click.Path(path_type=Path, file_okay=False), default="public", required=False)
@click.option("--port", default=0, type=click.IntRange(0, 65535), help="Port (default: a free one).")
def site_serve(out_dir: Path, port: int) -> None:
    """Preview a built site on 127.0.0.1 until Ctrl-C (OUT_DIR defaults to ./public, where `site build public/` writes)."""
    from rulebot.site import build as site_module

    server = site_module.serve(out_dir, port=port)
    click.echo(f"Serving {out_dir} at {server.url} (Ctrl-C to stop)")
    try:
        server.wait()
    except KeyboardInterrupt:
        click.echo("Stopped.", err=True)
    finally:
        server.close()


def main() -> None:
    """Entry point: run the CLI; report even unexpected errors in one line, never a traceback."""
    try:
        cli.main(prog_name="rulebot")
    except Exception as exc:  # the last line of defence
        if os.environ.get("RULEBOT_DEBUG"):
            raise
        exit_unexpected(exc)


def exit_unexpected(exc: Exception) -> NoReturn:
    """Report an error no command expected in one line, and exit 70 (EX_SOFTWARE). Also what rulebot.cli.quick reports."""
    click.echo(f"Error: unexpected {type(exc).__name__}: {exc} (set RULEBOT_DEBUG=1 for details)", err=True)
    sys.exit(status.INTERNAL)
