"""The everyday words players use for the words of rules, shared by every game of every corpus folder.

everyday.toml, beside this module, holds them in a corpus folder's
vocabulary.toml form: synonym groups ("max" for "limit"), and French groups
that let a French question reach rules written in English ("défausser" for
"discard"). They are language, not a game's or a folder's: a game imported
into a curator's own folder has them as a shipped game does. The corpus
loader reads them as it reads a folder's vocabulary.toml and adds them to
every game's groups (rulebot.corpus.load), so that the index, its synonym
tables and the site's search all have them.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

EVERYDAY_FILE = Path(__file__).with_name("everyday.toml")


@cache
def digest() -> str:
    """A hash of the file: an index built with other everyday words is built again."""
    return hashlib.sha256(EVERYDAY_FILE.read_bytes()).hexdigest()[:16]
