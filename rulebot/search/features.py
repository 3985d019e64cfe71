"""The ranking model: what is known of each entry found for a question, and the one function that ranks by it.

Every signal that decides an answer is computed here, once per candidate,
as one named feature vector (FEATURES, `describe`):

- words: the log of the question's words' BM25F score in the entry
  (rulebot.search.scoring), its proximity bonus included;
- coverage: the log of UNCOVERED_SHARE + (1 - UNCOVERED_SHARE) * share²,
  the share being that of the question's units the entry matches;
- name: the log of the lift of a title or alias the question names
  (rulebot.search.signals.name_bonus);
- exact: 1 when the question's words are those of one of the entry's names
  or of a question it answers (`asked`), nothing more nor less;
- asked: how near the question is to the nearest question the entry
  answers (shared stems over all stems of both);
- trust: its source's trust level, 0 (official) to 3 (house);
- game_terms: when no game is named, how many of the entry's game's own
  terms the question uses (up to MAX_GAME_TERMS);
- quantity: for a question asking how many, the share of what it counts
  that the entry states a number for; players: 1 when it gives a value for
  the player count asked;
- named_expansion: 1 for an entry of an expansion the question names;
  other_expansion: 1 for an entry of an expansion that is neither named
  nor in play;
- length: the log of the length of its text (the index's stored length);
- absent: the share of the question's units that its search found in no
  entry (of the games searched): the same for all of one search's
  candidates, it tells how much of the question the sources never mention;
- draft: 1 for an entry imported and not yet restated by a curator; draft_name
  and draft_coverage: its name and coverage features again, for a draft only
  (an imported heading names a topic more often than the rule that answers);
  draft_defers: 1 for a draft glossary item that sums up a rule and sends the
  reader to it by number (rulebot.corpus.glossary.sends_to_rule);
- kind_*: 1 for an entry of that kind (a rule is none of them).

An entry's score is exp(weights · features) (`score`): a product of
factors, one per feature, of which the hand-set multiplicative rescoring
this replaced was a special case. The probability that the first answer is
right is a logistic over the first answer's features and its margin over
the next entries (CONFIDENCE, `probability`), one for curated entries and
one for imported drafts. The weights of both are
fitted on development questions by bench/fit_ranking.py and read from
weights.json, beside this module: once, as plain JSON (no numerical
library is imported to answer).

The site's search (templates/static/search-engine.js) computes the same
features and reads the same weights (rulebot.site.search_data), so that it
ranks as `ask` does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from math import exp, log
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebot.corpus.kinds import KINDS, TRUST_LEVELS
from rulebot.language import analysis, quantities
from rulebot.search.constants import MAX_GAME_TERMS, MIN_NAME_LETTERS, UNCOVERED_SHARE
from rulebot.search.signals import content_stems

if TYPE_CHECKING:
    from rulebot.search.answer import Hit

RANKED_KINDS = tuple(kind for kind in KINDS if kind != "rule")
"""The kinds that have a feature of their own: a rule is the kind the others are weighed against."""
FEATURES = (
    "words", "coverage", "name", "exact", "asked", "trust", "game_terms", "quantity", "players",
    "named_expansion", "other_expansion", "length", "absent", "draft", "draft_name", "draft_coverage", "draft_defers", *(f"kind_{kind}" for kind in RANKED_KINDS),
)
"""The features of a candidate, in the order of its vector."""
CONFIDENCE = (
    "bias", "margin", "linked_margin", "coverage", "strength", "name", "exact", "asked", "stated", "unstated", "other_games", "draft",
    "unmatched", "absent", "split", "lone_mention", "lone_word",
)
"""The features of an answer's first entry that tell how likely it is right (see `evidence`)."""
VETOES = ("other_games", "unstated", "split", "lone_mention", "lone_word")
"""The CONFIDENCE features of which one alone keeps an answer from being stood by, whatever its probability."""
MAX_MARGIN = 3.0
"""A margin (the log of the first score over the next one's) counts up to this: beyond it, nothing comes close."""
NAMED_MARGIN = 1.0
"""A question that is word for word one of the first entry's names or of the questions it answers (its `exact`
feature), with a margin of at least this (no unrelated entry within e times its score), is stood by whatever its
probability: a card's name asked alone is answered at once. On the dev questions every such answer was stood by
anyway (84 of 87 right); what it keeps is a small corpus's, where every word is common and the words' score (the
probability's `strength`) stays low: a game of one entry asked that entry's name."""

PRIOR = {
    "words": 1.0, "coverage": 1.0, "name": 1.0, "exact": 0.0, "asked": 0.0, "trust": -0.05, "game_terms": 0.0953,
    "quantity": 0.693, "players": 0.693, "named_expansion": 0.182, "other_expansion": 0.0, "length": 0.0, "absent": 0.0,
    "draft": 0.0, "draft_name": 0.0, "draft_coverage": 0.0, "draft_defers": 0.0, **{f"kind_{kind}": 0.0 for kind in RANKED_KINDS},
}
"""The hand-set form the model replaced, as ranking weights: the words' score times the coverage and name factors,
trust 1 to 0.85, each own term of a game x1.1, a count stated or the player count given x2, an expansion named x1.2.
The fit (bench/fit_ranking.py) is held toward it, and a weight weights.json lacks is taken from it."""
CONFIDENCE_PRIOR = dict.fromkeys(CONFIDENCE, 0.0)
"""A confidence weight weights.json lacks: the feature counts for nothing until refitted."""

WEIGHTS_FILE = Path(__file__).with_name("weights.json")


class Stale:
    """How weights.json differs from the features this module computes, as "rank.NAME", "confidence.NAME" or
    "draft_confidence.NAME":
    the features it has no weight for (those take their prior) and weights of features no longer computed (ignored).

    A plain class, as the search's records are (rulebot.search.answer.Hit): a cold `rulebot ask` loads no
    `dataclasses`."""

    __slots__ = ("missing", "unknown")

    def __init__(self) -> None:
        self.missing: list[str] = []
        self.unknown: list[str] = []


def _load(path: Path) -> tuple[dict[str, Any], Stale]:
    """The model's weights as bench/fit_ranking.py wrote them, by feature name. A weights file older (or newer)
    than the features still answers, so that no command fails for it: a missing weight is its prior, an unknown
    one is left out, and how it differs is returned for `rulebot check` to tell."""
    model: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    stale = Stale()
    one_logistic = not model.get("draft_confidence")  # (a file fitted before drafts had their own: it judges them too)
    parts = [("rank", FEATURES, PRIOR), ("confidence", CONFIDENCE, CONFIDENCE_PRIOR)]
    for part, names, prior in parts if one_logistic else [*parts, ("draft_confidence", CONFIDENCE, CONFIDENCE_PRIOR)]:
        given = model.get(part) or {}
        stale.missing += [f"{part}.{name}" for name in names if name not in given]
        stale.unknown += [f"{part}.{name}" for name in given if name not in names]
        model[part] = {name: float(given.get(name, prior[name])) for name in names}
    if one_logistic:
        model["draft_confidence"] = model["confidence"]
    model.setdefault("threshold", 1.0)
    model.setdefault("draft_threshold", model["threshold"])
    model.setdefault("min_coverage", 0.0)
    return model, stale


MODEL, STALE = _load(WEIGHTS_FILE)
"""The fitted model: "rank" (a weight per feature), "confidence" (a weight per CONFIDENCE feature), "threshold"
(the probability from which an answer is stood by), "draft_confidence" and "draft_threshold" (the same for an answer
whose first entry is an imported draft, not yet restated by a curator: what tells that it is right is not what tells
it of a curated entry; a threshold above 1 stands by none), "min_coverage" (the share of the question's units its first
entry must match more than to be) and how it was fitted ("fitted"). STALE: how weights.json differs from the
features (nothing, once fitted on them)."""


class Context:
    """What a question brings to its candidates' features: the same for every candidate."""

    __slots__ = ("content", "in_play", "named", "players", "quantity", "said", "terms")

    def __init__(
        self,
        words: Sequence[str],
        intent: quantities.Intent,
        named: Mapping[str, set[str]],
        in_play: Mapping[str, set[str]],
        terms: Mapping[str, int] | None,
    ) -> None:
        self.content = content_stems(words) if intent.quantity else set()
        """What a question asking how many counts (empty when it asks no count)."""
        self.quantity = intent.quantity
        self.players = intent.players
        self.said = frozenset(analysis.name_stems(" ".join(words)))
        """The stems of its words, without question filler: what a name or a question the entry answers may equal."""
        self.named = named
        """The expansions it names, by game."""
        self.in_play = in_play
        """The expansions in play, by game."""
        self.terms = terms
        """When it names no game: how many of each game's own terms it uses; else None."""


def describe(
    hit: Hit,
    bm25: float,
    coverage: float,
    bonus: float,
    absent: float,
    length: int,
    names: Sequence[frozenset[str]],
    asked: Sequence[frozenset[str]],
    context: Context,
) -> list[float]:
    """A candidate's feature vector (FEATURES), from its words' score, the share of units it matches, its
    name's lift, the share of units its search found nowhere, its text's stored length, and the stems of its
    names and of the questions it answers (`asked`)."""
    data = hit.data
    said = context.said
    exact = 1.0 if said and (said in names or said in asked) else 0.0
    near = max((_overlap(said, line) for line in asked), default=0.0)
    expansion = data["expansion"]
    covered = log(UNCOVERED_SHARE + (1 - UNCOVERED_SHARE) * coverage**2)
    quantity = 0.0
    if context.content:
        quantity = len(context.content.intersection(data.get("counted", ()))) / len(context.content)
    named = context.named.get(hit.game, set())
    kind = data["kind"]
    return [
        log(max(bm25, 1e-9)),
        covered,
        log(bonus),
        exact,
        near,
        float(TRUST_LEVELS.index(data["source"].get("trust") or "official")),
        float(min(MAX_GAME_TERMS, context.terms.get(hit.game, 0))) if context.terms is not None else 0.0,
        quantity,
        1.0 if context.players is not None and context.players in data.get("player_counts", ()) else 0.0,
        1.0 if expansion is not None and expansion in named else 0.0,
        1.0 if expansion is not None and expansion not in named and expansion not in context.in_play.get(hit.game, ()) else 0.0,
        log(1 + length),
        absent,
        *((1.0, log(bonus), covered, 1.0 if data.get("defers") else 0.0) if data.get("draft") else (0.0, 0.0, 0.0, 0.0)),
        *(1.0 if kind == other else 0.0 for other in RANKED_KINDS),
    ]


def named_as_typed(hit: Hit, context: Context) -> bool:
    """Whether the question says, as typed (no close spelling of it), a word of one of the entry's names, or the whole
    of a question it answers (`asked`): a card called "Mine" for "the mine"; not "Combinaisons" for "combien"."""
    return bool(hit.features[FEATURES.index("exact")]) or _names_any(hit, context.said)


def _overlap(one: frozenset[str], other: frozenset[str]) -> float:
    """The stems two phrases share, over all the stems of both (0 to 1)."""
    if not one or not other:
        return 0.0
    return len(one & other) / len(one | other)


def score(vector: Sequence[float]) -> float:
    """A candidate's score: exp(weights · features). Scores compare by ratio, as products of factors."""
    weights = MODEL["rank"]
    return exp(sum(weights[name] * value for name, value in zip(FEATURES, vector)))


def evidence(ranked: list[Hit], context: Context, other_games: bool, unstated: bool, split: bool, heard: frozenset[str]) -> list[float]:
    """The CONFIDENCE features of an answer: its candidates best first (ranked[0] the first answer, as ordered).

    margin: the log of the first entry's score over the best score of an entry unrelated to it (neither changing
    nor changed by it, nor linked to it), up to MAX_MARGIN, times the share of the question's units it matches
    (being ahead counts for little when the entry answers little of the question); linked_margin: the same over
    the entries it links to;
    its coverage, its words feature (strength), its name, exact and asked features; unstated: a count was asked
    for and it states none, stated: its quantity feature (the share of what is counted it states a number for);
    other_games: other games answer close to it; draft: it is an imported draft, not yet restated by a curator;
    unmatched: how many of the question's stems (without filler) it leaves unmatched, by its coverage; absent: its
    absent feature (the share of the question's units found in no entry); split: its search kept apart the words of
    a phrase of the vocabulary searched with (its game's, or every game's when none is named) that no entry holds
    ("last round": rulebot.search.ranking); lone_mention: no other entry of the games searched matches the question,
    and the first entry is not named by it, none of the questions the entry answers (`asked`) holds every stem it
    says (one stem in common is not enough: a ruling asked about its "discard order" does not answer "turn order"),
    and none of its names holds a stem the question says (`heard`: its words, close spellings of an unknown one): a
    term the rules mention once, in passing ("bounty" in a list of traits); lone_word: the question says one word
    (one stem, without filler) and the first entry neither is named by it (its name and exact features), nor has a
    name holding it as typed, nor answers a question (`asked`) holding it (the last two for a word of MIN_NAME_LETTERS
    letters at least: the "x" of "is the black x trash optional" is no question of "x" alone): one word found in a text, or only through a close
    spelling of it ("help" for the "Hell" of "Gate of Hell", "keeper" in "thanks to its keeper"), is no question the entry
    answers, however far ahead of the others it is."""
    from rulebot.search.answer import changes, linked

    best = ranked[0]
    alone = all(hit.id == best.id for hit in ranked[1:])  # (a change of it or the rule it changes is another entry)
    unrelated = linked_best = 0.0
    for hit in ranked[1:]:
        if hit.id == best.id or changes(best, hit) or changes(hit, best):
            continue  # the rule an expansion or erratum changes completes the answer
        if linked(best, hit):
            linked_best = max(linked_best, hit.score)
        else:
            unrelated = max(unrelated, hit.score)
    vector = best.features
    at = FEATURES.index
    lettered = _lettered(context.said)
    return [
        1.0,
        best.coverage * _margin(best.score, unrelated),
        best.coverage * _margin(best.score, linked_best),
        best.coverage,
        vector[at("words")],
        vector[at("name")],
        vector[at("exact")],
        vector[at("asked")],
        vector[at("quantity")],
        1.0 if unstated else 0.0,
        1.0 if other_games else 0.0,
        1.0 if best.data.get("draft") else 0.0,
        (1 - best.coverage) * len(context.said),
        vector[at("absent")],
        1.0 if split else 0.0,
        1.0 if alone and not (vector[at("name")] or _asks_it(best, context.said) or _names_any(best, heard)) else 0.0,
        1.0 if len(context.said) == 1 and not (vector[at("name")] or vector[at("exact")] or _asks_it(best, lettered) or _names_any(best, lettered)) else 0.0,
    ]


def _lettered(stems: frozenset[str]) -> frozenset[str]:
    """The stems of at least MIN_NAME_LETTERS letters: a name or a question holding a shorter one (the "X" of "black
    X") does not make a question of that word alone ("x") one its entry answers, as such a name is never named
    (signals.name_bonus)."""
    return frozenset(stem for stem in stems if len(stem) >= MIN_NAME_LETTERS)


def _names_any(hit: Hit, stems: frozenset[str]) -> bool:
    """Whether one of an entry's names (title, aliases) holds one of these stems."""
    return any(stems.intersection(name) for name in hit.data["name_stems"])


def _asks_it(hit: Hit, said: frozenset[str]) -> bool:
    """Whether one of the questions an entry answers (`asked`) holds every stem a question says."""
    return bool(said) and any(said.issubset(analysis.name_stems(line["text"])) for line in hit.data["asked"])


def _margin(best: float, other: float) -> float:
    return MAX_MARGIN if other <= 0 else min(MAX_MARGIN, log(best / other))


def probability(vector: Sequence[float]) -> float:
    """The probability that the first answer is right, from its CONFIDENCE features (a logistic: that of drafts
    for a draft)."""
    weights = MODEL["draft_confidence" if vector[CONFIDENCE.index("draft")] else "confidence"]
    total = sum(weights[name] * value for name, value in zip(CONFIDENCE, vector))
    return 1 / (1 + exp(-total)) if total > -700 else 0.0


def confident(chance: float, vector: Sequence[float]) -> bool:
    """Whether an answer this likely right, of these CONFIDENCE features (`evidence`), is stood by: from the
    threshold (of a curated first entry, or of a draft) and the coverage floor chosen on development questions
    (bench/fit_ranking.py). An answer of several games alike never is (which game is meant is the question), nor one to a count that states no number for what
    is counted (it does not give what was asked for, however near it is), nor one found by the words of a phrase
    that no entry holds (what it means, the rules do not say in those words: "tire au sort" is no "Sort"), nor a
    lone mention (being the only entry found says nothing of answering when the entry only mentions the words).
    A question word for word one of its names, with nothing unrelated close, is stood by whatever its probability
    (NAMED_MARGIN)."""
    if vetoed(vector) or vector[CONFIDENCE.index("coverage")] <= MODEL["min_coverage"]:
        return False
    if vector[CONFIDENCE.index("exact")] and vector[CONFIDENCE.index("margin")] >= NAMED_MARGIN:
        return True
    return bool(chance >= (MODEL["draft_threshold"] if vector[CONFIDENCE.index("draft")] else MODEL["threshold"]))


def vetoed(vector: Sequence[float]) -> bool:
    """Whether one of the VETOES holds for an answer of these CONFIDENCE features (`evidence`)."""
    return any(vector[CONFIDENCE.index(name)] for name in VETOES)
