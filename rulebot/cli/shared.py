"""What every `rulebot` command shares: the settings the group's options decide, printing, and options declared alike.

The group (rulebot.cli.main) hands a Settings to every command; the
commands print through `echo` (coloured as `--color` says), tell the user
what happens on standard error through `notify` and `warn`, and declare
the options several of them have with the functions here (`ask`'s and the
group's from their tables, rulebot.cli.asking).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulebot.answering import warner
from rulebot.cli import completion
from rulebot.cli.asking import FLAG, GROUP_OPTIONS, VALUES, WITH, Option
from rulebot.corpus.kinds import KINDS

if TYPE_CHECKING:
    from rulebot.cli.output import Style
    from rulebot.corpus.model import Corpus
    from rulebot.search.ranking import Searcher


@dataclass
class Settings:
    """What the group's options decided, handed to every command: given before the command's name, after it, or both."""

    extra: tuple[Path, ...] = ()
    """The `--corpus` folders, in the order given."""
    shipped: bool = True
    """Whether the shipped corpus is read (no `--no-shipped`)."""
    color: bool = False
    """Whether to print in colour (`--color`, as rulebot.cli.output.color decides it)."""

    def take(self, corpora: Iterable[Path] = (), no_shipped: bool = False, color: str | None = None) -> None:
        """Take the group's options as given at one place of the command line (GROUP_OPTIONS, by parameter name):
        `--corpus` folders add up, `--no-shipped` anywhere counts, the `--color` given last wins."""
        from rulebot.cli.output import color as decide_color

        self.extra = (*self.extra, *corpora)
        self.shipped = self.shipped and not no_shipped
        if color is not None:
            self.color = decide_color(color)

    def corpus_dirs(self) -> list[Path]:
        from rulebot.corpus.files import chosen_dirs

        dirs = chosen_dirs(self.extra, shipped=self.shipped)
        if not dirs:
            raise click.UsageError("no corpus: --no-shipped needs at least one --corpus DIR")
        return dirs

    def searcher(self) -> Searcher:
        from rulebot.answering import open_searcher

        return open_searcher(self.corpus_dirs(), notify=notify)

    def own_dir(self) -> Path:
        """The corpus folder a curator's additions go to (rulebot.corpus.files.own_dir)."""
        from rulebot.corpus.files import own_dir

        return own_dir(self.extra)

    def usable_corpus(self) -> Corpus:
        """The corpus without what has problems, the user warned of them once (see rulebot.corpus.load.load_usable)."""
        from rulebot.corpus import load as corpus
        from rulebot.errors import corpus_warning

        loaded = corpus.load_usable(self.corpus_dirs())
        told = corpus_warning(loaded.problems, loaded.left_out)
        if told is not None:
            warn(told)
        return loaded


def notify(line: str) -> None:
    """Tell the user one line, on standard error (as a terminal may be given it: rulebot.text.printable)."""
    from rulebot.text import printable

    click.echo(printable(line), err=True)


warn = warner(notify)
"""Tell the user a warning, on standard error."""


def color() -> bool:
    """Whether the command running prints in colour (the group's --color)."""
    return click.get_current_context().find_object(Settings).color


def current_style() -> Style:
    """The styling of the command running, coloured or not as --color says."""
    from rulebot.cli.output import Style

    return Style(color())


def echo(text: str) -> None:
    """Print to standard output, coloured or not as --color says; corpus text is in it, so only
    as a terminal may be given it (rulebot.text.printable)."""
    from rulebot.text import printable

    colored = color()
    click.echo(printable(text, styles=colored), color=colored)


def click_options(options: Iterable[Option]) -> Callable:
    """Declare a table's options (rulebot.cli.asking) on a click command, in the table's order."""

    def declare(command: Callable) -> Callable:
        for option in reversed(tuple(options)):
            command = click_option(option)(command)
        return command

    return declare


def click_option(option: Option, **changes: object) -> Callable:
    """The click declaration of an option of a table (rulebot.cli.asking), with `changes` to its attributes."""
    attributes: dict[str, object] = {"help": option.help}
    if option.takes == FLAG:
        attributes["is_flag"] = True
    elif option.takes == VALUES:
        attributes["multiple"] = True
    if option.metavar is not None:
        attributes["metavar"] = option.metavar
    if option.default is not None:
        attributes["default"] = option.default
    if option.show_default:
        attributes["show_default"] = True
    if option.choices:
        attributes["type"] = click.Choice(option.choices)
    elif option.between is not None:
        attributes["type"] = click.IntRange(*option.between)
    elif option.folder:
        attributes["type"] = click.Path(path_type=Path, file_okay=False)
    if option.complete:
        attributes["shell_complete"] = getattr(completion, option.complete)
    return click.option(*option.names, option.dest, **{**attributes, **changes})


def with_group_options(command: click.Command) -> None:
    """Give a command (and each of its own, for a group) the group's options (GROUP_OPTIONS), after its own:
    `rulebot list --color always` as `rulebot --color always list`. What they say is added to the Settings
    the group made (Settings.take); given nowhere, they leave it as it is."""

    def take(ctx: click.Context, param: click.Parameter, value: object) -> None:
        # ensure_object: completing a line, click parses without running the group, which makes the Settings
        ctx.ensure_object(Settings).take(**{param.name: value})  # type: ignore[arg-type, dict-item]

    for option in GROUP_OPTIONS:
        click_option(option, default=None, show_default=False, expose_value=False, callback=take)(command)
    for sub in getattr(command, "commands", {}).values():
        with_group_options(sub)


def with_option(help: str) -> Callable:
    """The `--with EXP` option of the commands that answer questions, with a help of their own."""
    return click_option(WITH, help=help)


def kind_option(help: str, **kwargs: object) -> Callable:
    """The `--kind` option: one of the kinds, else a usage error naming them (with the one meant, if close)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        from rulebot.corpus.kinds import check_kind
        from rulebot.errors import UnknownKindError

        try:
            if value is not None:
                check_kind(value)
        except UnknownKindError as exc:  # told before the corpus is read, as click tells an option's bad value
            raise click.BadParameter(str(exc)) from None
        return value

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        return [k for k in KINDS if k.startswith(incomplete)]

    return click.option("-k", "--kind", metavar="KIND", callback=check, shell_complete=complete, help=help, **kwargs)

