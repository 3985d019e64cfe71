"""Reading the command line and standard input as UTF-8 whatever the locale.

Under a locale that is not UTF-8 (LC_ALL=C with PYTHONUTF8=0, a Latin-1
locale), Python decodes arguments and standard input in the locale's
encoding: a French question would reach rulebot as other characters, and
printing an answer in French would fail. rulebot's corpus, questions and
messages are UTF-8, so the command runs in Python's UTF-8 mode: started
otherwise, it starts itself again in it (once: the new process is in it).
Bytes that are not UTF-8 are then kept as surrogate escapes, which the
question reader replaces (rulebot.search.question.valid_text).
"""

from __future__ import annotations

import os
import sys


def in_utf8() -> None:
    """Make sure the process reads and writes UTF-8: nothing to do in UTF-8 mode or a UTF-8 locale, else run
    the same command line again in UTF-8 mode (`python -X utf8`), on POSIX systems."""
    if sys.flags.utf8_mode or os.name != "posix" or (_is_utf8(sys.getfilesystemencoding()) and _is_utf8(sys.stdin.encoding if sys.stdin else "utf-8")):
        return
    if not sys.executable or not getattr(sys, "orig_argv", None):
        return
    try:
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])
    except OSError:  # cannot start again: carry on in the locale's encoding
        return


def _is_utf8(encoding: str | None) -> bool:
    return (encoding or "").lower().replace("-", "").replace("_", "") == "utf8"
