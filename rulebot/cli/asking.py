"""`rulebot ask` without click: its options as data, the command lines read from them, and what it does.

The options of `ask`, and those of the group that may come before it, are
declared once, in the tables below: the click commands are declared from
them (rulebot.cli.shared.click_options), and the quick path
(rulebot.cli.quick) reads a command line with them. It reads only what it
can tell click reads alike: each option by one of its names, its value in
a separate word or after `=` (long names), a value click accepts as it is;
anything else (`-h`, `-gX`, `--`, `-` for standard input, a value click
would refuse or turn into another) is left to click, which answers it or
words its error. `run` is what `ask` does once its options are read, for
both.

Nothing here imports click, nor anything that answering does not need.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from rulebot.cli.output import COLOR_MODES
from rulebot.config import LANGUAGES, LIMITS

SIGNED_VALUE = re.compile(r"-\d")
"""A word of a question that begins with a dash and a digit ("-1 gold", "gets -3/-3"): a value, never an option."""

FLAG, VALUE, VALUES = "flag", "value", "values"
"""What an option takes: nothing (on when given), one value (the last one given counts), or one value each time (repeatable)."""


class Option(NamedTuple):
    """An option of the command line, as click declares it and the quick path reads it."""

    names: tuple[str, ...]
    """Its names, the short one first (`-g`, `--game`)."""
    dest: str
    """The name of the command's parameter that gets its value."""
    help: str
    """Its line in `--help`."""
    takes: str = VALUE
    """FLAG, VALUE or VALUES."""
    metavar: str | None = None
    """What its value is called in `--help` (click's own word for its type otherwise)."""
    default: object = None
    """Its value when not given (a flag's is False, a repeatable option's an empty tuple)."""
    show_default: bool = False
    """Whether `--help` shows the default."""
    choices: tuple[str, ...] = ()
    """The only values it takes, if it is limited to some (click.Choice)."""
    between: tuple[int, int] | None = None
    """The whole numbers it takes, both ends included (click.IntRange)."""
    folder: bool = False
    """It takes a folder's path: anything but a file's (click.Path(file_okay=False))."""
    complete: str | None = None
    """The function of rulebot.cli.completion that completes its value on Tab."""

    def read(self, value: str) -> object | None:
        """The value the command gets for `value`, when click is sure to take it as it is; None to leave it to click."""
        if not value or value.startswith("-"):
            return None
        if self.choices:
            return value.lower() if value.lower() in self.choices else None
        if self.between is not None:
            low, high = self.between
            return int(value) if value.isascii() and value.isdigit() and low <= int(value) <= high else None
        if self.folder:
            # click refuses a file, and a folder it cannot read.
            usable = not os.path.exists(value) or (os.path.isdir(value) and os.access(value, os.R_OK))
            return Path(value) if usable else None
        return value

    @property
    def unset(self) -> object:
        """The value the command gets when the option is not given."""
        return {FLAG: False, VALUES: ()}.get(self.takes, self.default)


GROUP_OPTIONS = (
    Option(
        ("--corpus",),
        "corpora",
        "Add a corpus folder on top of the shipped one (repeatable; also $RULEBOT_CORPUS, a path list);"
        " what `new` and `new-game` add goes to the last one.",
        takes=VALUES,
        folder=True,
    ),
    Option(("--no-shipped",), "no_shipped", "Leave out the corpus shipped with rulebot.", takes=FLAG),
    Option(
        ("--color",),
        "color",
        "Colour the output: always, never, or on a terminal only (not with NO_COLOR set, nor TERM=dumb).",
        default="auto",
        show_default=True,
        choices=COLOR_MODES,
    ),
)
"""The options of `rulebot` itself: before the command's name, and after it for the commands they are for
(`ask` has every one, after its own: rulebot.cli.shared.with_group_options)."""

WITH = Option(
    ("-w", "--with"),
    "with_",
    "An expansion in play (repeatable); 'base' with --game for none. Default: `rulebot config`.",
    takes=VALUES,
    metavar="EXP",
    complete="expansion_slugs",
)
"""`--with`, an expansion in play: of `ask`, and of `play` with a help of its own."""

ASK_OPTIONS = (
    Option(("-g", "--game"), "game", "Only this game: its slug, name or an alias (see `rulebot games`).", metavar="GAME", complete="game_slugs"),
    Option(("-n", "--limit"), "limit", "How many entries to show (and each other game that answers alike: its best).", default=3, show_default=True, between=LIMITS),
    WITH,
    Option(
        ("--json",),
        "as_json",
        "Print one JSON object: {query, game, games, confident, probability, results: [...]} (docs/scripts.md); exit 0 once printed.",
        takes=FLAG,
    ),
    Option(("--official-only",), "official_only", "Leave out house rules (kind house-rule, or a source of trust house).", takes=FLAG),
    Option(
        ("--lang",),
        "lang",
        "Answer in this language (texts and labels), where an entry has a text in it."
        " Default: `rulebot config set lang`, else the question's language.",
        choices=LANGUAGES,
    ),
)
"""The options of `rulebot ask`, in the order of its `--help`."""


OptionValues = dict[str, Any]
"""Options' values by parameter name, each of its option's type (Option.read gives it): the keys come from the
tables, so no one type holds them; they go on as keyword arguments, to parameters of those types (run)."""


class AskLine(NamedTuple):
    """A command line `rulebot [OPTIONS] ask [OPTIONS] QUESTION...` read as click reads it."""

    group: OptionValues
    """The group's options (GROUP_OPTIONS), by parameter name."""
    options: OptionValues
    """The options of `ask` (ASK_OPTIONS), by parameter name."""
    question: tuple[str, ...]
    """The words of the question."""


def read_line(args: list[str]) -> AskLine | None:
    """A command line of `ask`, when each word is an option of the tables in a form click reads alike,
    `ask`, or a word of the question (there is one at least); None to leave it to click.

    The group's options may come after `ask` too, as click's `ask` has them: each adds to those
    before it as click's do (Settings.take), `--corpus` folders in order, the last `--color`."""
    group, at = _unset(GROUP_OPTIONS), 0
    while at < len(args) and args[at] != "ask":
        after = _read_option(GROUP_OPTIONS, args, at, group)
        if after is None:
            return None
        at = after
    options, at = _unset(ASK_OPTIONS), at + 1
    words: list[str] = []
    while at < len(args):
        if args[at].startswith("-") and not SIGNED_VALUE.match(args[at]):
            ours = any(args[at].partition("=")[0] in option.names for option in GROUP_OPTIONS)
            after = _read_option(GROUP_OPTIONS, args, at, group) if ours else _read_option(ASK_OPTIONS, args, at, options)
            if after is None:
                return None
            at = after
        else:
            words.append(args[at])
            at += 1
    return AskLine(group, options, tuple(words)) if words else None


def _unset(options: Iterable[Option]) -> OptionValues:
    return {option.dest: option.unset for option in options}


def _read_option(options: Iterable[Option], args: list[str], at: int, values: OptionValues) -> int | None:
    """Read the option at `args[at]` into `values`: where the next one starts, or None to leave the line to click."""
    name, equals, attached = args[at].partition("=")
    option = next((o for o in options if name in o.names), None)
    if option is None or (equals and (option.takes == FLAG or not name.startswith("--"))):
        return None  # click's to read (`-g=x` is the value "=x") or refuse (a flag's value)
    if option.takes == FLAG:
        values[option.dest] = True
        return at + 1
    if equals:
        raw, at = attached, at + 1
    elif at + 1 < len(args):
        raw, at = args[at + 1], at + 2
    else:
        return None
    value = option.read(raw)
    if value is None:
        return None
    values[option.dest] = (*values[option.dest], value) if option.takes == VALUES else value
    return at


def run(
    dirs: list[Path],
    question: str,
    *,
    game: str | None = None,
    limit: int = 3,
    with_: Collection[str] = (),
    as_json: bool = False,
    official_only: bool = False,
    lang: str | None = None,
    colored: bool,
    notify: Callable[[str], None],
    echo: Callable[[str], None],
) -> int:
    """What `ask` does: answer the question from the corpus folders and print the answer with `echo`,
    telling the user of a build or a warning with `notify`; its exit status (rulebot.cli.status)."""
    from rulebot import answering, config
    from rulebot.cli import messages, output

    lang = lang or config.language()  # chosen, else configured: read once, for the messages and the answer
    messages.use(lang or "en")  # for an error on the way, in the language chosen
    with answering.Answerer(answering.open_searcher(dirs, notify=notify)) as answerer:
        answer = answerer.ask(question, game=game, limit=limit, with_=with_, official_only=official_only, lang=lang)
        games = answerer.searcher.games
    messages.use(answer.answer_language)
    try:
        echo(output.answer_output(answer, as_json=as_json, colored=colored, games=games))
    except BrokenPipeError:  # (the reader has had enough, `| head -0`: the answer's status all the same, whenever it stopped)
        output.silence_stdout()
    return output.answer_status(answer, as_json=as_json)
