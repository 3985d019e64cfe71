"""The `rulebot` command's entry point: a plain question is answered without loading click.

`rulebot ask WORDS…`, with no option, is what a player types at the table,
and the answer should come at once; importing click and declaring the
command tree was about a third of a cold answer. So such a command line is
answered here, by the same calls and printing as the `ask` command
(rulebot.asking). Every other command line, and any failure on the way, goes
to the click command (rulebot.cli), which answers or reports it as it does
for every command: the quick path never decides how an error looks.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run `rulebot` with the process's arguments."""
    from rulebot.lean_imports import StandIn, import_lean

    # dataclasses loads inspect (and with it ast, dis, tokenize) for the
    # signature of a dataclass without a docstring, which rulebot has none of:
    # a tenth of a cold answer.
    import_lean(["dataclasses"], [StandIn("inspect", ("signature",))])
    args = sys.argv[1:]
    if is_plain_question(args) and answer_quickly(args[1:]):
        sys.exit(0)
    from rulebot.cli import main as click_main

    click_main()


def is_plain_question(args: list[str]) -> bool:
    """`ask` and question words, none an option (nor shell completion at work): what the quick path answers."""
    from os import environ

    return (
        len(args) > 1
        and args[0] == "ask"
        and not any(arg.startswith("-") for arg in args[1:])
        and "_RULEBOT_COMPLETE" not in environ
    )


def answer_quickly(words: list[str]) -> bool:
    """Answer a question as `rulebot ask` does, with the default options; False if anything went wrong."""
    try:
        from rulebot import asking
        from rulebot.corpus_files import chosen_dirs

        with asking.open_searcher(chosen_dirs(), notify=_tell) as searcher:
            answer = asking.answer(searcher, " ".join(words))
        text = asking.answer_output(answer, as_json=False)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except Exception:  # click's `ask` answers again, and reports the failure as it reports any
        return False
    return True


def _tell(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
