"""A new game's vocabulary, proposed from the document it is imported from.

A rules reference defines its own words: abbreviations (`ATK`, a glossary
heading that only points at Attack; `Active Player, Nonactive Player (APNAP)`),
other names (`... are also called creature types`, `first main phase (also
known as the precombat main phase)`) and the glossary's terms. `rulebot
import` proposes them as the game's synonym groups and terms (game.toml's
[vocabulary]) for the curator to review: a synonym group makes a question
using one word search for the others, and a term points a question that names
no game at this one.

Terms are only proposed when no other game of the corpus uses them (in its
entries' titles or texts, or its own terms): such a word says nothing about
which game a question is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulebot.text import fold

if TYPE_CHECKING:
    from rulebot.corpus.model import Entry

MAX_TERMS = 150
"""Terms proposed at most: the glossary's shortest first, in document order."""
MAX_TERM_WORDS = 3
NAME = r"[A-Za-z][\w’'\-]*(?:\s+[A-Za-z][\w’'\-]*){0,3}"
ABBREVIATION_RE = re.compile(r"(?P<long>[A-Za-z][\w’'\-]*(?:[ ,]+[A-Za-z][\w’'\-]*){0,5})\s*\((?P<short>[A-Z]{2,6})\)")
CALLED_RE = re.compile(
    rf"(?P<subject>{NAME})\s+(?:is|are)\s+(?:also\s+)?(?:called|known\s+as|referred\s+to\s+as)\s+(?:an?\s+|the\s+)?[“\"]?(?P<other>{NAME})[”\"]?(?=[\s.,;:)”\"]|$)"
)
AKA_RE = re.compile(rf"(?P<subject>{NAME})\s*\(\s*(?:also\s+)?(?:called|known\s+as)\s+(?:an?\s+|the\s+)?[“\"]?(?P<other>{NAME})[”\"]?\s*\)")
SHORT_RE = re.compile(r"\([A-Z]{2,6}\)")
CALLED_HINT_RE = re.compile(r"\b(?:called|known\s+as|referred\s+to\s+as)\b")
SEE_RE = re.compile(r"^\W*See\W*(?:also\W+)?(?P<name>[^,.;(\]\[]+)")
SENDS_TO_NUMBER_RE = re.compile(r"\bsee\s+(?:rules?\s+|sections?\s+)?\d", re.IGNORECASE)
"""`See rule 702.85`, `[See 7.5.5. Ambush](#755-ambush)`: a text that sends the reader to a numbered rule."""
MARKUP_RE = re.compile(r"\*\*|__|[`*_]|\[([^\]]*)\]\([^)]*\)")
LEADING_WORDS = {"a", "an", "the", "this", "these", "those", "its", "their", "each", "any", "it", "they", "that", "such"}
FUNCTION_WORDS = LEADING_WORDS | {
    "is", "are", "was", "be", "to", "of", "for", "in", "on", "at", "by", "with", "from", "and", "or", "as", "if", "which", "who", "when",
}
"""A name of the vocabulary starts and ends with none of these, nor holds `is`, `are`, `was` or `be`."""
DETERMINERS = {"another", "other", "others", "every", "all", "some", "no", "none", "both", "either", "neither"}
"""With FUNCTION_WORDS and question filler: words no glossary heading makes a term of the game."""


@dataclass
class Vocabulary:
    """Synonym groups and terms proposed for a game's game.toml."""

    synonyms: list[list[str]] = field(default_factory=list)
    """Groups of words meaning the same in the game, lower case."""
    terms: list[str] = field(default_factory=list)
    """Words that on their own point at the game, lower case."""
    more_terms: bool = False
    """Whether the document defines more terms than are proposed (MAX_TERMS)."""

    def __bool__(self) -> bool:
        return bool(self.synonyms or self.terms)


def propose(entries: Iterable[tuple[str, str, str, tuple[str, ...]]], others: Iterable[str] = (), topics: Sequence[str] = ()) -> Vocabulary:
    """The vocabulary of a game's drafts, given as (title, kind, text, aliases); `others`: the other games' texts and terms;
    `topics`: the names of the document's numbered topics (`Action Phase` of `3 Action Phase`), its terms when it has
    no glossary."""
    entries = list(entries)
    found = Vocabulary()
    seen: set[str] = set()

    def group(*names: str) -> None:
        members = [m for m in dict.fromkeys(_clean(n) for n in names) if m]
        if len(members) < 2 or any(m in seen for m in members):
            return  # one word in two groups would join them: the first says it
        seen.update(members)
        found.synonyms.append(members)

    for title, _kind, text, aliases in entries:
        bare = _bare(title)
        for alias in aliases:  # `ATK` - see Attack: an alias that abbreviates the title
            if re.fullmatch(r"[A-Z]{2,6}", alias) and _abbreviates(alias, bare):
                group(bare, alias)
        plain = MARKUP_RE.sub(lambda m: m.group(1) or "", text)
        # `ATK` whose text only points at `Attack (Player Action)`: the abbreviation of attack.
        see = SEE_RE.match(plain)
        if see and re.fullmatch(r"[A-Z]{2,6}", bare) and _abbreviates(bare, _bare(see.group("name"))):
            group(bare, _bare(see.group("name")))
        # Each pattern only where its key words are: scanning every text with them would be slow.
        for match in ABBREVIATION_RE.finditer(plain) if SHORT_RE.search(plain) else ():
            long = _expansion(match.group("long"), match.group("short"))
            if long:
                group(long, match.group("short"))
        called = CALLED_HINT_RE.search(plain) is not None
        matches = [(m, True) for m in CALLED_RE.finditer(plain)] + [(m, False) for m in AKA_RE.finditer(plain)] if called else []
        for match, sentence in matches:
            subject, other = _subject(match.group("subject")), match.group("other")
            # One lower-case word (`rule`, `cost`) is too general a subject to be named by another name.
            # `X is called Y` names the whole subject of its sentence; `X (also called Y)` the words before it.
            whole = not sentence or _starts_sentence(plain, match.start("subject"))
            if whole and _name_like(subject) and _name_like(other) and (len(subject.split()) > 1 or subject[:1].isupper()) and fold(subject) != fold(other):
                group(subject, other)
    used: set[str] = set()  # every run of up to MAX_TERM_WORDS words of the other games
    for text in others:
        words = re.findall(r"\w+", fold(text))
        for size in range(1, MAX_TERM_WORDS + 1):
            used.update(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))
    defined = [title for title, kind, _text, _aliases in entries if kind == "term"] or list(topics)
    # (a heading of several names, "Initiative, Initiative Counter", is a term each; "1,000 Points" is one)
    for term in (_clean(name) for title in defined for name in NAMES_COMMA_RE.split(_bare(title))):
        if not term or len(term.split()) > MAX_TERM_WORDS or term in found.terms or _plain_english(term):
            continue
        if " ".join(re.findall(r"\w+", term)) in used:
            continue  # another game's word too
        if len(found.terms) >= MAX_TERMS:
            found.more_terms = True
            break
        found.terms.append(term)
    return found


NAMES_COMMA_RE = re.compile(r"(?<!\d),|,(?!\d)")
"""A comma between names: any but one between digits (a thousands separator)."""


def _plain_english(term: str) -> bool:
    """Whether a glossary's heading is words of any question ("Other", "Another", "Can't"): no term of the game,
    whose words would lean every question that says them toward it."""
    from rulebot.language.analysis import QUESTION_FILLER, words

    return all(word in QUESTION_FILLER or word in FUNCTION_WORDS or word in DETERMINERS for word in words(term))


def _starts_sentence(text: str, start: int) -> bool:
    """Whether the words from `start` begin their sentence (after an article at most): `An ability without
    a bold timing trigger is called ...` is about an ability, not a bold timing trigger."""
    before = text[:start].rstrip()
    article = re.search(r"(?:^|\s)(?:an?|the|each|its|their)$", before, re.IGNORECASE)
    if article:
        before = before[: article.start()].rstrip()
    return not before or before[-1] in ".!?:;(\n*-•"


def _name_like(name: str) -> bool:
    """A name, not a piece of a sentence: no function word at either end, no verb `is`/`are` inside."""
    words = fold(name).split()
    return bool(words) and words[0] not in FUNCTION_WORDS and words[-1] not in FUNCTION_WORDS and not {"is", "are", "was", "be"} & set(words)


def _bare(title: str) -> str:
    """A title without its remark in parentheses or markup."""
    return " ".join(re.sub(r"\s*\([^)]*\)", "", MARKUP_RE.sub(lambda m: m.group(1) or "", title)).split()).strip(" :.,")


def _clean(name: str) -> str:
    words = fold(name).strip(" .,;:'’\"“”").split()
    while words and words[0] in LEADING_WORDS:
        words = words[1:]
    return " ".join(words)


def _subject(text: str) -> str:
    """The noun a `... is also called X` sentence is about: its last words, after any article."""
    words = text.split()
    for start in range(len(words)):
        if words[start].lower() in LEADING_WORDS:
            return " ".join(words[start + 1 :])
    return " ".join(words[-3:])


def _abbreviates(short: str, long: str) -> bool:
    """`ATK` for `Attack`, `APNAP` for `Active Player, Nonactive Player`: the initials, or letters of one word in order."""
    words = re.findall(r"[A-Za-z][\w’'\-]*", long)
    if not words:
        return False
    if "".join(w[0] for w in words).upper() == short:
        return True
    if len(words) != 1 or words[0][0].upper() != short[0]:
        return False
    rest = iter(words[0].upper())
    return all(letter in rest for letter in short)


def _expansion(text: str, short: str) -> str:
    """The words before `(SHORT)` that it abbreviates (the shortest ending there), or ''."""
    words = re.findall(r"[A-Za-z][\w’'\-]*", text)
    for count in range(1, min(len(words), 6) + 1):
        candidate = " ".join(words[-count:])
        if _abbreviates(short, candidate):
            return candidate
    return ""


def sends_to_rule(entry: Entry) -> bool:
    """Whether an entry is an imported glossary item that sums a rule up and sends the reader to it by number
    ("Fight: ... See rule 701.14"), with a link to it (`see_also`): the answer is the rule, not the summary. A numbered
    rules reference (Magic's, Star Wars Unlimited's) has such a glossary; a topic-style one (X-Wing's) defines
    its terms where the glossary states them, with no number to send to."""
    return entry.draft and entry.kind == "term" and bool(entry.see_also) and bool(SENDS_TO_NUMBER_RE.search(entry.text))
