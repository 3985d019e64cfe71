"""Reading a question: from a player's sloppy text to what is searched for, where and how.

A question is cleaned (control characters out, length bounded) and cut into
folded words. Then it is read (QuestionReader.read):

- its language: French when its grammar words and accents say so, or when it
  uses a word only the French texts of the corpus use;
- what it asks beyond its words (rulebot.language.quantities): a quantity, a
  player count, whose number is no word to search for;
- the game: the one given, else those whose name it contains; the name of
  the one game it is about is no word to search for where it opens or ends
  the question;
- the expansions it names, of each game it is about: in play for the
  ordering (as --with would be); when it is about one game, their names are
  no words to search for either.

All that reading makes is one Question, which every step of a search is
given: nothing of one question is kept for the next. The words are grouped
into units with a game's synonym table (make_units): a synonym phrase
("victory points") becomes one unit whose alternatives are all the phrases of
its group, a number right after a term ("crew 3") may also match the term as
rules write it with its value ("Crew N"), and question filler ("can I",
"combien de") is dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from rulebot.errors import QueryError
from rulebot.index.fields import FRENCH_FIELDS
from rulebot.index.opened import ALL_GAMES
from rulebot.index.reader import IndexReader
from rulebot.language import analysis, quantities
from rulebot.language.analysis import SynonymTable, stem
from rulebot.search.constants import MAX_QUESTION_CHARS, MAX_VALUED_TERMS, NAME_TYPO_LETTERS, PLACEHOLDERS, VOCABULARY_TYPO_LETTERS
from rulebot.search.spelling import in_corpus, in_french_texts

if TYPE_CHECKING:
    from rulebot.index.payload import GameJSON


class Unit(NamedTuple):
    """One thing the question asks about: a word, or a synonym phrase."""

    words: tuple[str, ...]
    """The folded words as typed."""
    alternatives: tuple[tuple[str, ...], ...]
    """Word sequences that mean the same, the typed one first."""


class Question(NamedTuple):
    """A question as read: what is searched for, in which games, with which vocabulary."""

    text: str
    """The question, cleaned (clean_question)."""
    words: tuple[str, ...]
    """The folded words to search for: without a player count's number, nor the names of the one game the
    question is about and of that game's expansions (unless nothing else is left)."""
    language: str
    """The language it is written in: en or fr."""
    intent: quantities.Intent
    """What it asks beyond its words: a quantity, for a player count."""
    game: str | None
    """The game it was asked about (--game), if one was given."""
    games: tuple[str, ...]
    """The games to search: the one given, else those whose name it contains; () for every game."""
    named: Mapping[str, set[str]]
    """The expansions it names, for each game of `games` (directly or by a synonym)."""
    in_play: Mapping[str, set[str]]
    """The expansions in play, by game (--with and the saved defaults, or none of a game whose base game alone the
    question asks about): the game's entries of other expansions are left out."""
    official_only: bool
    """Whether house rules are left out."""
    synonyms: Mapping[str, SynonymTable]
    """Each game's synonym table for questions in its language."""
    all_synonyms: SynonymTable
    """Every game's synonyms together, for questions in its language: for a search of every game."""
    base_game_only: tuple[str, ...] = ()
    """The games whose expansions it leaves out by saying it is about the base game alone ("base game only")."""
    asks_nothing: bool = False
    """Whether its words are all question words ("what", "combien ?", "can i"): no word of a game's vocabulary. Only
    an entry it names (a card called "Mine") answers it (Searcher.ask)."""


class QuestionReader:
    """Reads questions for one index: its games' names, own terms, expansions and synonym tables."""

    def __init__(self, games: dict[str, GameJSON], synonym_tables: dict[str, dict[str, list[list[Any]]]], reader: IndexReader):
        self.games = games
        self.reader = reader
        """The index, whose French and English texts tell a question's language."""
        self._tables = synonym_tables  # made when the index was built: start-up stays cheap
        self._decoded: dict[str, tuple[dict[str, SynonymTable], SynonymTable]] = {}
        self._game_terms: dict[str, dict[str, list[tuple[str, ...]]]] = {}
        """Each game's terms, as stem sequences (words that point at the game), by their first stem."""
        for slug, game in games.items():
            by_first = self._game_terms[slug] = {}
            for term in (tuple(stem(w) for w in analysis.words(written)) for written in game["terms"]):
                if term:
                    by_first.setdefault(term[0], []).append(term)
        self._game_names = {
            # (longest first, then in the order of their words, as the site's search data lists them: the same
            # name is taken out of a question whatever the process)
            slug: sorted({tuple(analysis.words(a)) for a in game["aliases"]} - {()}, key=lambda name: (-len(name), " ".join(name)))
            for slug, game in games.items()
        }
        self._phrase_stems: dict[str, frozenset[str]] = {}
        self._vocabulary_words: dict[tuple[str, str | None], dict[str, list[str]]] = {}
        """The one-word phrases of synonym tables, by their first letter: by language and game (None: every game)."""

    def read(self, text: str, *, game: str | None, in_play: Mapping[str, set[str]], official_only: bool) -> Question:
        """Read a cleaned question (clean_question), asked about a game or (None) any; QueryError if it has no word."""
        words = analysis.words(text)
        if not words:
            raise QueryError("the question has no words to search for")
        typed = words
        language = self._language(text, words)
        synonyms, all_synonyms = self._vocabulary(language)
        intent = quantities.read_intent(words, language)
        words = list(intent.words) or words
        games = [game] if game else self._named_games(words)
        if len(games) == 1:
            words = self._without_game_name(words, games[0])
        words = self._respelled(words, language, games[0] if len(games) == 1 else None)
        # (every word typed, a game's name too: "what is dune" asks about Dune; the cheap test first, and the rarest)
        asks_nothing = analysis.only_question_words(text) and all(self._question_word(w, games) for w in typed)
        named = {slug: self.named_expansions(words, synonyms[slug], slug) for slug in games}
        # "base game only" leaves the expansions out, as --with base does, of the games the question is about (of
        # every game that has expansions when it names none): what the question says wins over --with and the
        # saved defaults. A question naming an expansion asks what it changes: it is no such reading.
        about = [slug for slug in games or self.games if self.games[slug]["expansions"]]
        base_game_only: tuple[str, ...] = ()
        rest = _without_base_game(words, bare=bool(games)) if about else None
        if rest is not None:
            naming = named.values() if games else (self.named_expansions(words, synonyms[slug], slug) for slug in about)
            if not any(naming):
                words, base_game_only = rest, tuple(about)
                in_play = {**in_play, **{slug: set() for slug in about}}
        if len(games) == 1:
            # An expansion's name says which rules are meant, as --with would:
            # its words describe no ruling ("perlae imperii 3 players how many monuments").
            words = self._without_expansion_names(words, games[0])
        return Question(
            text=text, words=tuple(words), language=language, intent=intent, game=game, games=tuple(games),
            named=named, in_play=in_play, official_only=official_only, synonyms=synonyms, all_synonyms=all_synonyms,
            base_game_only=base_game_only, asks_nothing=asks_nothing,
        )

    def named_expansions(self, words: Sequence[str], synonyms: SynonymTable, slug: str) -> set[str]:
        """Expansions of a game that the question names (directly or by a synonym of the game's)."""
        found = set()
        units = make_units(words, synonyms)
        phrases = {alt for unit in units for alt in unit.alternatives}
        for expansion in self.games[slug]["expansions"]:
            name = tuple(analysis.words(expansion["name"]))
            if name in phrases or any(analysis.find_phrase(list(p), name) >= 0 for p in phrases if len(p) >= len(name)):
                found.add(expansion["slug"])
            elif analysis.find_phrase(words, name) >= 0:
                found.add(expansion["slug"])
        return found

    def game_terms_in(self, stems: list[str], slug: str) -> int:
        """How many of a game's own terms (its `vocabulary.terms`) the question uses."""
        by_first = self._game_terms[slug]
        return sum(1 for first in set(stems) for term in by_first.get(first, ()) if analysis.find_phrase(stems, term) >= 0)

    def _respelled(self, words: list[str], language: str, game: str | None) -> list[str]:
        """The words, each unknown to the corpus and one edit from one word of the vocabulary (of the game asked
        about, or of every game) read as that word (VOCABULARY_TYPO_LETTERS). A word close to several that mean
        different things stays as typed: its close spellings in the corpus are searched as for any unknown word."""
        synonyms, every = self._vocabulary(language)
        table = synonyms[game] if game else every
        return [self._respelling(word, table, (language, game)) for word in words]

    def _respelling(self, word: str, table: SynonymTable, key: tuple[str, str | None]) -> str:
        """One word of a question as _respelled reads it, with the synonym table of `key` (language, game). Words of a
        question's grammar are none a typo of the vocabulary's, though the corpus indexes none of them ("arent" is
        no "agent", "notre" no "noire")."""
        if len(word) < VOCABULARY_TYPO_LETTERS or (stem(word),) in table or self._known_word(word):
            return word
        by_letter = self._vocabulary_words.get(key)
        if by_letter is None:  # (made for the first word that needs it: most questions have none)
            by_letter = self._vocabulary_words[key] = {}
            for phrase in sorted({p for group in table.values() for p in group if len(p) == 1}):
                by_letter.setdefault(phrase[0][:1], []).append(phrase[0])
        close = [w for w in by_letter.get(word[0], ()) if _edits(word, w) == 1]
        if len({frozenset(table.get((stem(w),), ())) for w in close}) != 1:
            return word
        # (of words alike in meaning, the one most entries' names have: the names field matches a word as typed)
        return min(close, key=lambda w: -self.reader.doc_frequency("names", w))

    def _known_word(self, word: str) -> bool:
        """Whether a word is one of a question's grammar (question filler, an English or French stop word), of a
        game's name, or one an entry has in either language (rulebot.search.spelling)."""
        if word in analysis.QUESTION_FILLER or word in analysis.folded_french_stop_words() or not analysis.terms("english", word):
            return True
        return word in self.game_words or in_corpus(self.reader, word) or in_french_texts(self.reader, word)

    def _question_word(self, word: str, games: Sequence[str]) -> bool:
        """Whether a word of question filler is no word of the vocabulary of the games asked about (of every game
        when none is), in either language: the French "or" is Res Arcana's gold, "use" a synonym of activating.
        (Entries' names are not looked up here: whether the first entry found is named by the question says it.)"""
        key = (stem(word),)
        for language in self._tables:  # (every language questions are read in)
            synonyms, every = self._vocabulary(language)
            if any(key in table for table in ([synonyms[slug] for slug in games] if games else [every])):
                return False
        return not any(self.game_terms_in(list(key), slug) for slug in games or self.games)

    def _language(self, text: str, words: list[str]) -> str:
        """The language of a question: French when its grammar words and accents say so, or when it uses a
        word that French texts of the corpus use and English ones do not ("pioche vide")."""
        evidence = analysis.french_evidence(text)
        if evidence < 2 and any(self._only_french(word) for word in words):
            evidence = 2
        return "fr" if evidence >= 2 else "en"

    def _only_french(self, word: str) -> bool:
        """Whether the French fields of the corpus have a word and the English ones never do."""
        if word in analysis.QUESTION_FILLER or word.isdigit():
            return False
        english = analysis.terms("english", word)
        if not english or any(self.reader.doc_frequency(name, english[0]) for name in ("title", "body", "aliases", "asked")):
            return False
        french = analysis.terms("french", word)
        return bool(french) and any(self.reader.doc_frequency(name, french[0]) for name in FRENCH_FIELDS)

    def _vocabulary(self, language: str) -> tuple[dict[str, SynonymTable], SynonymTable]:
        """The synonym tables for questions in a language: per game, and of every game together (decoded once)."""
        if language not in self._decoded:
            tables = self._tables[language]
            self._decoded[language] = (
                {slug: analysis.decode_synonyms(tables[slug]) for slug in self.games},
                analysis.decode_synonyms(tables[ALL_GAMES]),
            )
        return self._decoded[language]

    @cached_property
    def game_words(self) -> frozenset[str]:
        """The words of the games' names and aliases and of their expansions' names: a question's words that need be
        no entry's. Made when first needed (an unsure answer's "did you mean")."""
        return frozenset(
            word
            for game in self.games.values()
            for written in (game["name"], *game["aliases"], *(e["name"] for e in game["expansions"]))
            for word in analysis.words(written)
        )

    def phrase_stems(self, language: str) -> frozenset[str]:
        """The stems of every game's synonym phrases for questions in a language (the keys of its table of every
        game): a question's word whose stem is one of them is a word of the vocabulary. Made once per language."""
        found = self._phrase_stems.get(language)
        if found is None:
            found = self._phrase_stems[language] = frozenset(s for phrase in self._vocabulary(language)[1] for s in phrase)
        return found

    def vocabulary_stems(self, slug: str) -> set[str]:
        """The stems of every word of a game's vocabulary: its synonyms in every language (those shared by its
        corpus folder too) and its own terms."""
        stems = {stem(w) for term in self.games[slug]["terms"] for w in analysis.words(term)}
        for language in self._tables:
            for members in self._vocabulary(language)[0][slug].values():
                stems.update(stem(w) for member in members for w in member)
        return stems

    def named_games(self, text: str) -> list[str]:
        """Games whose name or alias a question contains ("dune assassination mission": Dune: Imperium)."""
        return self._named_games(analysis.words(text))

    def _named_games(self, words: list[str]) -> list[str]:
        """Games whose name or alias the question contains."""
        return [slug for slug, names in self._game_names.items() if name_at(words, names) is not None]

    def _without_expansion_names(self, words: list[str], slug: str) -> list[str]:
        """The question's words without the names of the game's expansions (unless nothing else is left)."""
        for expansion in self.games[slug]["expansions"]:
            name = tuple(analysis.words(expansion["name"]))
            at = analysis.find_phrase(words, name)
            if at >= 0 and len(words) > len(name):
                words = words[:at] + words[at + len(name):]
        return words

    def _without_game_name(self, words: list[str], slug: str) -> list[str]:
        """The question's words without the game's name where it opens or ends the question.

        There it names the game ("catalyst buildings setup 3p"); within the
        question it may be a word of the game's own rules ("can I activate the
        same catalyst twice"), and stays."""
        for name in self._game_names[slug]:
            found = name_at(words, [name])
            if found is not None and (found[0] == 0 or found[0] + found[1] == len(words)) and len(words) > found[1]:
                return words[:found[0]] + words[found[0] + found[1]:]
        return words


def name_at(words: Sequence[str], names: Sequence[tuple[str, ...]]) -> tuple[int, int] | None:
    """Where the question says one of a game's names (longest first), and in how many words; None when it says none.

    A name is read as written, or with a typo or two when it is long enough (NAME_TYPO_LETTERS): at most one in
    each word, and each word beginning as the name's does, as a close spelling must (rulebot.search.spelling). So
    "ras arcana" and "portal of molthar" name their games, and "dune imperial spy" says "dune" and the card. A name of
    one word said in another form (the same stem) is a word of the rules, no typo: "catalysts" are the cards, not the
    game Catalyst."""
    for name in names:
        at = analysis.find_phrase(words, name)
        if at >= 0:
            return at, len(name)
        edits = sum(sum(map(len, name)) >= least for least in NAME_TYPO_LETTERS)
        for at in range(len(words) - len(name) + 1 if edits else 0):
            window = words[at:at + len(name)]
            if all(w[:1] == n[:1] and abs(len(w) - len(n)) <= 1 for w, n in zip(window, name)):
                apart = [_edits(w, n) for w, n in zip(window, name)]
                if max(apart) <= 1 and sum(apart) <= edits and (len(name) > 1 or stem(window[0]) != stem(name[0])):
                    return at, len(name)
    return None


def _edits(a: str, b: str) -> int:
    """0 for the same word, 1 for words one edit apart (a letter added, left out or changed, or two neighbours
    swapped: spelling.distance's optimal string alignment), 2 for words further apart. In plain Python: the C of
    rulebot.search.spelling costs a cold question 40 ms to load, for the few words a name is compared with."""
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    if len(a) - len(b) > 1:
        return 2
    same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(b))
    if len(a) > len(b):
        return 1 if a[same + 1:] == b[same:] else 2
    if a[same + 1:] == b[same + 1:]:
        return 1
    swapped = a[same:same + 2] == b[same:same + 2][::-1] and a[same + 2:] == b[same + 2:]
    return 1 if swapped else 2


_BASE_GAME_PHRASES = {
    bare: sorted(analysis.BASE_GAME_ONLY + (analysis.BASE_GAME if bare else ()), key=len, reverse=True) for bare in (False, True)
}
"""The phrases _without_base_game looks for, longest first (a phrase may hold a shorter one), without and with
"base game" alone."""


def _without_base_game(words: list[str], *, bare: bool) -> list[str] | None:
    """The question's words without the phrase by which it says it is about the base game alone
    (analysis.BASE_GAME_ONLY; analysis.BASE_GAME too when `bare`), or None when it says none: nor when the rest of
    it speaks of expansions ("how do I add the expansion to the base game"), nor when nothing but filler is left."""
    for phrase in _BASE_GAME_PHRASES[bare]:
        at = analysis.find_phrase(words, phrase)
        if at < 0:
            continue
        rest = words[:at] + words[at + len(phrase):]
        if any(w in analysis.EXPANSION_WORDS for w in rest) or all(w in analysis.QUESTION_FILLER for w in rest):
            return None
        return rest
    return None


def valid_text(text: str) -> str:
    """Text that encodes as UTF-8: undecodable argv bytes and lone surrogates become U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is no escaped byte
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


TERMINAL_ESCAPE_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
"""A terminal's escape sequence (a colour, a title: CSI, OSC, or two characters), as a question pasted from a
coloured terminal holds them: dropped whole, or its letters would be searched ("[31m")."""
SPACING_CONTROLS = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85")
"""The control characters that part words (a tab, a line end): read as spaces; any other is dropped."""


def clean_question(question: str) -> str:
    """The question without terminal escapes, control characters or broken surrogates; QueryError if unusable.

    A control or invisible format character (a soft hyphen, a zero-width space) pasted inside a word is dropped,
    so that the word stays whole ("chau\x01murky" is "chaumurky"); one that parts words is a space."""
    if len(question) > MAX_QUESTION_CHARS:
        raise QueryError(f"the question is too long ({len(question)} characters; at most {MAX_QUESTION_CHARS})")
    text = question.encode("utf-8", "replace").decode("utf-8")
    text = unicodedata.normalize("NFKC", TERMINAL_ESCAPE_RE.sub("", text))
    text = "".join(_cleaned(c) for c in text)
    text = " ".join(text.split())
    if not text:
        raise QueryError("the question is empty")
    return text


def _cleaned(char: str) -> str:
    category = unicodedata.category(char)
    if category[0] != "C":
        return char
    return "" if category in ("Cf", "Cc") and char not in SPACING_CONTROLS else " "


def make_units(words: Sequence[str], synonyms: SynonymTable, apart: Collection[tuple[str, ...]] = ()) -> list[Unit]:
    """Group the words of a question into units, dropping question filler; the runs of words `apart` (as typed)
    are no one unit, but their words are (or shorter phrases of them)."""
    longest = max(map(len, synonyms), default=1)
    stems = [stem(w) for w in words]
    units: list[Unit] = []
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            group = synonyms.get(tuple(stems[i:i + size]))
            if group is None:
                continue
            typed = tuple(words[i:i + size])
            if size == 1 or typed not in apart:
                # Every other wording counts: one with the same stems still
                # differs in the fields that are not stemmed (names).
                units.append(Unit(typed, (typed, *(g for g in group if g != typed))))
                i += size
                break
        else:
            units.append(Unit((words[i],), ((words[i],),)))
            i += 1
    for at in range(1, len(units)):
        # "crew 3", "scry 2": a number after a term is the term's value, which a rule writes "Crew N" (the term
        # as typed or as a synonym says it; the number as typed or as a synonym gives it, "deux" for 2).
        number, before = units[at], units[at - 1]
        if len(number.words) == 1 and len(number.words[0]) <= 2 and is_number(number.words[0]) and _names_a_term(before):
            terms = list(dict.fromkeys(alt[-1] for alt in before.alternatives if not is_number(alt[-1])))[:MAX_VALUED_TERMS]
            units[at] = Unit(number.words, (*number.alternatives, *((term, letter) for term in terms for letter in PLACEHOLDERS)))
    content = [u for u in units if not (len(u.words) == 1 and u.words[0] in analysis.QUESTION_FILLER and len(u.alternatives) == 1)]
    return content or units


def is_placeholder(unit: Unit, alternative: tuple[str, ...]) -> bool:
    """Whether an alternative of a unit is a term and a placeholder, for the number the unit is."""
    return len(alternative) == 2 and alternative[1] in PLACEHOLDERS and is_number(unit.words[-1])


def _names_a_term(unit: Unit) -> bool:
    """Whether a unit may be a term a number gives the value of: a word, not filler, not a number itself nor a
    number's other words ("deux 3")."""
    return unit.words[-1] not in analysis.QUESTION_FILLER and not any(is_number(word) for alt in unit.alternatives for word in alt)


def is_number(word: str) -> bool:
    """Written in the digits 0 to 9 only (as the site's search reads a number)."""
    return word.isascii() and word.isdigit()
