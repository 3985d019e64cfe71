"""The everyday words players use for the words of rules, shared by every game of every corpus folder.

everyday.toml, beside this module, holds them in a corpus folder's
vocabulary.toml form: synonym groups ("max" for "limit"), and French groups
that let a French question reach rules written in English ("défausser" for
"discard"). They are language, not a game's or a folder's: a game imported
into a curator's own folder has them as a shipped game does. The corpus
loader adds them to every game's groups (rulebot.corpus.load), so that the
index, its synonym tables and the site's search all have them.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

EVERYDAY_FILE = Path(__file__).with_name("everyday.toml")


@cache
def groups() -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """(synonym groups, French groups), lower-cased as a vocabulary's are."""
    import tomllib  # only when a corpus is read: answering reads the index's tables

    data = tomllib.loads(EVERYDAY_FILE.read_text(encoding="utf-8"))
    return tuple(_groups(data["synonyms"])), tuple(_groups(data["french"]))


def _groups(lists: list[list[str]]) -> list[tuple[str, ...]]:
    return [tuple(word.lower() for word in group) for group in lists]


@cache
def digest() -> str:
    """A hash of the file: an index built with other everyday words is built again."""
    return hashlib.sha256(EVERYDAY_FILE.read_bytes()).hexdigest()[:16]
