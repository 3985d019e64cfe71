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
import errno
import io
import os
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


class _Closed(io.TextIOBase):
    """Standard output closed before rulebot started (`>&-`): writing to it fails as writing to a closed descriptor
    does, and is reported as output that cannot be written (rulebot.cli.failures.UNWRITABLE)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def isatty(self) -> bool:
        return False


def closed_streams() -> None:
    """Python makes a standard stream closed before the process started (`<&-`, `>&-`, `2>&-`) None, and print() given
    None writes to standard output: with standard input closed, it is empty; with standard error closed, what would be
    said there is dropped (never written where the answer goes); with standard output closed, giving the answer fails
    as a full disk does (`_Closed`)."""
    if sys.stdin is None:  # (`<&-`: `ask -` reads an empty input, and says so)
        sys.stdin = open(os.devnull, encoding="utf-8")  # (open for the life of the process)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = _Closed()


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
