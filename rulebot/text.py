"""Text comparison and wording shared by the corpus, the index, the search and the commands."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping


def fold(text: str) -> str:
    """Lower case, accents removed, spaces collapsed: how names are compared."""
    if text.isascii():  # most text: nothing to decompose (the same result, several times faster)
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = _NON_ASCII.sub(_without_marks, decomposed)  # only the runs that can hold an accent are looked at
    return " ".join(stripped.translate(_UNDECOMPOSED).split())


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _without_marks(run: re.Match[str]) -> str:
    return "".join(c for c in run.group() if not unicodedata.combining(c))


_UNDECOMPOSED = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
"""Letters that Unicode does not decompose into a plain letter and an accent (ß is casefolded to ss)."""


def plural(number: int, one: str, many: str | None = None) -> str:
    """A count with its noun agreeing: "1 entry", "2 entries" (`many` defaults to `one` + "s")."""
    return f"{number} {one if number == 1 else many or one + 's'}"


def close_matches(word: str, choices: Iterable[str], limit: int = 3) -> list[str]:
    """The choices spelled closest to a word, best first (for a "did you mean")."""
    from difflib import get_close_matches

    return get_close_matches(word, list(choices), n=limit, cutoff=0.6)


def meant(value: str, names: Mapping[str, Iterable[str]]) -> list[str]:
    """The keys (slugs) a value that is none of them may mean, given each key's names.

    A key the value begins, when only one does; else the keys one of whose
    names (a name, an alias) the value is, compared folded; else the keys
    or names spelled closest to it.
    """
    folded = fold(value)
    starting = [key for key in names if key.startswith(folded.replace(" ", "-"))] if folded else []
    if len(starting) == 1:
        return starting
    named = [key for key, key_names in names.items() if any(fold(n) == folded for n in key_names)]
    if named:
        return named
    by_spelling = {key: key for key in names} | {fold(n): key for key, key_names in names.items() for n in key_names}
    return list(dict.fromkeys(by_spelling[m] for m in close_matches(folded, by_spelling)))


def unknown(what: str, value: str, known: Iterable[str], meant: Iterable[str] = (), of: str = "") -> str:
    """The message for a value that names no `what` (of a game, say): "no game 'x'; did you mean: y; known games: a, b"."""
    maybe = ", ".join(meant)
    listed = ", ".join(known) or "none"
    where = f" for {of}" if of else ""
    return f"no {what} {value!r}{where}" + (f"; did you mean: {maybe}" if maybe else "") + f"; known {what}s: {listed}"
