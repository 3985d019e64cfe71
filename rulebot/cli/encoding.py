"""Reading the command line and standard input whatever the locale, and printing without failing.

Under an ASCII locale (LC_ALL=C with Python's UTF-8 mode off), Python
decodes arguments and standard input as ASCII: a French question would reach
rulebot as lone surrogates, and printing an answer in French would fail. Such
a locale says nothing of the terminal's encoding, which is UTF-8 nearly
always: arguments, standard input and output are then taken as UTF-8 (bytes
that are not stay surrogate escapes, which the question reader replaces:
rulebot.search.question.valid_text). A real 8-bit locale (Latin-1) keeps its
codec: its terminal shows that, and Python already decodes it right. In any
locale, a character the output's codec cannot write is printed as `?` rather
than failing the command.
"""

from __future__ import annotations

import codecs
import locale
import os
import sys


def in_utf8() -> None:
    """Take arguments, standard input and output as UTF-8 under an ASCII locale; never fail on what the output's
    codec cannot write."""
    if os.name == "posix" and not sys.flags.utf8_mode and _is_ascii(locale.getpreferredencoding(False)):
        sys.argv[1:] = [os.fsencode(arg).decode("utf-8", "surrogateescape") for arg in sys.argv[1:]]
        _reconfigure(sys.stdin, encoding="utf-8", errors="surrogateescape")
        for stream in (sys.stdout, sys.stderr):
            _reconfigure(stream, encoding="utf-8", errors="replace")
    for stream in (sys.stdout, sys.stderr):
        _reconfigure(stream, errors="replace")


def _reconfigure(stream: object, **settings: str) -> None:
    reconfigure = getattr(stream, "reconfigure", None)  # a real text stream (not a test runner's, nor None)
    if reconfigure is not None:
        try:
            reconfigure(**settings)
        except (OSError, ValueError):  # already read from, or closed: left as it is
            pass


def _is_ascii(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "ascii").name == "ascii"
    except LookupError:
        return False
