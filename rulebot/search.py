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

from rulebot import analysis, scoring, spelling
from rulebot.analysis import stem
from rulebot.errors import QueryError, UnknownEntryError, UnknownGameError
from rulebot.index import ALL_GAMES, OpenIndex

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

# (field, its analysis (rulebot.analysis.ANALYSES), searched for the words as typed only). Synonyms and
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
SYNONYM_WEIGHT = 0.85
"""An alternative from the game vocabulary counts a little less than the word typed."""
CORRECTION_WEIGHT = 0.7
"""A close spelling of an unknown word counts less than a word found as typed."""
TRUST_WEIGHT = {"official": 1.0, "designer": 0.97, "community": 0.93, "house": 0.85}
"""When two entries score alike, the more trusted source comes first; a clearly better match still wins."""
AMBIGUOUS_SHARE = 0.8
"""Another game's best entry scoring at least this share of the best answer is shown too."""
EXACT_NAME = 3.0
"""The lift of an entry whose title or alias is the whole question: it answers for sure."""
CONFIDENT_COVERAGE = 0.5
"""The best hit must match more than this share of the question's units to be trusted."""


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
    """The entry's payload (see rulebot.index.entry_payload)."""


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


class Searcher:
    """Searches one opened index; open once, ask many times."""

    def __init__(self, opened: OpenIndex):
        self.opened = opened
        self._official_only = False
        self.games: dict[str, dict] = opened.meta["games"]
        self.reader = opened.index
        tables = opened.meta["synonym_tables"]  # made when the index was built: start-up stays cheap
        self._synonyms = {slug: analysis.decode_synonyms(tables[slug]) for slug in self.games}
        self._all_synonyms = analysis.decode_synonyms(tables[ALL_GAMES])
        self.scorer = scoring.BM25F(self.reader)
        self.vocabulary = spelling.Vocabulary(self.reader)
        self._clauses: dict[Unit, scoring.Unit] = {}
        """What each unit met so far may match."""
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
        return self.reader.stored_fields(min(found))["data"]

    def entries(self, game: str | None = None, kind: str | None = None, expansion: str | None = None) -> list[dict]:
        """Payloads of every entry matching the filters, in corpus order."""
        if game is not None:
            self.check_game(game)
        wanted = [self.scorer.docs(name, value) for name, value in (("game", game), ("kind", kind), ("expansion", expansion)) if value]
        docnums = set.intersection(*wanted) if wanted else self.reader.docnums()
        return [self.reader.stored_fields(n)["data"] for n in sorted(docnums)]

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
        games = [game] if game else self._named_games(words)
        if not game and len(games) == 1:
            words = self._without_game_name(words, games[0]) or words
        self._official_only = official_only
        by_game: dict[str, list[Hit]] = {}
        if games:
            for slug in games:
                by_game[slug] = self._search_game(words, slug, in_play.get(slug))
        else:
            for hit in self._search_everywhere(words, in_play):
                by_game.setdefault(hit.game, []).append(hit)
        searched = list(by_game) or games
        named = {slug: self._named_expansions(words, slug) for slug in searched}
        candidates = sorted((h for hits in by_game.values() for h in hits), key=lambda h: (-h.score, h.id))
        ordering = {slug: in_play.get(slug, set()) | named.get(slug, set()) for slug in searched}
        results = self._modifications_first(candidates, ordering, in_play)[:limit]
        answer = Answer(query=valid_text(question), game=game or (results[0].game if results else None), results=results)
        if len(searched) > 1 and results:
            answer.other_games = self._runners_up(by_game, results)
        answer.confident = bool(results) and (results[0].coverage > CONFIDENT_COVERAGE)
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
            if name in phrases or any(_find(list(p), name) >= 0 for p in phrases if len(p) >= len(name)):
                found.add(expansion["slug"])
            elif _find(words, name) >= 0:
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

    def _runners_up(self, by_game: dict[str, list[Hit]], results: list[Hit]) -> list[Hit]:
        """The best entry of each other game that scores close to the best answer."""
        best = results[0].score
        shown = {h.game for h in results[:1]}
        out = []
        for slug, hits in by_game.items():
            if slug in shown or not hits:
                continue
            if hits[0].score >= AMBIGUOUS_SHARE * best:
                out.append(hits[0])
        return sorted(out, key=lambda h: -h.score)

    def _named_games(self, words: list[str]) -> list[str]:
        """Games whose name or alias the question contains."""
        return [slug for slug, names in self._game_names.items() if any(_find(words, n) >= 0 for n in names)]

    def _without_game_name(self, words: list[str], slug: str) -> list[str]:
        for name in self._game_names[slug]:
            at = _find(words, name)
            if at >= 0:
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
        stems = [stem(w) for w in words]
        lifts = {slug: 1 + TERM_LIFT * min(3, self._game_terms_in(stems, slug)) for slug in {hit.game for hit in hits}}
        for hit in hits:
            hit.score *= lifts[hit.game]
        hits.sort(key=lambda h: (-h.score, h.id))
        return [h for h in hits if h.game not in in_play or (h.data["expansion"] or "base") in in_play[h.game] | {"base"}]

    def _game_terms_in(self, stems: list[str], slug: str) -> int:
        """How many of a game's own terms (its `vocabulary.terms`) the question uses."""
        return sum(1 for term in self._game_terms[slug] if _find(stems, term) >= 0)

    def _search_game(self, words: list[str], slug: str, expansions: set[str] | None = None) -> list[Hit]:
        return self._search(make_units(words, self._synonyms[slug])[:MAX_UNITS], slug, expansions)

    def _search(self, units: list[Unit], slug: str | None, expansions: set[str] | None) -> list[Hit]:
        """Search for the units in one game (or all when slug is None), rescored."""
        words = [w for unit in units for w in unit.words]
        meanings: dict[str, list[set[str]]] = {}  # per game: what each unit may mean, as stems
        # Proximity only reorders the best documents: looking for phrases in
        # every document that has both words would cost the most for the
        # commonest words, in the largest corpora.
        proximity = self._proximity(units)
        eligible = self._eligible(slug, expansions)
        found = self.scorer.score((self._unit_clauses(unit) for unit in units), PROXIMITY_POOL if proximity else CANDIDATES, eligible)
        pool = _only(found.totals, eligible)
        if proximity:
            pool = {docnum: pool[docnum] for docnum in _best(pool, PROXIMITY_POOL)}
            among = set(pool)
            for clause in proximity:
                for docnum, value in self.scorer.clause_scores(clause, among).items():
                    pool[docnum] += value
        hits = []
        for docnum in _best(pool, CANDIDATES):
            covered = found.units_matched(docnum)
            coverage = covered / len(units) if units else 0.0
            data = self.reader.stored_fields(docnum)["data"]
            game = data["game"]
            if game not in meanings:
                own = units if slug else make_units(words, self._synonyms.get(game, {}))[:MAX_UNITS]
                meanings[game] = [self._meaning(unit) for unit in own]
            bonus = _name_bonus(data, meanings[game])
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

    def _meaning(self, unit: Unit) -> set[str]:
        """The stems a unit may stand for: its words, its synonyms, close spellings of an unknown word."""
        stems = {stem(w) for alt in unit.alternatives for w in alt}
        if len(unit.words) == 1:
            stems.update(stem(c[0]) for c in self._close_spellings(unit.words[0]))
        return stems

    def _unit_clauses(self, unit: Unit) -> scoring.Unit:
        """What a unit may match, per field (cached: units recur)."""
        cached = self._clauses.get(unit)
        if cached is None:
            if len(self._clauses) > 10_000:
                self._clauses.clear()
            cached = self._clauses[unit] = self._analyse_unit(unit)
        return cached

    def _analyse_unit(self, unit: Unit) -> scoring.Unit:
        alternatives = [(alt, 1.0 if i == 0 else SYNONYM_WEIGHT) for i, alt in enumerate(unit.alternatives)]
        if len(unit.words) == 1:
            word = unit.words[0]
            alternatives.extend((c, CORRECTION_WEIGHT) for c in self._close_spellings(word))
        by_field: dict[str, list[scoring.Clause]] = {}
        seen = set()
        for number, (alt, weight) in enumerate(alternatives):
            made: dict[str, tuple[str, ...]] = {}  # four fields share the English analysis
            for name, analysed_as, typed_only in FIELDS:
                if typed_only and number:
                    continue
                if analysed_as not in made:
                    made[analysed_as] = tuple(analysis.terms(analysed_as, " ".join(alt)))
                terms = made[analysed_as]
                if terms and (name, terms) not in seen:
                    seen.add((name, terms))
                    by_field.setdefault(name, []).append(scoring.Clause(name, terms, weight))
        return list(by_field.values())

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
        found = (self.reader.stored_fields(d)["data"] for d in _best(_only(scores, eligible), limit))
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


def _find(words: list[str], phrase: tuple[str, ...]) -> int:
    """Index of the first occurrence of a word sequence in a word list, or -1."""
    size = len(phrase)
    for i in range(len(words) - size + 1):
        if tuple(words[i:i + size]) == phrase:
            return i
    return -1


def _name_bonus(data: dict, meanings: list[set[str]]) -> float:
    """How much naming the entry's title or an alias in the question lifts it.

    `meanings` holds, per unit of the question, the stems it may stand for
    (its words, the game's synonyms, close spellings). A name every stem of
    which the question says, in its words or in other words, is *named*: it
    lifts the entry by the share of the question's units it covers, and most
    when it covers them all. "max coins at end of turn" names "Coin limit at
    end of turn".
    """
    if not meanings:
        return 1.0
    said = set().union(*meanings)
    best = 1.0
    for name in data["name_stems"]:
        if not name or not said.issuperset(name) or sum(len(w) for w in name) < 3:
            continue
        covered = sum(1 for meaning in meanings if meaning.intersection(name))
        if covered == len(meanings):
            return EXACT_NAME
        best = max(best, 1.3 + 0.7 * covered / len(meanings))
    return best
