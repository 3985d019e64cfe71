"""Text comparison and wording shared by the corpus, the index, the search and the commands."""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping


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


def named(value: str, names: Mapping[str, Iterable[str]]) -> str | None:
    """The key (slug) a value names without doubt, given each key's names: the key itself in any case, else the one
    key one of whose names (a name, an alias) it is, compared folded, else the one key it begins ("dune" for
    dune-imperium); None otherwise (none, several, or only a close spelling: `meant` then says which it may mean).
    A whole name comes before a beginning: "molthar" is the game of that alias, not "molthar-legends"."""
    whole = named_whole(value, names)
    if whole is not None or _whole_names(fold(value), names):  # (several whole names: none without doubt)
        return whole
    starting = _beginning(fold(value), names)
    return starting[0] if len(starting) == 1 else None


def named_whole(value: str, names: Mapping[str, Iterable[str]]) -> str | None:
    """The key a value names whole: the key itself in any case, or the one key one of whose names it is (compared
    folded, or by letters and digits alone); never a key it only begins."""
    folded = fold(value)
    keyed = folded.replace(" ", "-")
    if keyed in names:
        return keyed
    whole = _whole_names(folded, names)
    return whole[0] if len(whole) == 1 else None


def meant(value: str, names: Mapping[str, Iterable[str]]) -> list[str]:
    """The keys (slugs) a value that is none of them may mean, given each key's names.

    The keys one of whose names (a name, an alias) the value is, compared
    folded; else a key the value begins, when only one does; else the keys
    or names spelled closest to it.
    """
    folded = fold(value)
    if whole := _whole_names(folded, names):
        return whole
    starting = _beginning(folded, names)
    if len(starting) == 1:
        return starting
    by_spelling = {key: key for key in names} | {fold(n): key for key, key_names in names.items() for n in key_names}
    return list(dict.fromkeys(by_spelling[m] for m in close_matches(folded, by_spelling)))


def _whole_names(folded: str, names: Mapping[str, Iterable[str]]) -> list[str]:
    """The keys one of whose names (or the key itself) is the folded value, or is written with the same letters
    and digits ("xwing", "x wing" for x-wing)."""
    if not folded:
        return []
    exact = [key for key, key_names in names.items() if any(fold(n) == folded for n in key_names)]
    if exact:
        return exact
    compact = _compact(folded)
    return [key for key, key_names in names.items() if compact and any(_compact(fold(n)) == compact for n in (key, *key_names))]


def _compact(folded: str) -> str:
    """A folded name's letters and digits alone."""
    return NOT_LETTERS_RE.sub("", folded)


NOT_LETTERS_RE = re.compile(r"[\W_]+")


def _beginning(folded: str, names: Mapping[str, Iterable[str]]) -> list[str]:
    """The keys that begin with the folded value, written as a key."""
    return [key for key in names if key.startswith(folded.replace(" ", "-"))] if folded else []


def unknown(what: str, value: str, known: Iterable[str], meant: Iterable[str] = (), of: str = "") -> str:
    """The message for a value that names no `what` (of a game, say): "no game 'x'; did you mean: y; known games: a, b"."""
    maybe = ", ".join(meant)
    listed = ", ".join(known) or "none"
    where = f" for {of}" if of else ""
    return f"no {what} {value!r}{where}" + (f"; did you mean: {maybe}" if maybe else "") + f"; known {what}s: {listed}"


_TERMINAL_CONTROL = re.compile(
    # A string sequence (OSC: the clipboard, the window title; DCS, SOS, PM, APC), by ESC or C1, to its BEL or ST.
    r"(?:\x1b[]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI: cursor moves, erasing, styles
    r"|\x1b[ -/]*[0-~]?"  # any other escape (a reset, a character set), or ESC alone
    r"|[\x00-\x08\x0a-\x1f\x7f-\x9f]"  # other C0 (a bell, a backspace, a carriage return), DEL, C1
)
"""What a terminal acts on rather than shows. \\n is taken out of the last class by printable()."""
_STYLE = re.compile(r"\x1b\[[0-9;]*m")
"""An SGR sequence: the colours and bold that the commands add themselves."""


def printable(text: str, *, styles: bool = False) -> str:
    """Text as a terminal may be given it: every control character but newline and tab, and every escape
    sequence, removed; with `styles`, SGR sequences (colour, bold) are kept.

    Corpus files are text anyone can write: an escape sequence in an entry
    could set the clipboard (OSC 52), the window title, or rewrite what was
    printed before it. Every line a command prints goes through this, on
    standard output and standard error alike.
    """
    if text.isprintable():  # most text: no control character at all (nor \\n, which isprintable() refuses too)
        return text

    def keep(match: re.Match[str]) -> str:
        found = match.group()
        return found if found == "\n" or (styles and _STYLE.fullmatch(found)) else ""

    return _TERMINAL_CONTROL.sub(keep, text)


ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Every C0 control character, DEL and every C1: what a name is shown with escaped (rulebot.places.display_path).
The classes of CONTROL_CHARACTER, DEL_AND_C1 and _TERMINAL_CONTROL are this one with characters taken out."""
DEL_AND_C1 = re.compile(r"[\x7f-\x9f]")
"""What json.dumps lets through of the control characters (it escapes C0 itself)."""
CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A control character that has no place in corpus text: every C0 and C1 character but tab and \\n (a lone \\r
never reaches it: lines are cut at CR, LF and CRLF alike)."""

BREAK_CONTROLS = {"\f": ("a form feed", "\n\n"), "\v": ("a vertical tab", "\n"), "\x85": ("a next-line character (NEL)", "\n")}
"""The control characters that converted documents (pdftotext's page breaks) use as breaks: what each is called,
and the line break an imported document has instead."""


def plain_text(text: str) -> str:
    """A document's text as corpus text may hold it: form feeds a paragraph break, vertical tabs and NEL a line
    break (BREAK_CONTROLS), every other control character and escape sequence removed (see printable)."""
    return printable(text.translate({ord(c): new for c, (_, new) in BREAK_CONTROLS.items()}))


LINK_RE = re.compile(
    r"\[(?P<words>(?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"
    r"\((?P<target><[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\)"
)
"""A Markdown link, `[Defense](#defense)`, `[Defense [D]](#defense "title")`, `[Go](<#go>)`, `[Go](/wiki/Go_(game))`:
its words and where it leads (`target_of`)."""
_FENCE_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}+|~{3,}+)[^\n]*\n(?:.*?^ {0,3}(?P=fence)[`~]*[ \t]*$|.*\Z)", re.MULTILINE | re.DOTALL)
"""Fenced code: an unclosed fence runs to the end. (Its run of backticks is never given back: on a line of nothing
else, trying each shorter run would take seconds.)"""
_TICKS_RE = re.compile(r"`+")


def target_of(link: re.Match[str]) -> str:
    """Where a link (LINK_RE) leads, without the angle brackets it may be written in."""
    target = link.group("target")
    return target[1:-1] if target.startswith("<") else target


def _code(text: str) -> list[tuple[int, int]]:
    """Where a Markdown text has code, (start, end) in order: fenced, and inline (a run of backticks to the next run
    of as many; a run with none after it is no code). Found in one pass over the runs: a regular expression trying
    every run against every later one would take seconds on a long run of backticks."""
    fenced = [(found.start(), found.end()) for found in _FENCE_RE.finditer(text)] if "```" in text or "~~~" in text else []
    runs = [run for run in _TICKS_RE.finditer(text) if not _within(fenced, run.start())]
    later: dict[int, list[int]] = {}  # the places in `runs` of the runs of each length
    for at, run in enumerate(runs):
        later.setdefault(run.end() - run.start(), []).append(at)
    spans, at = [], 0
    while at < len(runs):
        run = runs[at]
        alike = later[run.end() - run.start()]
        following = bisect_right(alike, at)
        if following < len(alike):
            spans.append((run.start(), runs[alike[following]].end()))
            at = alike[following] + 1
        else:
            at += 1
    return sorted(fenced + spans)


def _within(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether a place is in one of these spans (in order, none within another)."""
    found = bisect_right(spans, (at, math.inf)) - 1  # (the last span starting at or before it)
    return found >= 0 and spans[found][0] <= at < spans[found][1]


def links(text: str) -> list[re.Match[str]]:
    """The Markdown links of a text (LINK_RE), but those in code (a link whose words hold code is one)."""
    if "](" not in text:
        return []
    code = _code(text) if "`" in text or "~~~" in text else []
    return [link for link in LINK_RE.finditer(text) if not _within(code, link.start())]


def relink(text: str, link: Callable[[re.Match[str]], str]) -> str:
    """A Markdown text with each link (`links`) made what `link` makes of it; code left as it is."""
    out, at = [], 0
    for found in links(text):
        out += [text[at : found.start()], link(found)]
        at = found.end()
    return "".join(out) + text[at:]


def link_words(text: str) -> str:
    """A Markdown text as a reader reads it: each link's words, not where it leads (`[Defense](#toy-defense)` is
    "Defense": no "toy" of an id it links to is a word of the text)."""
    return relink(text, lambda found: found.group("words"))
