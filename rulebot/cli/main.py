"""The `rulebot` command: the group, with its options and every command, and its entry point behind the quick path.

Each command parses its options, makes one or two core calls and prints;
they are kept by what they are for: those that answer (rulebot.cli.answers),
the curators' (rulebot.cli.curation), and those that look after rulebot's
files (rulebot.cli.upkeep). Core modules are imported inside the commands,
so that a command loads only what it needs.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from rulebot.cli import answers, curation, upkeep
from rulebot.cli.asking import GROUP_OPTIONS
from rulebot.cli.failures import RulebotGroup, exit_unexpected
from rulebot.cli.shared import Settings, click_options, with_group_options
from rulebot.version import __version__

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=RulebotGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="rulebot")
@click_options(GROUP_OPTIONS)
@click.pass_context
def cli(ctx: click.Context, corpora: tuple[Path, ...], no_shipped: bool, color: str) -> None:
    """Rules answers for board games, from a curated corpus of rules, FAQs and errata.

    \b
    Ask a question (the game is found from the question when not given):
      rulebot ask "can i trash assassination mission"
      rulebot ask --game catalyst "can i keep more than 8 coins"
      rulebot ask "molthar combien d'actions par tour"
    Look around:
      rulebot games               the games and their expansions
      rulebot list --game res-arcana --kind faq
      rulebot show dune-chaumurky
    Set up the table:
      rulebot setup res-arcana --players 3 --with perlae-imperii
    Curate:
      rulebot check               validate the corpus (FILE:LINE: message)
      rulebot import rules.md --game SLUG --source ID   draft entries from a document
      rulebot new --game SLUG --kind faq                start a new entry
      rulebot new-game SLUG --name NAME                 start a new game
      rulebot changes SLUG --since 2024-01-01           what is new or revised
      rulebot review SLUG         restate the drafts, one at a time
      rulebot index --rebuild     rebuild the search index

    The index is built on first use in the user cache directory and rebuilt
    whenever the corpus changes. --corpus and --no-shipped may also follow the
    name of a command that reads a corpus, and --color that of one that
    colours its output (rulebot list --color always).

    \b
    Exit status: 0 success (ask: a clear answer; ask --json: always, once printed),
    1 nothing found (ask), problems found (check) or a key not set (config get),
    2 an error, 3 no clear answer (ask), 70 an internal error, 130 interrupted
    (but Ctrl-C ends `site serve` with 0).
    """
    from rulebot.cli import messages

    messages.use("en")  # until a command chooses another language (`ask`)

    ctx.obj = Settings()
    ctx.obj.take(corpora, no_shipped, color)


@click.command(name="help")
@click.argument("command", nargs=-1, metavar="[COMMAND]...")
@click.pass_context
def help_(ctx: click.Context, command: tuple[str, ...]) -> None:
    """Show the help of rulebot, or of COMMAND (`rulebot help list`, `rulebot help config set`)."""
    assert ctx.parent is not None  # a command of the group
    shown = ctx.parent
    for name in command:
        group = shown.command
        if not isinstance(group, click.Group):
            raise click.UsageError(f"{shown.command_path} has no commands: `rulebot help {' '.join(command[:-1])}` is its help")
        _, found, _ = group.resolve_command(shown, [name])  # an unknown name: click's "No such command"
        assert found is not None
        shown = click.Context(found, info_name=found.name, parent=shown)
    click.echo(shown.get_help(), color=shown.color)


@click.command()
def version() -> None:
    """Print rulebot's version (as --version does)."""
    click.echo(f"rulebot, version {__version__}")


COMMANDS = (
    answers.ask, answers.show, answers.games, answers.list_, answers.setup, answers.play,
    curation.check, curation.import_, curation.new, curation.new_game, curation.changes, curation.review,
    upkeep.config_group, upkeep.index, upkeep.site, help_, version,
)
"""Every command of `rulebot` (`--help` lists them by name)."""
COLOURED = (answers.ask, answers.show, answers.games, answers.list_, answers.setup, answers.play, curation.changes)
"""The commands that colour what they print: they take the group's options after their name, `--color` too."""
READ_A_CORPUS = (
    curation.check, curation.import_, curation.new, curation.new_game, curation.review,
    upkeep.index, upkeep.config_set, upkeep.site_build,
)
"""The other commands that read a corpus: they take `--corpus` and `--no-shipped` after their name."""
for _command in COLOURED + READ_A_CORPUS:
    with_group_options(_command, color=_command in COLOURED)
for _command in COMMANDS:
    cli.add_command(_command)


def main() -> None:
    """Run the click command; report even unexpected errors in one line, never a traceback."""
    try:
        cli.main(prog_name="rulebot")
    except Exception as exc:  # the last line of defence
        if os.environ.get("RULEBOT_DEBUG"):
            raise
        exit_unexpected(exc)
