"""The `rulebot` command's entry point: a plain question is answered without loading click.

`rulebot ask WORDS…`, with no option, is what a player types at the table,
and the answer should come at once; importing click and declaring the
command tree was about a third of a cold answer. So such a command line,
also with the corpus options before `ask` (`--corpus DIR`, `--no-shipped`),
is answered here, by the same calls and printing as the `ask` command
(rulebot.answering). Every other command line, and any failure on the way, goes
to the click command (rulebot.cli.main), which answers or reports it as it does
for every command: the quick path never decides how an error looks. A
user's error (a refused question, a broken corpus) is reported as click
reports it (rulebot.cli.main.click_error), without answering again; an
unexpected one is left to click to meet again and report, or raised as it
is with RULEBOT_DEBUG set. Once the user has been told something (a build
begun, a warning), an unexpected error is reported as click reports it
(rulebot.cli.main.exit_unexpected): meeting it again would tell them twice.
It exits with the statuses click's `ask` exits with (rulebot.cli.status), and
quietly with 0 when the reader of its output has gone (`| head`).
"""

from __future__ import annotations

import os
import sys
import types


def main() -> None:
    """Run `rulebot` with the process's arguments."""
    import_dataclasses()
    question = plain_question(sys.argv[1:])
    if question is not None:
        code = answer_quickly(*question)
        if code is not None:
            sys.exit(code)
    from rulebot.cli.main import main as click_main

    click_main()


def import_dataclasses() -> None:
    """Import dataclasses without inspect, which it loads for one use rulebot never makes.

    dataclasses imports inspect (and with it ast, dis and tokenize: 5 ms, a
    twentieth of a cold answer) to make a docstring of the signature of a
    dataclass without one, and every dataclass of rulebot has its own. While
    dataclasses is imported, a stand-in takes inspect's place: the first use
    of any of its names imports the real module. Only dataclasses keeps the
    stand-in; anyone else importing inspect later gets the real one.
    """
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    sys.modules["inspect"] = _Later("inspect")
    try:
        import dataclasses  # noqa: F401
    finally:
        del sys.modules["inspect"]


class _Later(types.ModuleType):
    """A module's stand-in, whose real module is imported when one of its names is first used."""

    def __getattr__(self, name: str):
        if name.startswith("__"):  # the import system's probes (__path__, __spec__...) are no use of the module
            raise AttributeError(name)
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(__import__(self.__name__), name)


def plain_question(args: list[str]) -> tuple[list[str], bool, list[str]] | None:
    """What the quick path answers: corpus options, `ask` and question words, none an option
    (nor shell completion at work); as (corpus folders, shipped corpus or not, words)."""
    corpora, shipped, at = [], True, 0
    while at < len(args) and args[at] != "ask":
        if args[at] == "--no-shipped":
            shipped, at = False, at + 1
        elif args[at] == "--corpus" and at + 1 < len(args) and not args[at + 1].startswith("-"):
            corpora.append(args[at + 1])
            at += 2
        else:
            return None
    words = args[at + 1:]
    if not words or any(word.startswith("-") for word in words) or "_RULEBOT_COMPLETE" in os.environ:
        return None
    return corpora, shipped, words


def answer_quickly(corpora: list[str], shipped: bool, words: list[str]) -> int | None:
    """Answer a question as `rulebot ask` does, with the default options; the exit status
    (rulebot.cli.status), or None if anything went wrong that click should meet again."""
    from rulebot.cli import status

    told = False

    def tell(line: str) -> None:
        nonlocal told
        told = True
        _tell(line)

    try:
        from pathlib import Path

        from rulebot import answering
        from rulebot.cli import output
        from rulebot.corpus.files import chosen_dirs

        dirs = chosen_dirs(corpora, shipped=shipped)
        if not dirs or any(Path(d).is_file() for d in corpora):
            return None  # click refuses these
        with answering.open_searcher(dirs, notify=tell) as searcher:
            answer = answering.answer(searcher, " ".join(words))
        text = output.answer_output(answer, as_json=False, colored=output.color())
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except KeyboardInterrupt:  # as every command ends when interrupted (rulebot.cli.main.Interrupted)
        print(file=sys.stderr)
        _tell("Aborted!")
        sys.exit(status.INTERRUPTED)
    except BrokenPipeError:  # the reader has had enough: not an error
        from rulebot.cli.output import silence_stdout

        silence_stdout()
        return status.OK
    except Exception as exc:
        from rulebot.errors import RulebotError

        if isinstance(exc, RulebotError):
            from rulebot.cli.main import click_error

            error = click_error(exc)
            error.show()
            sys.exit(error.exit_code)
        if os.environ.get("RULEBOT_DEBUG"):
            raise
        if told:
            from rulebot.cli.main import exit_unexpected

            exit_unexpected(exc)
        return None  # click's `ask` meets it again, and reports it as it reports any
    return output.answer_status(answer, as_json=False)


def _tell(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
