"""Ranking the entries that answer a question: the Searcher, which ties the steps of a search together.

A question is answered in these steps:

1. read it (rulebot.search.question): clean it, tell its language and what
   it asks beyond its words (a quantity, a player count), find the game it
   names and the expansions, and keep the words to search for;
2. search its games: the one given or named, each with its own vocabulary;
   else every game at once, each synonym only in the entries of the games
   whose vocabulary has it. The words are grouped into units
   (rulebot.search.question.make_units), each unit's clauses
   (rulebot.search.query) are scored by BM25F (rulebot.search.scoring), and
   a short question's adjacent words found close together reorder the best;
   a synonym phrase of several typed words that no entry holds is searched
   again as its words;
3. score the best hits by the one ranking model (rulebot.search.features):
   a feature vector per candidate (its words' score, the share of units it
   matches, the names and questions it answers that the question says, its
   source's trust, the game's own terms, a count or player count asked for,
   the expansions named, its kind and length), combined by fitted weights;
4. make the answer (rulebot.search.answer): changes of the expansions in play
   first, the parts that make it up, the other games that answer as well,
   how likely it is right (the same model); when unsure, the question's close
   spellings (rulebot.search.spelling) and the entries whose names resemble it.
   The whole ranking is ordered before it is cut to the number of answers
   asked for, so that the first ones never depend on it.

A Searcher keeps what lasts between questions (the index, its games, the
clauses of units met so far, the close spellings looked up); what one question
is (rulebot.search.question.Question) is handed to each step, never kept.
The search's constants are in rulebot.search.constants, the model's fitted
weights in rulebot/search/weights.json.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Container, Mapping, Sequence
from typing import TYPE_CHECKING

from rulebot.errors import QueryError, UnknownEntryError, UnknownExpansionError, UnknownGameError, UsageError
from rulebot.index.opened import OpenIndex
from rulebot.language import analysis
from rulebot.language.analysis import SynonymTable, stem
from rulebot.search import features, scoring, signals
from rulebot.search.answer import Answer, CloseTitle, Hit, answer_first, modifications_first, runners_up
from rulebot.search.constants import (
    AMBIGUOUS_SHARE,
    CANDIDATES,
    EXACT_NAME,
    GENERIC_SHARE,
    MAX_UNITS,
    PROXIMITY_POOL,
    RESPELLED_FROM,
    SYNONYM_NAME_SHARE,
)
from rulebot.search.query import Clauses
from rulebot.search.question import Question, QuestionReader, clean_question, make_units, valid_text
from rulebot.search.spelling import Spellings
from rulebot.text import named

if TYPE_CHECKING:
    from rulebot.index.payload import GameJSON, StoredEntry


class Searcher:
    """Searches one opened index; open once, ask many times."""

    def __init__(self, opened: OpenIndex):
        self.opened = opened
        self.games: dict[str, GameJSON] = opened.meta["games"]
        self.reader = opened.index
        self.scorer = scoring.BM25F(self.reader)
        self.spellings = Spellings(self.reader)
        """Close spellings of the unknown words of questions, looked up once."""
        self.reading = QuestionReader(self.games, opened.meta["synonym_tables"], self.reader)
        """Reads each question: its language, its game, the expansions it names, its words to search for."""
        self.clauses = Clauses(self.scorer, self.spellings)
        """What the units of questions may match, made once per unit."""
        self._phrases: dict[int, tuple[list[frozenset[str]], list[frozenset[str]]]] = {}
        """The stems of each entry's names and of the questions it answers, by document, made when first a candidate."""
        self._order: dict[str, int] | None = None
        """Each entry's place in the corpus (`_corpus_order`), read when first listed."""

    def close(self) -> None:
        """Release the index files (they are opened again if the index is searched again)."""
        self.reader.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- look-ups ------------------------------------------------------------

    def game_slug(self, name: str) -> str:
        """The slug of the game a name means: its slug (in any case), its name or an alias, or the start of one
        slug alone ("dune", "Res Arcana", "molthar"); UnknownGameError otherwise, with the games it may mean."""
        if name in self.games:
            return name
        names = {s: [g["name"], *g["aliases"]] for s, g in self.games.items()}
        slug = named(name, names)
        if slug is None:
            raise UnknownGameError.among(name, names)
        return slug

    def resolve_expansions(self, names: Collection[str], game: str | None = None) -> dict[str, set[str]]:
        """Map `--with` names to {game: expansions}; `base` (with a game) means none.

        UnknownGameError for an unknown game; UnknownExpansionError when a name is
        no expansion (of the game), or is ambiguous between games without a game to choose.
        """
        if game is not None:
            game = self.game_slug(game)
        chosen: dict[str, set[str]] = {}
        names = [name.lower() for name in names]  # (slugs are lower case: "Perlae-Imperii" is typed for one)
        for name in names:
            if name == "base":
                if game is None:
                    raise UnknownExpansionError("--with base needs --game, to say which game is played without expansions")
                chosen.setdefault(game, set())
                continue
            owners = [slug for slug, g in self.games.items() if any(e["slug"] == name for e in g["expansions"])]
            if game is not None:
                owners = [o for o in owners if o == game]
            if not owners:
                raise UnknownExpansionError(self._unknown_expansion(name, game))
            if len(owners) > 1:
                raise UnknownExpansionError(f"expansion {name!r} belongs to several games ({', '.join(owners)}): add --game")
            chosen.setdefault(owners[0], set()).add(name)
        if "base" in names and game is not None and chosen.get(game):
            raise UsageError(f"--with base (no expansion) and --with {', '.join(sorted(chosen[game]))} say two things: give one")
        return chosen

    def check_expansion(self, expansion: str, game: str | None = None) -> None:
        """UnknownExpansionError unless `expansion` is `base` (the base game) or an expansion (of the game, when given),
        as lower case slugs are."""
        from rulebot.text import meant, unknown

        names = {"base": ["base game"]}
        for slug, data in self.games.items():
            if game in (None, slug):
                names.update((e["slug"], [e["name"]]) for e in data["expansions"])
        if expansion not in names:
            raise UnknownExpansionError(unknown("expansion", expansion, names, meant(expansion, names), of=game or ""))

    def _unknown_expansion(self, name: str, game: str | None) -> str:
        """The message for a `--with` name that is no expansion: the game's expansions, or every game's."""
        from rulebot.text import meant, unknown

        games = {game: self.games[game]} if game else self.games
        names = {e["slug"]: [e["name"]] for g in games.values() for e in g["expansions"]}
        known = [e["slug"] if game else f"{e['slug']} ({slug})" for slug, g in games.items() for e in g["expansions"]]
        return unknown("expansion", name, known, meant(name, names), of=game or "")

    def get(self, entry_id: str) -> StoredEntry:
        """The payload of one entry, its id in any case; UnknownEntryError (with close ids) if none."""
        entry_id = valid_text(entry_id)  # (bytes of no UTF-8 given as an id are no id, nor an error of rulebot's)
        found = self.scorer.docs("id", entry_id.lower())
        if not found:
            close = self._close_ids(entry_id.lower())
            hint = f"; did you mean: {', '.join(close)}" if close else "; `rulebot list` shows every id"
            raise UnknownEntryError(f"no entry {entry_id!r}{hint}")
        return self.reader.payload(min(found))

    def entries(self, game: str | None = None, kind: str | None = None, expansion: str | None = None) -> list[StoredEntry]:
        """Payloads of every entry matching the filters, in corpus order; a filter that names nothing is an error
        (UnknownGameError, UnknownKindError, UnknownExpansionError), never an empty list."""
        if game is not None:
            game = self.game_slug(game)
        if kind is not None:
            from rulebot.corpus.kinds import check_kind

            kind = check_kind(kind)
        if expansion is not None:
            expansion = expansion.lower()
            self.check_expansion(expansion, game)
        wanted = [self.scorer.docs(name, value) for name, value in (("game", game), ("kind", kind), ("expansion", expansion)) if value]
        docnums = set.intersection(*wanted) if wanted else self.reader.docnums()
        payloads = [self.reader.payload(n) for n in sorted(docnums)]
        if self._order is None:
            self._order = self._corpus_order()  # (an index opened is never changed: its digests neither)
        order = self._order
        return sorted(payloads, key=lambda payload: order.get(payload["id"], len(order))) if order else payloads

    def _corpus_order(self) -> dict[str, int]:
        """Each entry's place in the corpus, from the index's digests file (written in corpus order: documents are
        not, once an update has re-indexed an entry changed, at the end); {} for an index in memory, built whole in
        corpus order (or a file that cannot be read: document order then)."""
        if self.opened.path is None:
            return {}
        import json

        from rulebot.index.sealed import DIGESTS_FILE

        try:
            digests = json.loads((self.opened.path / DIGESTS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {entry_id: at for at, entry_id in enumerate(digests)} if isinstance(digests, dict) else {}

    def _close_ids(self, entry_id: str) -> list[str]:
        """Ids an unknown one may mean: those it begins (an id cut short, "dune-cha"), those it ends (an id typed
        without its game's prefix, "deck" for star-wars-unlimited-deck), then those spelled closest."""
        from difflib import get_close_matches

        typed = entry_id.lower()
        ids = [t.decode("utf-8") for t in self.reader.lexicon("id")]
        starting = [i for i in ids if i.startswith(typed)] if "-" in typed else []  # (a game's prefix at least)
        ending = sorted((i for i in ids if i.endswith("-" + typed)), key=len)  # (the game's prefix alone first)
        return list(dict.fromkeys([*starting, *ending, *get_close_matches(entry_id, ids, n=3, cutoff=0.6)]))[:3]

    # -- asking --------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        limit: int = 5,
        expansions: Mapping[str, Collection[str]] | None = None,
        official_only: bool = False,
        lang: str | None = None,
    ) -> Answer:
        """Rank the entries that answer a question, best first.

        `expansions` maps a game to the expansions in play: that game's
        entries of other expansions are left out, and a rule changed by an
        expansion in play comes after the entry that changes it. Games it does
        not name are searched whole. Expansions named in the question are in
        play for the ordering too. `official_only` leaves house rules out.
        `lang`: the language to answer in (None: the question's), for the setup
        steps of an answer for a player count.
        """
        text = clean_question(question)
        if game is not None:
            game = self.game_slug(game)
        in_play = {self.game_slug(g): set(e) for g, e in (expansions or {}).items()}
        asked = self.reading.read(text, game=game, in_play=in_play, official_only=official_only)
        in_play = {g: set(e) for g, e in asked.in_play.items()}  # with what the question says ("base game only")
        words = asked.words
        found: dict[str, list[_Found]] = {}
        if asked.games:
            for slug in asked.games:
                found[slug] = self._search_game(asked, slug)
        else:
            for one in self._search_everywhere(asked):
                found.setdefault(one.hit.game, []).append(one)
        searched = list(found) or list(asked.games)
        # A game found by the search of every game: the expansions of it the question
        # names, in all its words (only the one game it is about loses its names).
        named = {
            slug: asked.named[slug] if slug in asked.named else self.reading.named_expansions(words, asked.synonyms[slug], slug)
            for slug in searched
        }
        stems = [stem(w) for w in words]
        terms = None if asked.games else {slug: self.reading.game_terms_in(stems, slug) for slug in found}
        context = features.Context(words, asked.intent, named, in_play, terms)
        # Every candidate is scored here, by the one model, and nowhere else.
        by_game: dict[str, list[Hit]] = {}
        for slug, ones in found.items():
            for one in ones:
                hit = one.hit
                hit.features = features.describe(
                    hit, one.bm25, one.coverage, one.bonus, one.absent, self._length(one.docnum), *self._names_and_asked(one.docnum), context
                )
                hit.score = features.score(hit.features)
            by_game[slug] = sorted((one.hit for one in ones), key=lambda h: (-h.score, h.id))
        candidates = sorted((h for hits in by_game.values() for h in hits), key=lambda h: (-h.score, h.id))
        ordering = {slug: in_play.get(slug, set()) | named.get(slug, set()) for slug in searched}
        # The whole ranking is ordered before it is cut to `limit`: its first k are the same whatever the limit.
        ordered, parts = answer_first(modifications_first(candidates, ordering, in_play, self.get, official_only))
        if asked.asks_nothing and not (ordered and features.named_as_typed(ordered[0], context)):
            # ("what", "combien ?", "can i": an entry found for them is found by chance; a card called "Mine" is not)
            raise QueryError(f"the question has only question words and common words ({' '.join(analysis.words(text))}): say what it is about")
        # What the answer is made of is known before it is made: an Answer is never changed (rulebot.search.answer).
        results, parts = ordered[:limit], min(parts, limit)
        other_games: list[Hit] = []
        if len(searched) > 1 and ordered:
            # A question with no word of any game's own terms could be about any of them.
            generic = not any(self.reading.game_terms_in(stems, slug) for slug in searched)
            # Each shown as the first answer is: the entry of an expansion in play before the rule it changes.
            other_games = [
                modifications_first([hit], ordering, in_play, self.get, official_only)[0]
                for hit in runners_up(by_game, ordered, GENERIC_SHARE if generic else AMBIGUOUS_SHARE)
            ]
        evidence: list[float] = []
        probability, confident = 0.0, False
        if ordered:
            # A count asked for is only answered by an entry that states a number for what is counted.
            unstated = asked.intent.quantity and not signals.states_count(ordered[0].data, words, asked.synonyms.get(ordered[0].game, {}))
            # The words of a phrase no entry holds, searched apart, are a guess at what the rules call it.
            ones = found.get(ordered[0].game, [])  # (what a game's search split and heard is the same for each)
            split, heard = any(one.split for one in ones), ones[0].heard if ones else frozenset()
            evidence = features.evidence(ordered[:1] + candidates, context, bool(other_games), unstated, split, heard)
            probability = features.probability(evidence)
            confident = features.confident(probability, evidence)
        setup = None
        if asked.intent.players is not None and results:
            from rulebot.search.for_players import setup_answer

            first = results[0].game
            setup = setup_answer(
                self.games, results[:parts], asked.intent.players, words, ordering.get(first, set()), self.get, lang or asked.language
            )
        return Answer(
            # (the game answered: given, else the one game the question names, else the best hit's)
            query=valid_text(question), game=game or (asked.games[0] if len(asked.games) == 1 else ordered[0].game if ordered else None),
            results=results, parts=parts,
            confident=confident, probability=probability, evidence=evidence,
            suggestions=() if confident else self._suggestions(asked, ordered[:RESPELLED_FROM]),
            close_titles=() if confident else self._close_titles(asked),
            runners_up=other_games, language=asked.language, players=asked.intent.players, setup=setup,
            base_game_only=asked.base_game_only,
        )

    def _search_everywhere(self, question: Question) -> list[_Found]:
        """One search over every game, with every game's synonyms, for a question that names none.

        A single search keeps the cost of a question flat however many games
        the corpus holds; each game's synonyms only add alternatives (that
        count less than the words typed), so they cannot outweigh a game
        whose entries use the question's own words.
        """
        found = self._search(question, question.all_synonyms, None, None)
        # (each synonym only matches the entries of the games whose vocabulary has it: see rulebot.search.query)
        return [f for f in found if _in_play(question, f.hit.data)]

    def _search_game(self, question: Question, slug: str) -> list[_Found]:
        """One game's search, with its own synonyms, of the expansions in play only (when they are given)."""
        return self._search(question, question.synonyms[slug], slug, question.in_play.get(slug))

    def _search(self, question: Question, synonyms: SynonymTable, slug: str | None, expansions: set[str] | None) -> list[_Found]:
        """Search for the question's units (made with these synonyms) in one game (or all when slug is None): the
        best candidates by their words, with what their features are made of (they are scored in `ask`)."""
        eligible = self._eligible(slug, expansions, question.official_only)
        apart: set[tuple[str, ...]] = set()
        while True:
            units = make_units(question.words, synonyms, apart)[:MAX_UNITS]
            # Proximity only reorders the best documents: looking for phrases in
            # every document that has both words would cost the most for the
            # commonest words, in the largest corpora.
            proximity = self.clauses.proximity(units)
            unit_clauses = (self.clauses.of_unit(unit, question, slug is None) for unit in units)
            found = self.scorer.score(unit_clauses, PROXIMITY_POOL if proximity else CANDIDATES, eligible)
            absent = found.units_absent(eligible)
            # Words typed together that a synonym group holds ("last round") are one phrase, in one of the group's
            # wordings. When no entry holds any of them, the question is searched again with the words apart: the
            # rules may say it otherwise ("the round is the last one"), and one phrase found nowhere would leave
            # the question with no answer.
            # (each pass keeps apart every phrase found nowhere; only a shorter phrase of their words may be found
            # nowhere next, so there are at most as many passes as the longest phrase has words)
            unfound = {units[at].words for at in absent if len(units[at].words) > 1}
            if not unfound:
                break
            apart |= unfound
        meanings: dict[str, list[signals.Meaning]] = {}  # per game: what each unit says and may mean, as stems
        heard: dict[str, frozenset[str]] = {}  # per game: what the units say, typed or spelt close
        pool = _only(found.totals, eligible)
        if proximity:
            pool = {docnum: pool[docnum] for docnum in _best(pool, PROXIMITY_POOL)}
            among = set(pool)
            for clause in proximity:
                for docnum, value in self.scorer.clause_scores(clause, among).items():
                    pool[docnum] += value
        out = []
        absent_share = len(absent) / len(units) if units else 0.0
        beyond = 0 if question.intent.players is None else 1  # a player count asked, no unit of the question
        for docnum in _best(pool, CANDIDATES):
            coverage = found.units_matched(docnum) / len(units) if units else 0.0
            data = self.reader.payload(docnum)
            game = data["game"]
            if game not in meanings:
                own = units if slug else make_units(question.words, question.synonyms.get(game, {}), apart)[:MAX_UNITS]
                meanings[game] = [signals.meaning(unit, self.spellings) for unit in own]
                heard[game] = frozenset().union(*(m.said for m in meanings[game]))
            bonus = signals.name_bonus(data, meanings[game], SYNONYM_NAME_SHARE[question.language], beyond)
            hit = Hit(id=data["id"], game=game, score=pool[docnum], coverage=1.0 if bonus == EXACT_NAME else coverage, data=data)
            out.append(_Found(hit, docnum, pool[docnum], coverage, bonus, absent_share, bool(apart), heard[game]))
        return out

    def _length(self, docnum: int) -> int:
        """The length of an entry's text as the index keeps it (what BM25F normalises by)."""
        return self.scorer.stored_length(docnum, "body")

    def _names_and_asked(self, docnum: int) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
        """The stems of an entry's names and of the questions it answers (analysis.name_stems), made once per entry."""
        made = self._phrases.get(docnum)
        if made is None:
            data = self.reader.payload(docnum)
            names = [frozenset(name) for name in data["name_stems"]]
            made = self._phrases[docnum] = (names, [frozenset(analysis.name_stems(a["text"])) for a in data["asked"]])
        return made

    def _eligible(self, slug: str | None, expansions: set[str] | None, official_only: bool) -> Container[int] | None:
        """The documents a search may return: of a game (of the expansions in play) or of every
        game, without house rules when only official rulings are asked for (None: all may be)."""
        masked = self.scorer.docs("house_rule", "yes") if official_only else set()
        if slug is None:
            return _Excluding(masked) if masked else None
        allowed = self.scorer.docs("game", slug)
        if expansions is not None:
            allowed &= set().union(*(self.scorer.docs("expansion", e) for e in sorted(expansions | {"base"})))
        return allowed - masked

    def _suggestions(self, question: Question, first: Sequence[Hit]) -> list[str]:
        """"Did you mean" for an unsure answer: the question respelled as the names of its first entries say."""
        names = (name for hit in first for name in (hit.data["title"], *(alias["text"] for alias in hit.data["aliases"])))
        answered = {term for name in names for term in analysis.terms("names", name)}  # (as the `names` field has them)
        return self.spellings.suggestions(
            question.text, question.language, self.reading.phrase_stems(question.language), self.reading.game_words, answered
        )

    def _close_titles(self, question: Question, limit: int = 5) -> list[CloseTitle]:
        """The entries whose names resemble the question's words, for an unsure answer ({id, title, game,
        expansion, expansion_name, in_play}): of expansions not in play too, which the answer left out (a card of
        an expansion asked of with `--with base` is named, and why it was not answered)."""
        words = question.words
        content = [w for w in words if w not in analysis.QUESTION_FILLER] or words
        # Each name word, or a close spelling of it (counting half), adds up.
        clauses = []
        for word in content[:MAX_UNITS]:
            clauses.append(scoring.Clause("names", (word,)))
            clauses.extend(scoring.Clause("names", (c[0],), 0.5) for c in self.spellings.of(word))
        # (of the base game alone when the question asks of it: the expansions it left out are no close titles)
        base_game = question.game is not None and question.game in question.base_game_only
        eligible = self._eligible(question.game, set() if base_game else None, question.official_only)
        scores = self.scorer.score(([[clause]] for clause in clauses), limit, eligible).totals
        found = (self.reader.payload(d) for d in _best(_only(scores, eligible), limit))
        return [
            CloseTitle(
                id=d["id"], title=d["title"], game=d["game"], expansion=d["expansion"], expansion_name=d["expansion_name"],
                in_play=_in_play(question, d),
            )
            for d in found
        ]


def _in_play(question: Question, entry: StoredEntry) -> bool:
    """Whether an entry is of the base game or of an expansion in play for the question (all are, of a game whose
    expansions in play are not given)."""
    in_play = question.in_play
    return entry["game"] not in in_play or (entry["expansion"] or "base") in in_play[entry["game"]] | {"base"}


def _best(scores: dict[int, float], count: int) -> list[int]:
    """The best-scored documents, best first; on a tie, the earlier document (as Whoosh orders them)."""
    docnums: Collection[int] = scores.keys()
    if len(scores) > count:
        # Only documents scoring at least the count-th best score need
        # ranking by a key. A cut at most that score is guessed from a
        # sample, so that the scores are read once, not twice; when it
        # turns out too high, the exact cut is taken.
        docnums = []
        step = count // (_SAMPLED_CUT // 2)
        if step > 1 and len(scores) > 8 * count:
            sample = list(scores.values())[::step]
            cut = heapq.nlargest(_SAMPLED_CUT, sample)[-1]  # about 2 * count scores are at least this
            docnums = [d for d, value in scores.items() if value >= cut]
        if len(docnums) < count:
            cut = heapq.nlargest(count, scores.values())[-1]
            docnums = [d for d, value in scores.items() if value >= cut]
    return sorted(docnums, key=lambda d: (-scores[d], d))[:count]


_SAMPLED_CUT = 32
"""_best samples one score in every count / 16: the 32nd best of the sample is its first guess at a cut."""


def _only(scores: dict[int, float], eligible: Container[int] | None) -> dict[int, float]:
    """The scores of the eligible documents (all when None)."""
    return scores if eligible is None else {d: v for d, v in scores.items() if d in eligible}


class _Found:
    """A candidate as its game's search found it: what its features are made of, before it is scored."""

    __slots__ = ("absent", "bm25", "bonus", "coverage", "docnum", "heard", "hit", "split")

    def __init__(
        self, hit: Hit, docnum: int, bm25: float, coverage: float, bonus: float, absent: float, split: bool, heard: frozenset[str]
    ) -> None:
        self.hit, self.docnum, self.bm25, self.coverage, self.bonus = hit, docnum, bm25, coverage, bonus
        self.absent = absent
        """The share of the question's units its search found in no entry at all."""
        self.split = split
        """Whether its search kept apart the words of a phrase that no entry holds (_search)."""
        self.heard = heard
        """The stems the question's units say (their words, close spellings of an unknown word: signals.Meaning)."""


class _Excluding:
    """Every document but some."""

    __slots__ = ("excluded",)

    def __init__(self, excluded: set[int]):
        self.excluded = excluded

    def __contains__(self, docnum: object) -> bool:
        return docnum not in self.excluded
