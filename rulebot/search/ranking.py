"""Answering questions: from a player's sloppy question to ranked entries.

A question goes through these steps:

1. clean it (control characters out, length bounded) and split it into
   folded words;
2. find the game: the one given, else the one the question names, else every
   game, each searched with its own vocabulary and the best answers kept;
3. group the words into *units*: a game synonym phrase ("victory points")
   becomes one unit whose alternatives are all the phrases of its group;
   question filler ("can I", "combien de") is dropped;
4. build a Whoosh query, programmatically (question text is never parsed as
   query syntax): per unit, a disjunction over the fields (title, names,
   aliases, French aliases, body) of the unit's alternatives; unknown words
   also try their close spellings from the corpus vocabulary; adjacent words
   add a proximity bonus;
5. rescore the hits by the share of units they match and by exact or
   contained title/alias matches, so that naming a card finds that card.
"""

from __future__ import annotations

import heapq
import unicodedata
from collections.abc import Collection, Container, Mapping
from dataclasses import dataclass, field

from rulebot.language import analysis

from rulebot.language import quantities

from rulebot.search import scoring

from rulebot.search import spelling
from rulebot.language.analysis import stem
from rulebot.errors import QueryError, UnknownEntryError, UnknownGameError
from rulebot.index.opened import ALL_GAMES, OpenIndex

MAX_QUESTION_CHARS = 1000
"""Longer questions are refused: nobody types them, and they only cost time."""
MAX_UNITS = 24
"""Only the first words of a long question are searched."""
TERM_LIFT = 0.1
"""When no game is named, each of a game's own terms in the question (up to 3) lifts its entries by this share."""
PROXIMITY_UNITS = 8
"""Questions of more units get no proximity bonus (see Searcher._proximity)."""
MAX_TYPO_WORD = 32
"""Longer words are not looked up as typos: no name of a game is within two edits of them."""
CANDIDATES = 40
"""Hits fetched per game before rescoring."""
PROXIMITY_POOL = 200
"""The best documents by their words alone that a proximity bonus may reorder."""

# (field, its analysis (rulebot.language.analysis.ANALYSES), searched for the words as typed only). Synonyms and
# close spellings skip `section`, a weak hint: fewer clauses.
FIELDS = (
    ("title", "english", False),
    ("aliases", "english", False),
    ("aliases_fr", "french", False),
    ("asked", "english", False),
    ("asked_fr", "french", False),
    ("body", "english", False),
    ("names", "names", False),
    ("section", "english", True),
)
SYNONYM_NAME_SHARE = {"en": 0.5, "fr": 1.0}
"""A name's words the question reaches only through synonyms lift an entry by this share of what saying them would."""
SYNONYM_WEIGHT = {"en": 0.6, "fr": 0.85}
"""An alternative from the game vocabulary counts less than the word typed, so that a synonym's match never
outweighs the word's own; in a French question, where most alternatives are the English words of the rules
(translations, not other words), a little less only."""
CORRECTION_WEIGHT = 0.7
"""A close spelling of an unknown word counts less than a word found as typed."""
TRUST_WEIGHT = {"official": 1.0, "designer": 0.97, "community": 0.93, "house": 0.85}
"""When two entries score alike, the more trusted source comes first; a clearly better match still wins."""
AMBIGUOUS_SHARE = 0.8
"""Another game's best entry scoring at least this share of the best answer is answered too."""
GENERIC_SHARE = 0.5
"""...this share, when the question uses no game's own terms ("who goes first"): any game may be meant."""
EXACT_NAME = 3.0
"""The lift of an entry whose title or alias is the whole question: it answers for sure."""
QUANTITY_LIFT = 1.0
"""A question asking how many lifts an entry stating a number for all it counts by this share."""
PLAYERS_LIFT = 1.0
"""A question asked for a player count lifts the entries giving a value for that count by this share."""
NAMED_EXPANSION_LIFT = 1.2
"""The entries of an expansion the question names ("with the pearl expansion") are lifted by this much."""
MAX_PARTS = 3
"""An answer shows up to this many entries in full."""
PART_SHARE = 0.4
"""An entry linked to the answer's first ones completes it when it scores at least this share of the best."""
CLOSE_SHARE = 0.85
"""An entry scoring at least this share of the best is shown in full beside it."""
CONFIDENT_COVERAGE = 0.6
"""The best hit must match more than this share of the question's units to be trusted."""
CONFIDENT_MARGIN = 0.7
"""...and no entry unrelated to it may score more than this share of its score."""


@dataclass(frozen=True)
class Meaning:
    """What one unit of a question stands for, as stems."""

    said: set[str]
    """Its words as typed, and close spellings of an unknown word."""
    meant: set[str]
    """Those, and its synonyms."""


@dataclass(frozen=True)
class Unit:
    """One thing the question asks about: a word, or a synonym phrase."""

    words: tuple[str, ...]
    """The folded words as typed."""
    alternatives: tuple[tuple[str, ...], ...]
    """Word sequences that mean the same, the typed one first."""


@dataclass
class Hit:
    """An entry found for a question."""

    id: str
    """The entry's id."""
    game: str
    """The entry's game."""
    score: float
    """Final score, comparable within one answer."""
    coverage: float
    """Share of the question's units the entry matches (0..1)."""
    data: dict
    """The entry's payload (see rulebot.index.payload.entry_payload)."""


@dataclass
class Answer:
    """What `ask` found for a question."""

    query: str
    """The question as received."""
    game: str | None
    """The game searched: given, named in the question, or of the best hit."""
    results: list[Hit] = field(default_factory=list)
    """Best first."""
    confident: bool = False
    """False when no entry matches the question clearly."""
    suggestions: list[str] = field(default_factory=list)
    """Corrected spellings of the question, for "did you mean"."""
    close_titles: list[dict] = field(default_factory=list)
    """Entries whose names resemble the question's words ({id, title, game})."""
    other_games: list[Hit] = field(default_factory=list)
    """When the game was not given: the best entry of other games that score close."""
    language: str = "en"
    """The language the question is written in (en or fr)."""
    players: int | None = None
    """The player count the question is asked for ("with 3 players"), if it gives one."""
    parts: int = 1
    """How many of the first results make up the answer: the best, and those that complete it."""


class Searcher:
    """Searches one opened index; open once, ask many times."""

    def __init__(self, opened: OpenIndex):
        self.opened = opened
        self._official_only = False
        self.games: dict[str, dict] = opened.meta["games"]
        self.reader = opened.index
        self._tables = opened.meta["synonym_tables"]  # made when the index was built: start-up stays cheap
        self._decoded: dict[str, tuple[dict[str, analysis.SynonymTable], analysis.SynonymTable]] = {}
        self._synonyms, self._all_synonyms = self._vocabulary("en")
        self._language_now = "en"
        self.scorer = scoring.BM25F(self.reader)
        self.vocabulary = spelling.Vocabulary(self.reader)
        self._clauses: dict[tuple[Unit, bool, str], scoring.Unit] = {}
        """What each unit met so far may match, in one game or (True) across games, in a question's language."""
        self._docs_of_games: dict[frozenset[str], frozenset[int]] = {}
        """The documents of some games, by the games: where a synonym of those games may match."""
        self._spelling: dict[str, list[tuple[str, ...]]] = {}
        """Close spellings of unknown words, by word: the same for every question."""
        self._game_terms = {
            slug: [t for t in (tuple(stem(w) for w in analysis.words(term)) for term in game["terms"]) if t]
            for slug, game in self.games.items()
        }
        """Each game's terms, as stem sequences: words that point at the game."""
        self._game_names = {
            slug: sorted({tuple(analysis.words(a)) for a in game["aliases"]} - {()}, key=len, reverse=True)
            for slug, game in self.games.items()
        }

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
        return bool(french) and any(self.reader.doc_frequency(name, french[0]) for name in ("aliases_fr", "asked_fr"))

    def _vocabulary(self, language: str) -> tuple[dict[str, analysis.SynonymTable], analysis.SynonymTable]:
        """The synonym tables for questions in a language: per game, and of every game together (decoded once)."""
        if language not in self._decoded:
            tables = self._tables[language]
            self._decoded[language] = (
                {slug: analysis.decode_synonyms(tables[slug]) for slug in self.games},
                analysis.decode_synonyms(tables[ALL_GAMES]),
            )
        return self._decoded[language]

    def close(self) -> None:
        """Release the index files (they are opened again if the index is searched again)."""
        self.reader.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- look-ups ------------------------------------------------------------

    def check_game(self, slug: str) -> None:
        """UnknownGameError unless the index has this game."""
        if slug not in self.games:
            raise UnknownGameError.among(slug, {s: g["aliases"] for s, g in self.games.items()})

    def resolve_expansions(self, names: Collection[str], game: str | None = None) -> dict[str, set[str]]:
        """Map `--with` names to {game: expansions}; `base` (with a game) means none.

        UnknownGameError (a RulebotError) for an unknown game, or when a name is
        no expansion (of the game), or is ambiguous between games without a game to choose.
        """
        if game is not None:
            self.check_game(game)
        chosen: dict[str, set[str]] = {}
        for name in names:
            if name == "base":
                if game is None:
                    raise UnknownGameError("--with base needs --game, to say which game is played without expansions")
                chosen.setdefault(game, set())
                continue
            owners = [slug for slug, g in self.games.items() if any(e["slug"] == name for e in g["expansions"])]
            if game is not None:
                owners = [o for o in owners if o == game]
            if not owners:
                raise UnknownGameError(self._unknown_expansion(name, game))
            if len(owners) > 1:
                raise UnknownGameError(f"expansion {name!r} belongs to several games ({', '.join(owners)}): add --game")
            chosen.setdefault(owners[0], set()).add(name)
        return chosen

    def _unknown_expansion(self, name: str, game: str | None) -> str:
        """The message for a `--with` name that is no expansion: the game's expansions, or every game's."""
        from rulebot.text import meant, unknown

        games = {game: self.games[game]} if game else self.games
        names = {e["slug"]: [e["name"]] for g in games.values() for e in g["expansions"]}
        known = [e["slug"] if game else f"{e['slug']} ({slug})" for slug, g in games.items() for e in g["expansions"]]
        return unknown("expansion", name, known, meant(name, names), of=game or "")

    def get(self, entry_id: str) -> dict:
        """The payload of one entry, its id in any case; UnknownEntryError (with close ids) if none."""
        found = self.scorer.docs("id", entry_id.lower())
        if not found:
            close = self._close_ids(entry_id.lower())
            hint = f"; did you mean: {', '.join(close)}" if close else "; `rulebot list` shows every id"
            raise UnknownEntryError(f"no entry {entry_id!r}{hint}")
        return self.reader.payload(min(found))

    def entries(self, game: str | None = None, kind: str | None = None, expansion: str | None = None) -> list[dict]:
        """Payloads of every entry matching the filters, in corpus order."""
        if game is not None:
            self.check_game(game)
        wanted = [self.scorer.docs(name, value) for name, value in (("game", game), ("kind", kind), ("expansion", expansion)) if value]
        docnums = set.intersection(*wanted) if wanted else self.reader.docnums()
        return [self.reader.payload(n) for n in sorted(docnums)]

    def _close_ids(self, entry_id: str) -> list[str]:
        from difflib import get_close_matches

        ids = [t.decode("utf-8") for t in self.reader.lexicon("id")]
        return get_close_matches(entry_id, ids, n=3, cutoff=0.6)

    # -- asking --------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        limit: int = 5,
        expansions: Mapping[str, Collection[str]] | None = None,
        official_only: bool = False,
    ) -> Answer:
        """Rank the entries that answer a question, best first.

        `expansions` maps a game to the expansions in play: that game's
        entries of other expansions are left out, and a rule changed by an
        expansion in play comes after the entry that changes it. Games it does
        not name are searched whole. Expansions named in the question are in
        play for the ordering too. `official_only` leaves house rules out.
        """
        text = clean_question(question)
        if game is not None:
            self.check_game(game)
        in_play = {g: set(e) for g, e in (expansions or {}).items()}
        for slug in in_play:
            self.check_game(slug)
        words = analysis.words(text)
        if not words:
            raise QueryError("the question has no words to search for")
        language = self._language_now = self._language(text, words)
        self._synonyms, self._all_synonyms = self._vocabulary(language)
        intent = quantities.read_intent(words, language)
        words = list(intent.words) or words
        games = [game] if game else self._named_games(words)
        if len(games) == 1:
            words = self._without_game_name(words, games[0])
        named = {slug: self._named_expansions(words, slug) for slug in games}
        if len(games) == 1:
            # An expansion's name says which rules are meant, as --with would:
            # its words describe no ruling ("perlae imperii 3 players how many monuments").
            words = self._without_expansion_names(words, games[0])
        self._official_only = official_only
        by_game: dict[str, list[Hit]] = {}
        if games:
            for slug in games:
                by_game[slug] = self._search_game(words, slug, in_play.get(slug))
        else:
            for hit in self._search_everywhere(words, in_play):
                by_game.setdefault(hit.game, []).append(hit)
        searched = list(by_game) or games
        for slug in searched:
            named.setdefault(slug, self._named_expansions(words, slug))
        for hits in by_game.values():
            _lift_by_intent(hits, intent, words)
        for slug, hits in by_game.items():
            for hit in hits:
                if hit.data["expansion"] in named[slug]:
                    hit.score *= NAMED_EXPANSION_LIFT
            hits.sort(key=lambda h: (-h.score, h.id))
        candidates = sorted((h for hits in by_game.values() for h in hits), key=lambda h: (-h.score, h.id))
        ordering = {slug: in_play.get(slug, set()) | named.get(slug, set()) for slug in searched}
        results = self._modifications_first(candidates, ordering, in_play)[:limit]
        answer = Answer(
            query=valid_text(question), game=game or (results[0].game if results else None), results=results,
            language=language, players=intent.players,
        )
        if len(searched) > 1 and results:
            # A question with no word of any game's own terms could be about any of them.
            generic = not any(self._game_terms_in([stem(w) for w in words], slug) for slug in searched)
            answer.other_games = self._runners_up(by_game, results, GENERIC_SHARE if generic else AMBIGUOUS_SHARE)
        # Several games answer alike: each is answered, none is stood by. A count asked for
        # is only answered by an entry that states a number for what is counted.
        answer.confident = (
            _confident(results[:1] + candidates)
            and not answer.other_games
            and not (intent.quantity and results and not _states_count(results[0], intent, words))
        )
        answer.results, answer.parts = _answer_first(results)
        if not answer.confident:
            answer.suggestions = self._suggestions(words)
            answer.close_titles = self._close_titles(words, game)
        return answer

    def _named_expansions(self, words: list[str], slug: str) -> set[str]:
        """Expansions of a game that the question names (directly or by a synonym)."""
        found = set()
        units = make_units(words, self._synonyms[slug])
        phrases = {alt for unit in units for alt in unit.alternatives}
        for expansion in self.games[slug]["expansions"]:
            name = tuple(analysis.words(expansion["name"]))
            if name in phrases or any(analysis.find_phrase(list(p), name) >= 0 for p in phrases if len(p) >= len(name)):
                found.add(expansion["slug"])
            elif analysis.find_phrase(words, name) >= 0:
                found.add(expansion["slug"])
        return found

    def _modifications_first(self, hits: list[Hit], ordering: dict[str, set[str]], in_play: dict[str, set[str]]) -> list[Hit]:
        """Put the entry of an expansion in play before the rule it changes."""
        out: list[Hit] = []
        placed: set[str] = set()
        by_id = {h.id: h for h in hits}
        for hit in hits:
            if hit.id in placed:
                continue
            for modifier in hit.data.get("modified_by", []):
                expansion = modifier.get("expansion")
                if modifier["id"] in placed or expansion is None or expansion not in ordering.get(hit.game, ()):
                    continue
                if expansion not in in_play.get(hit.game, {expansion}):
                    continue
                before = by_id.get(modifier["id"])
                if before is None:
                    data = self.get(modifier["id"])
                    if self._official_only and data.get("house_rule"):
                        continue
                    before = Hit(modifier["id"], hit.game, hit.score, hit.coverage, data)
                out.append(before)
                placed.add(before.id)
            out.append(hit)
            placed.add(hit.id)
        return out

    def _runners_up(self, by_game: dict[str, list[Hit]], results: list[Hit], share: float) -> list[Hit]:
        """The best entry of each other game that scores at least `share` of the best answer."""
        best = results[0].score
        shown = {h.game for h in results[:1]}
        out = []
        for slug, hits in by_game.items():
            if slug in shown or not hits:
                continue
            if hits[0].score >= share * best:
                out.append(hits[0])
        return sorted(out, key=lambda h: -h.score)

    def _named_games(self, words: list[str]) -> list[str]:
        """Games whose name or alias the question contains."""
        return [slug for slug, names in self._game_names.items() if any(analysis.find_phrase(words, n) >= 0 for n in names)]

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
            at = analysis.find_phrase(words, name)
            if at >= 0 and (at == 0 or at + len(name) == len(words)) and len(words) > len(name):
                return words[:at] + words[at + len(name):]
        return words

    def _search_everywhere(self, words: list[str], in_play: dict[str, set[str]]) -> list[Hit]:
        """One search over every game, with every game's synonyms, for a question that names none.

        A single search keeps the cost of a question flat however many games
        the corpus holds; each game's synonyms only add alternatives (that
        count less than the words typed), so they cannot outweigh a game
        whose entries use the question's own words.
        """
        hits = self._search(make_units(words, self._all_synonyms)[:MAX_UNITS], None, None)
        # (each synonym only matches the entries of the games whose vocabulary has it: see _scope)
        stems = [stem(w) for w in words]
        lifts = {slug: 1 + TERM_LIFT * min(3, self._game_terms_in(stems, slug)) for slug in {hit.game for hit in hits}}
        for hit in hits:
            hit.score *= lifts[hit.game]
        hits.sort(key=lambda h: (-h.score, h.id))
        return [h for h in hits if h.game not in in_play or (h.data["expansion"] or "base") in in_play[h.game] | {"base"}]

    def _game_terms_in(self, stems: list[str], slug: str) -> int:
        """How many of a game's own terms (its `vocabulary.terms`) the question uses."""
        return sum(1 for term in self._game_terms[slug] if analysis.find_phrase(stems, term) >= 0)

    def _search_game(self, words: list[str], slug: str, expansions: set[str] | None = None) -> list[Hit]:
        return self._search(make_units(words, self._synonyms[slug])[:MAX_UNITS], slug, expansions)

    def _search(self, units: list[Unit], slug: str | None, expansions: set[str] | None) -> list[Hit]:
        """Search for the units in one game (or all when slug is None), rescored."""
        words = [w for unit in units for w in unit.words]
        meanings: dict[str, list[Meaning]] = {}  # per game: what each unit says and may mean, as stems
        # Proximity only reorders the best documents: looking for phrases in
        # every document that has both words would cost the most for the
        # commonest words, in the largest corpora.
        proximity = self._proximity(units)
        eligible = self._eligible(slug, expansions)
        found = self.scorer.score((self._unit_clauses(unit, slug is None) for unit in units), PROXIMITY_POOL if proximity else CANDIDATES, eligible)
        pool = _only(found.totals, eligible)
        if proximity:
            pool = {docnum: pool[docnum] for docnum in _best(pool, PROXIMITY_POOL)}
            among = set(pool)
            for clause in proximity:
                for docnum, value in self.scorer.clause_scores(clause, among).items():
                    pool[docnum] += value
        hits = []
        for docnum in _best(pool, CANDIDATES):
            coverage = found.units_matched(docnum) / len(units) if units else 0.0
            data = self.reader.payload(docnum)
            game = data["game"]
            if game not in meanings:
                own = units if slug else make_units(words, self._synonyms.get(game, {}))[:MAX_UNITS]
                meanings[game] = [self._meaning(unit) for unit in own]
            bonus = _name_bonus(data, meanings[game], SYNONYM_NAME_SHARE[self._language_now])
            trust = TRUST_WEIGHT.get(data["source"].get("trust") or "official", 1.0)
            score = pool[docnum] * (0.2 + 0.8 * coverage**2) * bonus * trust
            hits.append(Hit(id=data["id"], game=data["game"], score=score, coverage=1.0 if bonus == EXACT_NAME else coverage, data=data))
        return hits

    def _eligible(self, slug: str | None, expansions: set[str] | None) -> Container[int] | None:
        """The documents a search may return: of a game (of the expansions in play) or of every
        game, without house rules when only official rulings are asked for (None: all may be)."""
        masked = self.scorer.docs("house_rule", "yes") if self._official_only else set()
        if slug is None:
            return _Excluding(masked) if masked else None
        allowed = self.scorer.docs("game", slug)
        if expansions is not None:
            allowed &= set().union(*(self.scorer.docs("expansion", e) for e in sorted(expansions | {"base"})))
        return allowed - masked

    def _meaning(self, unit: Unit) -> Meaning:
        """The stems a unit says (its words, close spellings of an unknown word) and may mean (its synonyms too)."""
        said = {stem(w) for w in unit.words}
        if len(unit.words) == 1:
            said.update(stem(c[0]) for c in self._close_spellings(unit.words[0]))
        return Meaning(said, said | {stem(w) for alt in unit.alternatives for w in alt})

    def _unit_clauses(self, unit: Unit, across_games: bool) -> scoring.Unit:
        """What a unit may match, per field (cached: units recur); across games, each synonym in its games only."""
        key = (unit, across_games, self._language_now)
        cached = self._clauses.get(key)
        if cached is None:
            if len(self._clauses) > 10_000:
                self._clauses.clear()
            cached = self._clauses[key] = self._analyse_unit(unit, across_games)
        return cached

    def _analyse_unit(self, unit: Unit, across_games: bool) -> scoring.Unit:
        alternatives = [(alt, 1.0, None) for alt in unit.alternatives[:1]]
        for alt in unit.alternatives[1:]:
            alternatives.append((alt, SYNONYM_WEIGHT[self._language_now], self._scope(unit, alt) if across_games else None))
        if len(unit.words) == 1:
            word = unit.words[0]
            alternatives.extend((c, CORRECTION_WEIGHT, None) for c in self._close_spellings(word))
        by_field: dict[str, list[scoring.Clause]] = {}
        seen = set()
        for number, (alt, weight, within) in enumerate(alternatives):
            made: dict[str, tuple[str, ...]] = {}  # four fields share the English analysis
            for name, analysed_as, typed_only in FIELDS:
                if typed_only and number:
                    continue
                if analysed_as not in made:
                    made[analysed_as] = tuple(analysis.terms(analysed_as, " ".join(alt)))
                terms = made[analysed_as]
                if terms and (name, terms) not in seen:
                    seen.add((name, terms))
                    by_field.setdefault(name, []).append(scoring.Clause(name, terms, weight, within=within))
        return list(by_field.values())

    def _scope(self, unit: Unit, alternative: tuple[str, ...]) -> frozenset[int] | None:
        """Where a synonym of a unit may match when no game is chosen: in the entries of the games whose
        vocabulary has it (None: every game's). A word of one game's vocabulary never brings another game's
        entries in ("gold" means coins in one game, an essence in another)."""
        key = tuple(stem(w) for w in unit.words)
        owners = frozenset(slug for slug, table in self._synonyms.items() if alternative in table.get(key, ()))
        if len(owners) == len(self._synonyms):
            return None
        docs = self._docs_of_games.get(owners)
        if docs is None:
            docs = self._docs_of_games[owners] = frozenset().union(*(self.scorer.docs("game", slug) for slug in owners))
        return docs

    def _proximity(self, units: list[Unit]) -> list[scoring.Clause]:
        """A bonus for adjacent question words found close together in a text.

        Only for questions of a table's length: in a long one every pair is a
        costly phrase search, and the share of words matched ranks well alone.
        """
        out: list[scoring.Clause] = []
        if len(units) > PROXIMITY_UNITS:
            return out
        for left, right in zip(units, units[1:]):
            if len(left.words) != 1 or len(right.words) != 1:
                continue
            terms = analysis.terms("english", f"{left.words[0]} {right.words[0]}")
            if len(terms) == 2:
                out.append(scoring.Clause("body", tuple(terms), 0.5, slop=2))
                out.append(scoring.Clause("title", tuple(terms), 0.5, slop=1))
        return out

    def _known(self, word: str) -> bool:
        """True when the word is in the corpus vocabulary: a name's word, or a text's (by stem)."""
        if (len(word) < 4) or word.isdigit():
            return True
        if self.reader.doc_frequency("names", word):
            return True
        return any(self.reader.doc_frequency("body", term) for term in analysis.terms("english", word))

    def _close_spellings(self, word: str) -> list[tuple[str, ...]]:
        """Close spellings of a word unknown to the corpus, best first; [] for a known word.

        Looked up once per word (cached), and never for a word too long to be
        a typo of anything in the corpus: the look-up cost stays bounded.
        """
        cached = self._spelling.get(word)
        if cached is not None:
            return cached
        if len(word) > MAX_TYPO_WORD or self._known(word):
            found: list[tuple[str, ...]] = []
        else:
            found = self._corrections(word)
        if len(self._spelling) > 10_000:
            self._spelling.clear()
        self._spelling[word] = found
        return found

    def _corrections(self, word: str, limit: int = 3) -> list[tuple[str, ...]]:
        """Close spellings of a word: names' words first, then text stems; most frequent first."""
        maxdist = 1 if len(word) <= 6 else 2
        found: dict[str, tuple[int, int]] = {}  # candidate: (from text, -frequency)
        for name, typed in (("names", word), ("body", stem(word))):
            for candidate in self.vocabulary.within(name, typed, maxdist):
                if candidate != typed and candidate not in found:
                    found[candidate] = (name == "body", -self.reader.doc_frequency(name, candidate))
        ranked = sorted(found, key=lambda w: (found[w][0], spelling.distance(w, word), found[w][1], w))
        return [(w,) for w in ranked[:limit]]

    def _suggestions(self, words: list[str]) -> list[str]:
        corrected, changed = [], False
        for word in words[:MAX_UNITS]:
            options = [] if word in analysis.QUESTION_FILLER else self._close_spellings(word)
            if options:
                corrected.append(options[0][0])
                changed = True
            else:
                corrected.append(word)
        return [" ".join(corrected)] if changed else []

    def _close_titles(self, words: list[str], game: str | None, limit: int = 5) -> list[dict]:
        content = [w for w in words if w not in analysis.QUESTION_FILLER] or words
        # Each name word, or a close spelling of it (counting half), adds up.
        clauses = []
        for word in content[:MAX_UNITS]:
            clauses.append(scoring.Clause("names", (word,)))
            clauses.extend(scoring.Clause("names", (c[0],), 0.5) for c in self._close_spellings(word))
        eligible = self._eligible(game, None)
        scores = self.scorer.score(([[clause]] for clause in clauses), limit, eligible).totals
        found = (self.reader.payload(d) for d in _best(_only(scores, eligible), limit))
        return [{"id": d["id"], "title": d["title"], "game": d["game"]} for d in found]


def valid_text(text: str) -> str:
    """Text that encodes as UTF-8: undecodable argv bytes and lone surrogates become U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is no escaped byte
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


def clean_question(question: str) -> str:
    """The question without control characters or broken surrogates; QueryError if unusable."""
    if len(question) > MAX_QUESTION_CHARS:
        raise QueryError(f"the question is too long ({len(question)} characters; at most {MAX_QUESTION_CHARS})")
    text = question.encode("utf-8", "replace").decode("utf-8")
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if unicodedata.category(c)[0] == "C" else c for c in text)
    text = " ".join(text.split())
    if not text:
        raise QueryError("the question is empty")
    return text


def make_units(words: list[str], synonyms: dict[tuple[str, ...], tuple[tuple[str, ...], ...]]) -> list[Unit]:
    """Group the words of a question into units, dropping question filler."""
    longest = max((len(k) for k in synonyms), default=1)
    stems = [stem(w) for w in words]
    units: list[Unit] = []
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            group = synonyms.get(tuple(stems[i:i + size]))
            if group is not None:
                typed = tuple(words[i:i + size])
                # Every other wording counts: one with the same stems still
                # differs in the fields that are not stemmed (names).
                units.append(Unit(typed, (typed, *(g for g in group if g != typed))))
                i += size
                break
        else:
            units.append(Unit((words[i],), ((words[i],),)))
            i += 1
    content = [u for u in units if not (len(u.words) == 1 and u.words[0] in analysis.QUESTION_FILLER and len(u.alternatives) == 1)]
    return content or units


def _best(scores: dict[int, float], count: int) -> list[int]:
    """The best-scored documents, best first; on a tie, the earlier document (as Whoosh orders them)."""
    docnums = scores.keys()
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


@dataclass(frozen=True)
class _Excluding:
    """Every document but some."""

    excluded: set[int]

    def __contains__(self, docnum: object) -> bool:
        return docnum not in self.excluded


def _confident(ranked: list[Hit]) -> bool:
    """Whether the best entry clearly answers: it matches most of the question, no entry unrelated to it
    comes close to it, and no entry it links to (See also) scores as well."""
    if not ranked or ranked[0].coverage <= CONFIDENT_COVERAGE:
        return False
    best = ranked[0]
    for hit in ranked[1:]:
        if hit.id == best.id or _changes(best, hit) or _changes(hit, best):
            continue  # the rule an expansion or erratum changes completes the answer
        # An entry the best links to is part of the same ruling, unless it scores as well: then either may be the answer.
        margin = CLOSE_SHARE if _linked(best, hit) else CONFIDENT_MARGIN
        if hit.score >= margin * best.score:
            return False
    return True


def _answer_first(results: list[Hit]) -> tuple[list[Hit], int]:
    """The results with those that make up the answer first, and how many they are (up to MAX_PARTS).

    The best entry is the answer's first part; another is a part when it
    completes a part before it (the rule it changes or that changes it; an
    entry it links to, scoring at least PART_SHARE of the best) or when it
    scores close to the best (CLOSE_SHARE)."""
    if not results:
        return results, 0
    best = results[0].score
    parts, rest = results[:1], []
    for hit in results[1:]:
        changes = any(_changes(hit, part) or _changes(part, hit) for part in parts)
        linked = hit.score >= PART_SHARE * best and any(_linked(hit, part) for part in parts)
        if len(parts) < MAX_PARTS and (changes or linked or hit.score >= CLOSE_SHARE * best):
            parts.append(hit)
        else:
            rest.append(hit)
    return parts + rest, len(parts)


def _changes(one: Hit, other: Hit) -> bool:
    """Whether one entry changes the other (an expansion rule, an erratum)."""
    return any(ref["id"] == other.id for ref in one.data.get("modifies", ()))


def _linked(one: Hit, other: Hit) -> bool:
    """Whether two entries are linked: one's See also, Changes or Changed by names the other."""
    return other.id in _links(one.data) or one.id in _links(other.data)


def _links(data: dict) -> set[str]:
    return {*data.get("see_also", ()), *(ref["id"] for key in ("modifies", "modified_by") for ref in data.get(key, ()))}


def _states_count(hit: Hit, intent: quantities.Intent, words: list[str]) -> bool:
    """Whether an entry states a number for something the question counts."""
    return bool(_content_stems(words).intersection(hit.data.get("counted", ())))


def _content_stems(words: list[str]) -> set[str]:
    """The stems of a question's words that say what it is about (no filler, no number)."""
    return {stem(w) for w in words if w not in analysis.QUESTION_FILLER and quantities.number_of(w) is None}


def _lift_by_intent(hits: list[Hit], intent: quantities.Intent, words: list[str]) -> None:
    """Lift the entries that state what the question counts, and those that give its player count.

    "How many buildings can I own": an entry with a number next to
    "building" states it; one that only says "building" does not. "With 3
    players": an entry with a value for 3 players (a table row, a list
    item) is the one to read.
    """
    if not intent.quantity and intent.players is None:
        return
    content = _content_stems(words)
    for hit in hits:
        lift = 1.0
        if intent.quantity and content:
            stated = content.intersection(hit.data.get("counted", ()))
            lift += QUANTITY_LIFT * len(stated) / len(content)
        if intent.players is not None and intent.players in hit.data.get("player_counts", ()):
            lift += PLAYERS_LIFT
        hit.score *= lift


def _name_bonus(data: dict, meanings: list[Meaning], synonym_share: float) -> float:
    """How much naming the entry's title or an alias in the question lifts it.

    `meanings` holds, per unit of the question, the stems it says (its words,
    close spellings) and may mean (the game's synonyms too). A name every stem
    of which the question means is *named*: it lifts the entry by the share of
    the question's units it covers, and most when it covers them all. "max
    coins at end of turn" names "Coin limit at end of turn". A name the
    question reaches through synonyms lifts it by the share of its words the question says:
    "gold" lifts "Gold leaf", not the "Apples" that gold means.
    """
    if not meanings:
        return 1.0
    said = set().union(*(m.said for m in meanings))
    meant = set().union(*(m.meant for m in meanings))
    best = 1.0
    for name in data["name_stems"]:
        if not name or not meant.issuperset(name) or sum(len(w) for w in name) < 3:
            continue
        covered = sum(1 for meaning in meanings if meaning.meant.intersection(name))
        bonus = EXACT_NAME if covered == len(meanings) else 1.3 + 0.7 * covered / len(meanings)
        typed = sum(1 for stem_ in name if stem_ in said) / len(name)
        best = max(best, 1 + (bonus - 1) * (typed + (1 - typed) * synonym_share))
    return best
