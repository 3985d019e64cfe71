"""Text comparison shared by the corpus, the index and the search."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case, accents removed, spaces collapsed: how names are compared."""
    if text.isascii():  # most text: nothing to decompose (the same result, several times faster)
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.translate(_UNDECOMPOSED).split())


_UNDECOMPOSED = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
"""Letters that Unicode does not decompose into a plain letter and an accent (ß is casefolded to ss)."""
