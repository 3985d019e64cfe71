"""`rulebot play`'s history file: each question added at its end as one write, the file kept to its last lines.

The file is prompt_toolkit's (FileHistory): an entry is a `# date` line,
then its lines, each after a `+`. Imported only by `play`'s prompt, with
prompt_toolkit.
"""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Iterable
from pathlib import Path

from prompt_toolkit.history import FileHistory

from rulebot import atomic
from rulebot.errors import RulebotError

MAX_LINES = 2000
"""A history longer than this is cut to its last KEEP_LINES lines (whole entries) when a question is added."""
KEEP_LINES = 1000
"""What is kept of it then: a cut happens once every MAX_LINES - KEEP_LINES lines, not at every question."""


class QuietFileHistory(FileHistory):
    """A history file that cannot be read or written (read-only, disk full) only stops keeping lines."""

    def load_history_strings(self) -> Iterable[str]:
        # FileHistory reads the file as bytes and decodes each line with errors="replace":
        # a byte that is not UTF-8 costs that one character, never the history.
        try:
            yield from super().load_history_strings()
        except OSError:
            return

    def store_string(self, string: str) -> None:
        entry = f"\n# {datetime.datetime.now()}\n" + "".join(f"+{line}\n" for line in string.split("\n"))
        with contextlib.suppress(OSError, RulebotError):
            add_entry(Path(os.fsdecode(self.filename)), entry.encode("utf-8", errors="replace"))


def add_entry(path: Path, entry: bytes) -> None:
    """Add an entry at the end of the history file (made when missing), then cut the file to its last
    KEEP_LINES lines if it is longer than MAX_LINES; under the file's lock (rulebot.atomic).

    The entry is appended, not the file written anew as rulebot's other
    files are: a history only ever grows at its end, and one write with
    O_APPEND lands after whatever another session wrote, whole; a command
    killed within it, or a full disk, can cut that last entry only, which
    prompt_toolkit reads as a shorter line, never what was there before.
    The cut itself is a whole-file write (rulebot.atomic), so that it never
    loses more than it means to.
    """
    path = atomic.real_target(path)
    with atomic.locked(path):
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            os.write(descriptor, entry)  # one write: see above
        finally:
            os.close(descriptor)
        data = atomic.read_regular(path) or b""
        if data.count(b"\n") > MAX_LINES:
            atomic.replace_file(path, last_lines(data, KEEP_LINES))


def last_lines(data: bytes, count: int) -> bytes:
    """The history's last `count` lines or fewer, from the start of an entry (a line that is not a `+` line):
    an entry is never kept without its first lines."""
    lines = data.splitlines(keepends=True)
    start = max(len(lines) - count, 0)
    while start < len(lines) and lines[start].startswith(b"+"):
        start += 1
    return b"".join(lines[start:])
