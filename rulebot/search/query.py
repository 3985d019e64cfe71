"""What a question's units may match in the index: the clauses rulebot.search.scoring scores.

The query is made programmatically: question text is never parsed as query
syntax. Per unit, each field (title, aliases, French aliases, the questions
an entry answers, body, names, section) gets a disjunction of the unit's
alternatives, of which the best match counts: the words as typed, the game
vocabulary's synonyms (SYNONYM_WEIGHT; for a number after a term, the term with
the N or X by which rules write its value), and for an unknown word its close
spellings (CORRECTION_WEIGHT). The fields a unit matches add up. Adjacent
words of a short question add a proximity bonus (PROXIMITY_WEIGHT).
"""

from __future__ import annotations

from itertools import pairwise

from rulebot.index.fields import FIELDS
from rulebot.language import analysis
from rulebot.language.analysis import stem
from rulebot.search import scoring
from rulebot.search.constants import CORRECTION_WEIGHT, PROXIMITY_SLOP, PROXIMITY_UNITS, PROXIMITY_WEIGHT, SYNONYM_WEIGHT
from rulebot.search.question import Question, Unit, is_placeholder
from rulebot.search.spelling import Spellings


class Clauses:
    """The clauses of the units of questions, in one index: made once per unit, kept for the next questions."""

    def __init__(self, scorer: scoring.BM25F, spellings: Spellings):
        self.scorer = scorer
        self.spellings = spellings
        self._made: dict[tuple[Unit, bool, str], scoring.Unit] = {}
        """What each unit met so far may match, in one game or (True) across games, in a question's language."""
        self._docs_of_games: dict[frozenset[str], frozenset[int]] = {}
        """The documents of some games, by the games: where a synonym of those games may match."""

    def of_unit(self, unit: Unit, question: Question, across_games: bool) -> scoring.Unit:
        """What a unit may match, per field (cached: units recur); across games, each synonym in its games only."""
        key = (unit, across_games, question.language)
        cached = self._made.get(key)
        if cached is None:
            if len(self._made) > 10_000:
                self._made.clear()
            cached = self._made[key] = self._analyse(unit, question, across_games)
        return cached

    def proximity(self, units: list[Unit]) -> list[scoring.Clause]:
        """A bonus for adjacent question words found close together in a text.

        Only for questions of a table's length: in a long one every pair is a
        costly phrase search, and the share of words matched ranks well alone.
        """
        out: list[scoring.Clause] = []
        if len(units) > PROXIMITY_UNITS:
            return out
        for left, right in pairwise(units):
            if len(left.words) != 1 or len(right.words) != 1:
                continue
            terms = analysis.terms("english", f"{left.words[0]} {right.words[0]}")
            if len(terms) == 2:
                out.extend(scoring.Clause(name, tuple(terms), PROXIMITY_WEIGHT, slop=slop) for name, slop in PROXIMITY_SLOP.items())
        return out

    def _analyse(self, unit: Unit, question: Question, across_games: bool) -> scoring.Unit:
        alternatives: list[tuple[tuple[str, ...], float, frozenset[int] | None]] = [(alt, 1.0, None) for alt in unit.alternatives[:1]]
        for alt in unit.alternatives[1:]:
            alternatives.append((alt, SYNONYM_WEIGHT[question.language], self._scope(unit, alt, question) if across_games else None))
        if len(unit.words) == 1:
            word = unit.words[0]
            alternatives.extend((c, CORRECTION_WEIGHT, None) for c in self.spellings.of(word))
        by_field: dict[str, list[scoring.Clause]] = {}
        seen = set()
        for number, (alt, weight, within) in enumerate(alternatives):
            made: dict[str, tuple[str, ...]] = {}  # four fields share the English analysis
            whole = len(alt) if is_placeholder(unit, alt) else 1
            for name, analysed_as, typed_only in FIELDS:
                if typed_only and number:
                    continue
                if analysed_as not in made:
                    made[analysed_as] = tuple(analysis.terms(analysed_as, " ".join(alt)))
                terms = made[analysed_as]
                # A term and its placeholder match as both, or not at all: in French "n" is a stop word, and the
                # term alone would count the number as found wherever the term is.
                if len(terms) >= whole and (name, terms) not in seen:
                    seen.add((name, terms))
                    by_field.setdefault(name, []).append(scoring.Clause(name, terms, weight, within=within))
        return list(by_field.values())

    def _scope(self, unit: Unit, alternative: tuple[str, ...], question: Question) -> frozenset[int] | None:
        """Where a synonym of a unit may match when no game is chosen: in the entries of the games whose
        vocabulary has it (None: every game's). A word of one game's vocabulary never brings another game's
        entries in ("gold" means coins in one game, an essence in another). A placeholder (N, X) is every game's."""
        if is_placeholder(unit, alternative):
            return None
        key = tuple(stem(w) for w in unit.words)
        synonyms = question.synonyms
        owners = frozenset(slug for slug, table in synonyms.items() if alternative in table.get(key, ()))
        if len(owners) == len(synonyms):
            return None
        docs = self._docs_of_games.get(owners)
        if docs is None:
            docs = self._docs_of_games[owners] = frozenset().union(*(self.scorer.docs("game", slug) for slug in owners))
        return docs
