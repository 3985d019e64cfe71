"""The `rulebot` command's entry point: a question is answered without loading click.

`rulebot ask …` is what a player types at the table, and the answer should
come at once; importing click and declaring the command tree was about a
third of a cold answer. So a command line of `ask` that rulebot.cli.asking
reads as click would (its options and the group's, before it or after, from
the tables click's commands are declared from) is answered here, by the same
call as click's `ask` (rulebot.cli.asking.run). Every other command line,
and any failure on the way, goes to click (rulebot.cli.main), which
answers or reports it as it does for every command: the quick path never
decides how an error looks. A user's error (a refused question, a broken
corpus) is reported as click reports it (rulebot.cli.failures.click_error),
without answering again; an unexpected one is left to click to meet again
and report, or raised as it is with RULEBOT_DEBUG set. Once the user has
been told something (a build begun, a warning), an unexpected error is
reported as click reports it (rulebot.cli.failures.exit_unexpected):
meeting it again would tell them twice. It exits with the statuses click's
`ask` exits with (rulebot.cli.status), with 130 on Ctrl-C as every command
(rulebot.cli.failures.Interrupted), and quietly with 0 when the reader of
its output has gone (`| head`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: a cold `ask` does not load it (3 ms)
if TYPE_CHECKING:
    from typing import NoReturn

    import click

    from rulebot.cli.asking import AskLine


def main() -> None:
    """Run `rulebot` with the process's arguments."""
    from rulebot.cli.encoding import in_utf8
    from rulebot.cli.terminal import clean_output, closed_streams

    closed_streams()  # (`2>&-`: nothing said on standard output instead)
    in_utf8()  # the locale never changes how a question is read
    clean_output()  # every line printed, by any command, as a terminal may be given it
    from rulebot.cli.asking import read_line

    line = None if "_RULEBOT_COMPLETE" in os.environ else read_line(sys.argv[1:])
    if line is not None:
        code = answer_quickly(line)
        if code is not None:
            sys.exit(code)
    from rulebot.cli.main import main as click_main

    click_main()


def answer_quickly(line: AskLine) -> int | None:
    """Answer a command line of `ask` as click's `ask` does; the exit status (rulebot.cli.status),
    or None if anything went wrong that click should meet again."""
    from rulebot.cli import status

    told = False

    def tell(message: str) -> None:
        nonlocal told
        told = True
        from rulebot.text import printable

        print(printable(message), file=sys.stderr, flush=True)

    try:
        from rulebot.cli import asking, output
        from rulebot.corpus.files import chosen_dirs

        dirs = chosen_dirs(line.group["corpora"], shipped=not line.group["no_shipped"])
        if not dirs or not all(os.path.exists(folder) for folder in line.group["corpora"]):
            return None  # click's usage error (rulebot.cli.shared.Settings.corpus_dirs)
        colored = output.color(line.group["color"])
        return asking.run(dirs, " ".join(line.question), **line.options, colored=colored, notify=tell, echo=_print)
    except KeyboardInterrupt:
        from rulebot.cli.failures import Interrupted

        _exit_with(Interrupted())
    except BrokenPipeError:  # the reader has had enough: not an error
        from rulebot.cli.output import silence_stdout

        silence_stdout()
        return status.OK
    except Exception as exc:
        from rulebot.errors import RulebotError

        if isinstance(exc, RulebotError):
            from rulebot.cli.failures import click_error

            _exit_with(click_error(exc))
        if os.environ.get("RULEBOT_DEBUG"):
            raise
        from rulebot.cli.failures import cannot_write, exit_unexpected

        if told or cannot_write(exc):  # (output that cannot be written: answering again would only fail again)
            exit_unexpected(exc)
        return None  # click's `ask` meets it again, and reports it as it reports any


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _exit_with(error: click.ClickException) -> NoReturn:
    error.show()
    sys.exit(error.exit_code)
