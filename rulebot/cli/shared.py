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
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulebot.answering import warner
from rulebot.cli import completion
from rulebot.cli.asking import FLAG, GROUP_OPTIONS, VALUES, WITH, Option
from rulebot.corpus.kinds import KINDS

if TYPE_CHECKING:
    from rulebot.answering import Searcher
    from rulebot.cli.output import Style
    from rulebot.corpus.model import Corpus

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)
"""What a click decorator takes and gives back (as click types its own): a command's function, or the command."""


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

    def corpus_dirs(self, making: bool = False) -> list[Path]:
        """The corpus folders to read. A `--corpus` folder that is not there is a usage error (a folder named
        wrong would leave its games out of every answer), unless the command is `making` it (`new-game`, `new
        --append`); a $RULEBOT_CORPUS one is only warned of, as the corpus is loaded (it may name one not made yet)."""
        from rulebot.corpus.files import chosen_dirs

        if not making:
            self.check_folders()
        dirs = chosen_dirs(self.extra, shipped=self.shipped)
        if not dirs:
            raise click.UsageError("no corpus: --no-shipped needs at least one --corpus DIR")
        return dirs

    def check_folders(self) -> None:
        """A usage error for a `--corpus` folder that is not there (rulebot.cli.shared.Settings.corpus_dirs)."""
        for folder in self.extra:
            if not folder.exists():
                raise click.UsageError(f"no corpus folder {str(folder)!r}: no such folder (`rulebot --corpus DIR new-game` starts one)")

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
    return click.get_current_context().ensure_object(Settings).color


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


def click_options(options: Iterable[Option]) -> Callable[[FC], FC]:
    """Declare a table's options (rulebot.cli.asking) on a click command, in the table's order."""

    def declare(command: FC) -> FC:
        for option in reversed(tuple(options)):
            command = click_option(option)(command)
        return command

    return declare


def click_option(option: Option, **changes: object) -> Callable[[FC], FC]:
    """The click declaration of an option of a table (rulebot.cli.asking), with `changes` to its attributes."""
    attributes: dict[str, Any] = {"help": option.help}  # click.option takes **attrs: Any
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
        attributes["type"] = click.Choice(option.choices, case_sensitive=False)  # ("FR" as "fr", as the Python API takes it)
    elif option.between is not None:
        attributes["type"] = click.IntRange(*option.between)
    elif option.folder:
        attributes["type"] = click.Path(path_type=Path, file_okay=False)
    if option.complete:
        attributes["shell_complete"] = getattr(completion, option.complete)
    return click.option(*option.names, option.dest, **{**attributes, **changes})


def with_group_options(command: click.Command, *, color: bool) -> None:
    """Give a command that reads a corpus the group's options (GROUP_OPTIONS) after its own: `rulebot list
    --corpus DIR` as `rulebot --corpus DIR list`; `--color` only when `color`, for a command that colours
    what it prints. A command that would ignore them (`version`, `config get`) does not take them: accepted
    and ignored, they would mislead, and fill its help. What they say is added to the Settings the group
    made (Settings.take); given nowhere, they leave it as it is."""

    def take(ctx: click.Context, param: click.Parameter, value: object) -> None:
        # ensure_object: completing a line, click parses without running the group, which makes the Settings.
        # The value is of the type of the option named (click converts it): Settings.take's parameter of that name.
        ctx.ensure_object(Settings).take(**{param.name: value})  # type: ignore[arg-type]

    for option in GROUP_OPTIONS:
        if color or option.dest != "color":
            click_option(option, default=None, show_default=False, expose_value=False, callback=take)(command)


def with_option(help: str) -> Callable[[FC], FC]:
    """The `--with EXP` option of the commands that answer questions, with a help of their own."""
    return click_option(WITH, help=help)


def bad_value(ctx: click.Context, param: click.Parameter | str, exc: Exception) -> click.BadParameter:
    """A core error about an option's value (an unknown kind, expansion) told as click tells a bad value,
    with the usage and the option named: `Invalid value for '-e' / '--expansion': …`. `param`: the option,
    or its parameter name."""
    if isinstance(param, str):
        param = next(p for p in ctx.command.params if p.name == param)
    return click.BadParameter(str(exc), ctx=ctx, param=param)


def kind_option(help: str, **kwargs: Any) -> Callable[[FC], FC]:
    """The `--kind` option: one of the kinds, else a usage error naming them (with the one meant, if close)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        from rulebot.corpus.kinds import check_kind
        from rulebot.errors import UnknownKindError

        try:
            return None if value is None else check_kind(value)
        except UnknownKindError as exc:  # told before the corpus is read
            raise bad_value(ctx, param, exc) from None

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
        return [k for k in KINDS if k.startswith(incomplete)]

    return click.option("-k", "--kind", metavar="KIND", callback=check, shell_complete=complete, help=help, **kwargs)

