"""The one place output is made safe for a terminal: standard output and error, wrapped while rulebot runs.

Corpus text, file names, documents being imported, configuration values and
error messages can all hold escape sequences that a terminal acts on (OSC 52
sets the clipboard, OSC 0 the window title, a CSI rewrites what was printed).
Cleaning at each print call missed some; here every write to the process's
standard streams goes through rulebot.text.printable, whoever makes it
(click, print, a library). SGR sequences (colours, bold) are kept: they are
how rulebot styles its output, and click removes them itself when colour is
off (`--color never`, or a pipe).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TextIO

from rulebot.text import printable


class CleanStream:
    """A text stream that passes what it is given through printable() to the stream it wraps.

    Its `buffer` is the wrapped stream's: what writes bytes writes its own
    (prompt_toolkit's line editor in `play`, its cursor moves included).
    click writes text, except to a stream whose encoding is ASCII, which
    rulebot.cli.encoding never leaves standard output in.
    """

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click tells text streams from binary ones by this refusal
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        # A carriage return written alone is a progress line's (`index`): text never comes so.
        self.wrapped.write(text if text == "\r" else printable(text, styles=True))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self.wrapped, name)


def clean_output() -> None:
    """From now on, sys.stdout and sys.stderr write only what a terminal may be given (wrapped once only)."""
    if sys.stdout is not None and not isinstance(sys.stdout, CleanStream):
        sys.stdout = CleanStream(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, CleanStream):
        sys.stderr = CleanStream(sys.stderr)


@contextlib.contextmanager
def cleaned_output() -> Iterator[None]:
    """clean_output() while in it: a test runner's streams are given back as they were."""
    saved = sys.stdout, sys.stderr
    clean_output()
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
