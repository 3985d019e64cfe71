"""How every `rulebot` command ends when it does not succeed: one line, the right exit status, no traceback.

A core error becomes a one-line click error (click_error), Ctrl-C exits 130
(Interrupted), a closed pipe (`| head`) exits 0 quietly, output that cannot be
written (a full disk) exits 2, and an error no command expected exits 70
(exit_unexpected). The group (RulebotGroup) ends
every command so, and the quick path (rulebot.cli.quick) reports its
errors with the same functions.
"""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Iterator
from typing import Any, NoReturn

import click

from rulebot.cli import status
from rulebot.cli.output import silence_stdout
from rulebot.errors import CorpusError, QueryError, RulebotError


class Failure(click.ClickException):
    """An error rulebot reports: exit 2, as a usage error (click's own 1 is for a negative result)."""

    exit_code = status.ERROR

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        from rulebot.cli.messages import _
        from rulebot.text import printable

        click.echo(printable(_("Error: {message}").format(message=self.format_message())), file=file, err=True)


class Interrupted(click.ClickException):
    """Ctrl-C: "Aborted!" as click says it, with the shell's status for an interrupt (130)."""

    exit_code = status.INTERRUPTED

    def __init__(self) -> None:
        super().__init__("Aborted!")

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def]
        click.echo(err=True)  # ends the line the terminal's ^C is on
        click.echo(self.message, err=True)


def click_error(exc: RulebotError) -> click.ClickException:
    """The one-line click error a core error is reported as (exit 2, a refused question as a usage error),
    after a corpus's problems, one per line."""
    if isinstance(exc, CorpusError):
        from rulebot.text import printable

        for problem in exc.problems:
            click.echo(printable(str(problem)), err=True)
        return Failure(f"{exc.summary} (run `rulebot check` for the full list)")
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
    except OSError as exc:
        if not cannot_write(exc):
            raise
        silence_stdout()
        raise Failure(unwritten(exc)) from None


UNWRITABLE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF})
"""What an OSError that reaches a command's end says when the output could not be written: every file rulebot
writes itself reports its own (rulebot.errors.WriteError), so one of these is what it prints to."""


def unwritten(exc: OSError) -> str:
    """What is said of output that cannot be written (`cannot_write`)."""
    return f"cannot write the output: {exc.strerror}"


def cannot_write(exc: BaseException) -> bool:
    """Whether an error is one of output that cannot be written (UNWRITABLE): `rulebot ask x > /dev/full`."""
    return isinstance(exc, OSError) and exc.errno in UNWRITABLE


class RulebotGroup(click.Group):
    """Ends every command alike (see _how_commands_end), from parsing its options (`--help`) to its last line;
    given no command, prints its help as `--help` does."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        # Run without a command, so that invoke() can print the help where click would err "Missing command".
        kwargs.setdefault("invoke_without_command", True)
        kwargs.setdefault("subcommand_metavar", "COMMAND [ARGS]...")  # what it is for; without one, it only shows its help
        super().__init__(*args, **kwargs)

    def make_context(self, *args, **kwargs) -> click.Context:  # type: ignore[no-untyped-def]
        with _how_commands_end():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _how_commands_end():
            result = super().invoke(ctx)
        if ctx.invoked_subcommand is None:
            # No command once the options are read (`rulebot`, `rulebot --color never`, `rulebot config`): the help,
            # as pip prints it (stdout, 0), where click errs (stderr, 2). Completing a line never invokes: no help then.
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(status.OK)
        return result

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # Whoever calls it (the entry point, a test's runner), its output is cleaned (rulebot.cli.terminal).
        from rulebot.cli.terminal import cleaned_output

        with cleaned_output():
            return super().main(*args, **kwargs)


def exit_unexpected(exc: Exception) -> NoReturn:
    """Report an error no command expected in one line, and exit 70 (EX_SOFTWARE); output that cannot be written
    (met as the last output is flushed) exits 2, as within a command."""
    if cannot_write(exc):
        silence_stdout()
        click.echo(f"Error: {unwritten(exc)}", err=True)  # type: ignore[arg-type]
        sys.exit(status.ERROR)
    click.echo(f"Error: unexpected {type(exc).__name__}: {exc} (set RULEBOT_DEBUG=1 for details)", err=True)
    sys.exit(status.INTERNAL)
