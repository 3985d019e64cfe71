"""The answer to a question, made of the entries found: which of them make it up, in what order, how sure it is.

- Order: the entry of an expansion in play comes before the rule it changes
  (modifications_first).
- Parts: the best entry, and up to MAX_PARTS - 1 more that complete it (the
  rule it changes or that changes it, an entry it links to) or score close to
  it (answer_first).
- Several games: when the game was not given, the best entry of each other
  game that scores close to the answer is answered too (runners_up).
- Confidence: how likely the first entry is right is the ranking model's
  (rulebot.search.features.probability).

The order of the entries is the ranking model's (rulebot.search.features);
this module only places an expansion's change before the rule it changes,
which is presentation. The constants are in rulebot.search.constants.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from rulebot.search.constants import CLOSE_SHARE, MAX_PARTS, PART_SHARE

INTERNAL_KEYS = ("terminal", "translated_terminal", "name_stems", "counted", "player_counts", "defers")
"""Payload keys that are for the printer only, not for JSON readers."""

if TYPE_CHECKING:
    from rulebot.index.payload import EntryJSON, StoredEntry
    from rulebot.search.rulings import Match, Ruling


class CloseTitle(TypedDict):
    """An entry whose names resemble an unsure answer's question (Answer.close_titles)."""

    id: str
    title: str
    game: str
    expansion: str | None
    expansion_name: str | None
    in_play: bool
    """False for an entry of an expansion the question left out of play (`--with`): why it is no answer."""


class Hit:
    """An entry found for a question.

    The search's records are plain classes, not dataclasses: a cold `rulebot ask`
    would otherwise load `dataclasses` and the `inspect` module it imports.
    """

    __slots__ = ("coverage", "data", "features", "game", "id", "score")

    def __init__(self, id: str, game: str, score: float, coverage: float, data: StoredEntry, features: list[float] | None = None) -> None:
        self.id = id
        """The entry's id."""
        self.game = game
        """The entry's game."""
        self.score = score
        """Final score, comparable within one answer."""
        self.coverage = coverage
        """Share of the question's units the entry matches (0..1)."""
        self.data = data
        """The entry's payload (see rulebot.index.payload.entry_payload)."""
        self.features = features if features is not None else []
        """Its feature vector (rulebot.search.features.FEATURES), which its score is made of."""

    def with_data(self, data: StoredEntry) -> Hit:
        """The same hit with another payload (the entry in another language, without house rules)."""
        return Hit(self.id, self.game, self.score, self.coverage, data, self.features)

    def __repr__(self) -> str:
        return f"Hit({self.id!r}, {self.game!r}, score={self.score:.3f}, coverage={self.coverage:.2f})"


class Answer:
    """What rulebot answers to a question: the one answer of the search, the command line and the Python API.

    It cannot be changed once made (each attribute is read-only): what the
    search finds and what the front door (rulebot.answering.Answerer) adds
    to it are known before it is made; a changed answer is a new one
    (`replace`). A plain class, as Hit is, not a frozen dataclass: a cold
    `rulebot ask` loads no `dataclasses`. The Python API's view of its hits
    (`matches`, `rulings`, `other_games`: rulebot.search.rulings) is made
    when asked for, once. It pickles and copies through its constructor
    (__reduce__), and hashes as it compares (__hash__).
    """

    FIELDS = (
        "query", "game", "results", "parts", "confident", "probability", "evidence", "suggestions", "close_titles",
        "runners_up", "language", "answer_language", "players", "setup", "instead_of", "base_game_only",
    )
    """Its attributes, in the constructor's order."""
    __slots__ = (*FIELDS, "_matches")

    query: str
    """The question as received."""
    game: str | None
    """The game answered: given, named in the question, or of the best hit."""
    results: tuple[Hit, ...]
    """The entries found, best first; those that make up the answer come first."""
    parts: int
    """How many of the first results make up the answer: the best, and those that complete it."""
    confident: bool
    """Whether the answer is stood by (rulebot.search.features.confident): its probability reaches the model's
    threshold, and none of what no answer is stood by holds (no other game answers alike, ...)."""
    probability: float
    """How likely the first result is right (rulebot.search.features.probability)."""
    evidence: tuple[float, ...]
    """What that probability is computed from (rulebot.search.features.CONFIDENCE)."""
    suggestions: tuple[str, ...]
    """Corrected spellings of the question, for "did you mean" (when unsure)."""
    close_titles: tuple[CloseTitle, ...]
    """Entries whose names resemble the question's words, when unsure: of expansions not in play too."""
    runners_up: tuple[Hit, ...]
    """When the game was not given: the best entry of each other game that scores close."""
    language: str
    """The language the question is written in (en or fr)."""
    answer_language: str
    """The language the answer is given in (en or fr): each entry's text in it where the entry has one."""
    players: int | None
    """The player count the question is asked for ("with 3 players"), if it gives one."""
    setup: dict[str, Any] | None
    """For a question with a player count: the setup steps for that count that the answer's entries state
    (rulebot.search.for_players), or None."""
    instead_of: dict[str, str] | None
    """The game the question was asked of, {"slug", "name"} (given, or whose expansion is in play), when the
    answer is an entry of another game that the question names (rulebot.answering); else None."""
    base_game_only: tuple[str, ...]
    """The games whose expansions were left out because the question says it is about the base game alone ("base
    game only", "sans extension"), as `--with base` leaves them out; empty when it says nothing of the kind."""
    _matches: tuple[Match, ...] | None
    """The rulings found (`matches`), made when first asked for."""

    def __init__(
        self,
        query: str,
        game: str | None,
        results: Iterable[Hit] = (),
        *,
        parts: int = 1,
        confident: bool = False,
        probability: float = 0.0,
        evidence: Iterable[float] = (),
        suggestions: Iterable[str] = (),
        close_titles: Iterable[CloseTitle] = (),
        runners_up: Iterable[Hit] = (),
        language: str = "en",
        answer_language: str = "en",
        players: int | None = None,
        setup: dict[str, Any] | None = None,
        instead_of: dict[str, str] | None = None,
        base_game_only: Iterable[str] = (),
    ) -> None:
        given = {
            "query": query, "game": game, "results": tuple(results), "parts": parts, "confident": confident,
            "probability": probability, "evidence": tuple(evidence), "suggestions": tuple(suggestions),
            "close_titles": tuple(close_titles), "runners_up": tuple(runners_up), "language": language,
            "answer_language": answer_language, "players": players, "setup": setup, "instead_of": instead_of,
            "base_game_only": tuple(base_game_only),
        }
        for name, value in given.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_matches", None)  # made from the results when first asked for (`matches`)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Answer cannot be changed ({name}): make another with Answer.replace")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Answer cannot be changed ({name})")

    def replace(self, **changes: Any) -> Answer:
        """Another answer: this one with some attributes changed (as dataclasses.replace); `question` is `query`."""
        if "question" in changes:
            if "query" in changes:
                raise TypeError("an Answer's question is its query: give one of them")
            changes["query"] = changes.pop("question")
        derived = set(changes) & {"games", "matches", "rulings", "other_games"}
        if derived:
            raise TypeError(f"an Answer's {', '.join(sorted(derived))} are made from its game, results and runners_up: replace those")
        unknown = set(changes) - set(self.FIELDS)
        if unknown:
            raise TypeError(f"an Answer has no {', '.join(sorted(unknown))}")
        kept = {name: getattr(self, name) for name in self.FIELDS}
        return Answer(**{**kept, **changes})

    def __reduce__(self) -> tuple[Callable[..., Answer], tuple[object, ...]]:
        # Pickle would set the slots back one by one, which __setattr__ refuses: it is made anew from its attributes.
        return _answer, tuple(getattr(self, name) for name in self.FIELDS)

    def _key(self) -> tuple[object, ...]:
        """What tells two answers apart: every attribute, each hit by what it is (Hit has no equality of its own)."""
        return tuple(
            tuple(_hit_key(h) for h in value) if name in ("results", "runners_up") else value
            for name, value in ((name, getattr(self, name)) for name in self.FIELDS)
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Answer) and self._key() == other._key()

    def __hash__(self) -> int:
        # Its setup and the hits' payloads are dicts: it hashes what else tells answers apart, and answers
        # that are equal (every attribute alike) have all of that alike.
        return hash((
            self.query, self.game, tuple(hit.id for hit in self.results), self.parts, self.confident, self.probability,
            self.evidence, self.suggestions, tuple(hit.id for hit in self.runners_up), self.language,
            self.answer_language, self.players, self.base_game_only,
        ))

    def __repr__(self) -> str:
        return f"Answer({self.query!r}, game={self.game!r}, results={list(self.results)!r}, confident={self.confident})"

    # -- the Python API's view (rulebot.api) ----------------------------------

    @property
    def question(self) -> str:
        """The question as received (as `query`)."""
        return self.query

    @property
    def games(self) -> tuple[str, ...]:
        """Every game answered (more than one when several games answer alike)."""
        return (self.game, *(hit.game for hit in self.runners_up)) if self.game else ()

    @property
    def matches(self) -> tuple[Match, ...]:
        """The rulings found, each with its score, best first; those that make up the answer come first."""
        matches: tuple[Match, ...] | None = self._matches
        if matches is None:  # the answer cannot change: made once, as `rulings` reads it too
            from rulebot.search.rulings import Match, Ruling

            matches = tuple(
                Match(Ruling.from_payload(hit.data), hit.score, hit.coverage, number < self.parts) for number, hit in enumerate(self.results)
            )
            object.__setattr__(self, "_matches", matches)
        return matches

    @property
    def rulings(self) -> list[Ruling]:
        """The rulings that make up the answer."""
        return [match.ruling for match in self.matches if match.part_of_answer]

    @property
    def other_games(self) -> tuple[Ruling, ...]:
        """The best ruling of each other game that answers alike (the runners-up as rulings)."""
        from rulebot.search.rulings import Ruling

        return tuple(Ruling.from_payload(hit.data) for hit in self.runners_up)

    def to_json(self) -> dict[str, object]:
        """The answer as JSON data: the one object `ask --json` prints (docs/scripts.md), made anew: changing it
        changes no answer (the hits' payloads and the setup are dicts of the answer's own)."""
        return copy.deepcopy({
            "query": self.query,
            "game": self.game,
            "confident": self.confident,
            "probability": round(self.probability, 3),
            "language": self.language,
            "answer_language": self.answer_language,
            "games": list(self.games),
            "players": self.players,
            "instead_of": self.instead_of,
            "base_game_only": list(self.base_game_only),
            "setup": self.setup,
            "results": [
                public(h.data, score=round(h.score, 4), coverage=round(h.coverage, 3), answer=number < self.parts)
                for number, h in enumerate(self.results)
            ],
            "suggestions": list(self.suggestions),
            "close_titles": list(self.close_titles),
            "other_games": [public(h.data, score=round(h.score, 4)) for h in self.runners_up],
        })


def _answer(*values: Any) -> Answer:
    """An answer from its attributes in the order of Answer.FIELDS (what Answer.__reduce__ gives pickle and copy)."""
    return Answer(**dict(zip(Answer.FIELDS, values)))


def public(payload: EntryJSON | StoredEntry, **extra: object) -> dict[str, object]:
    """An entry payload as JSON readers get it (`ask --json`, `show --json`, Answer.to_json): without the printer's keys."""
    out = {k: v for k, v in payload.items() if k not in INTERNAL_KEYS}
    out.update(extra)
    return out


def _hit_key(hit: Hit) -> tuple[object, ...]:
    return (hit.id, hit.game, hit.score, hit.coverage, hit.data)


def modifications_first(
    hits: list[Hit],
    ordering: Mapping[str, set[str]],
    in_play: Mapping[str, set[str]],
    get: Callable[[str], StoredEntry],
    official_only: bool,
) -> list[Hit]:
    """Put the entry of an expansion in play before the rule it changes.

    `ordering` holds, by game, the expansions whose changes come first (in
    play, or named in the question); one that `in_play` leaves out of a game
    does not. A changing entry not among the hits is fetched (`get`: an
    entry's payload), unless it is a house rule and `official_only`."""
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
                data = get(modifier["id"])
                if official_only and data.get("house_rule"):
                    continue
                before = Hit(modifier["id"], hit.game, hit.score, hit.coverage, data, hit.features)
            out.append(before)
            placed.add(before.id)
        out.append(hit)
        placed.add(hit.id)
    return out


def runners_up(by_game: Mapping[str, list[Hit]], results: list[Hit], share: float) -> list[Hit]:
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


def answer_first(results: list[Hit]) -> tuple[list[Hit], int]:
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
        changing = any(changes(hit, part) or changes(part, hit) for part in parts)
        linking = hit.score >= PART_SHARE * best and any(linked(hit, part) for part in parts)
        if len(parts) < MAX_PARTS and (changing or linking or hit.score >= CLOSE_SHARE * best):
            parts.append(hit)
        else:
            rest.append(hit)
    return parts + rest, len(parts)


def changes(one: Hit, other: Hit) -> bool:
    """Whether one entry changes the other (an expansion rule, an erratum)."""
    return any(ref["id"] == other.id for ref in one.data.get("modifies", ()))


def linked(one: Hit, other: Hit) -> bool:
    """Whether two entries are linked: one's See also, Changes or Changed by names the other."""
    return other.id in _links(one.data) or one.id in _links(other.data)


def _links(data: StoredEntry) -> set[str]:
    return {*data.get("see_also", ()), *(ref["id"] for refs in (data.get("modifies", ()), data.get("modified_by", ())) for ref in refs)}
