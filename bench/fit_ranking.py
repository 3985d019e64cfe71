"""Fit the ranking model's weights (rulebot/search/weights.json) on development questions, and report them.

    pip install -e ".[fit]"                 # numpy and scipy: for this script only, never to answer
    python bench/fit_ranking.py             # refit, write rulebot/search/weights.json, print the figures
    python bench/fit_ranking.py --dry-run   # the same figures, the weights file left alone

The questions: the development sets of the shipped games (tests/questions.jsonl,
tests/questions-players-dev.jsonl, tests/questions-fresh-dev.jsonl,
bench/questions/shipped-dev-more.jsonl, shipped-dev-3.jsonl and -4: right
entries by id) and of two games imported as a curator would import them
(bench/imported.py: Star Wars Unlimited and MTG, from ../shared/data;
bench/questions/imported-dev.jsonl, -more and -3: right entries by phrases of
their text). A refit needs nothing but the checkout and ../shared.
X-Wing and Marvel Champions are never fitted on, nor any test half, nor the
games whose documents the benchmarks write themselves (imported.WRITTEN:
Twilight Imperium, Legend of the Five Rings; reported by bench/quality.py
--imported when their document is there).

Each question is asked (as its row asks it, and with no game too when it has
one) and every candidate's feature vector (rulebot.search.features.FEATURES)
is read from the answer: the vectors are made from the questions and the
corpus, so they are not stored. Then:

1. ranking: a pairwise logistic model (RankNet, linear): for each question,
   each right candidate against each wrong one among the first PAIR_DEPTH,
   the log-loss of the right one coming first, each question weighing the
   same; plus RIDGE * the squared distance of the weights from PRIOR (the
   hand-set multiplicative form this model replaced), so that a feature the
   questions say little about keeps its former effect;
2. leave one game out: the same fit without one game's questions, scored on
   that game's, for each game;
3. confidence: with the fitted ranking, a logistic regression of whether the
   first answer is right (a question the sources do not answer: never) on
   its CONFIDENCE features, one for answers whose first entry is curated and
   one for those whose first entry is an imported draft (what tells that a
   draft is right, a heading or a numbered rule, is not what tells it of a
   curated entry's names and questions: with one logistic for both, the
   imported games' questions moved the shipped games' probabilities); an
   answer is stood by from a threshold of that probability (one of each),
   when its first entry matches more than a floor of the question's units:
   the thresholds and floor that stand by the most answerable shipped
   questions while the confident answers of the shipped games are right at
   least TARGET_SHIPPED of the time, those of the imported games
   TARGET_IMPORTED, and at most UNANSWERED_TARGET of the questions the
   sources do not answer (in whole questions) are answered confidently.

Deterministic (L-BFGS from the prior; the seed only orders the questions).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import imported  # noqa: E402
from quality import in_play, read_questions  # noqa: E402

from rulebot.index.cache import open_index  # noqa: E402
from rulebot.places import shipped_corpus_dir  # noqa: E402
from rulebot.search import features  # noqa: E402
from rulebot.search.ranking import Searcher  # noqa: E402

SEED = 20261127
SHIPPED = [
    ROOT / "tests" / "questions.jsonl", ROOT / "tests" / "questions-players-dev.jsonl", ROOT / "tests" / "questions-fresh-dev.jsonl",
    ROOT / "bench" / "questions" / "shipped-dev-more.jsonl", ROOT / "bench" / "questions" / "shipped-dev-3.jsonl",
    ROOT / "bench" / "questions" / "shipped-dev-4.jsonl",
]
IMPORTED = [
    ROOT / "bench" / "questions" / "imported-dev.jsonl", ROOT / "bench" / "questions" / "imported-dev-more.jsonl",
    ROOT / "bench" / "questions" / "imported-dev-3.jsonl",
]
PAIR_DEPTH = 20
"""Wrong candidates paired with the right ones: those ranked among the first this many."""
RIDGE = 0.2
"""How strongly the weights are held to PRIOR."""
DRAFT_RIDGE = 0.005
"""...and those of the features of drafts only: they change nothing for a curated entry, so no curated
game's ranking is at stake, and the imported games' questions may move them further."""
DRAFT_FEATURES = ("draft", "draft_name", "draft_coverage", "draft_defers")
CONFIDENCE_RIDGE = 0.001
TARGET_SHIPPED, TARGET_IMPORTED = 0.97, 0.93
"""The share of confident answers that must be right on the development questions. For the shipped games it is
set above the 0.95 a player is promised: the threshold is the lowest that reaches it, so the questions not yet
seen would fall short of a target met exactly (from about 0.95 the share hardly rises with the threshold, and
the lowest threshold reaching 0.95 stood by 21 more answers, 6 of them wrong). For the imported games it is
set above their promised 0.90 for the same reason: with 0.90 the threshold fell to 0.709, where 4 of 44
imported dev answers were wrong (0.91), at the very edge."""
UNANSWERED_TARGET = 0.1
"""At most this share of the questions the sources do not answer may be answered confidently, in whole questions
(of 48, 5; of 17 when there were 17, 2): with so few of them, one question more or less would otherwise move the
threshold for every answer (a tenth of 17 held strictly allowed 1, and the second, at p 0.929, left 50 right
answers of 310 unsure)."""
FLOORS = (0.5, 0.6, 0.67)
"""The coverage floors tried: a first answer matching at most this share of the question's units is not stood by.
Half at least: an answer that leaves half of what is asked aside is never stood by, however sure the model is of
the half it matches ("zzyzx whirlpol": the whirlpool's rule for "whirlpol", nothing for the rest). The development
questions hardly say so (3 of about 400 confident answers match half their question, all right); questions that
are partly nonsense are few among them."""
NEVER = 2.0
"""A threshold above any probability: what stands by no answer of its sort."""
PRIOR = features.PRIOR
"""The hand-set form the model replaced (rulebot.search.features.PRIOR), toward which the ranking is held."""


@dataclass
class Asked:
    """One question as asked: its game, whether shipped, and each candidate's features and rightness."""

    row: dict
    game: str
    shipped: bool
    mode: str
    vectors: list[list[float]] = field(default_factory=list)
    right: list[bool] = field(default_factory=list)


def rows_of(paths: list[Path], shipped: bool) -> list[tuple[dict, bool]]:
    out = []
    for path in paths:
        questions = read_questions(path)
        assert questions.half != "test", f"{path} is a test half: never fitted on"
        out += [(row, shipped) for row in questions.rows]
    return out


def is_right(row: dict, hit) -> bool:
    if imported.phrase_judged(row):
        return hit.game == (row["game"] or row["expect_game"]) and imported.right(row, hit.data["text"])
    return hit.id in row.get("expect", ())


def collect(searcher: Searcher, rows: list[tuple[dict, bool]]) -> list[Asked]:
    """Every question asked as its row asks it (and one with a game, with none too): its candidates. An imported
    game's questions are asked with no game as the shipped ones are: else the only questions asked of every game
    would be the shipped games', whose candidates from other games are drafts, and the fit would learn that a
    draft is another game's rather than how a draft answers."""
    out = []
    for row, shipped in rows:
        modes = [row["game"]] + ([None] if row["game"] else [])
        for game in modes:
            answer = searcher.ask(row["q"], game=game, limit=10_000, expansions=in_play(row))
            asked = Asked(row, row["game"] or row["expect_game"], shipped, "as asked" if game == row["game"] else "no game")
            asked.vectors = [hit.features for hit in answer.results]
            asked.right = [is_right(row, hit) for hit in answer.results]  # of a question not answered: what says so
            out.append(asked)
    return out


def pairs(questions: list[Asked]) -> tuple[np.ndarray, np.ndarray]:
    """The differences right - wrong of each question's pairs, and each pair's weight (a question weighs 1)."""
    diffs, weights = [], []
    for q in questions:
        rights = [np.array(v) for v, r in zip(q.vectors, q.right) if r]
        wrongs = [np.array(v) for v, r in list(zip(q.vectors, q.right))[:PAIR_DEPTH] if not r]
        if not rights or not wrongs:
            continue
        made = [a - b for a in rights for b in wrongs]
        diffs += made
        weights += [1 / len(made)] * len(made)
    return np.array(diffs), np.array(weights)


def fit_rank(questions: list[Asked]) -> dict[str, float]:
    prior = np.array([PRIOR[name] for name in features.FEATURES])
    ridge = np.array([DRAFT_RIDGE if name in DRAFT_FEATURES else RIDGE for name in features.FEATURES])
    diffs, weights = pairs(questions)
    total = weights.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = diffs @ w
        value = (weights * np.logaddexp(0, -margin)).sum() / total + (ridge * (w - prior) ** 2).sum()
        slope = -(weights / (1 + np.exp(np.clip(margin, -700, 700))))
        gradient = diffs.T @ slope / total + 2 * ridge * (w - prior)
        return value, gradient

    found = minimize(loss, prior, jac=True, method="L-BFGS-B")
    return {name: round(float(v), 4) for name, v in zip(features.FEATURES, found.x)}


def fit_confidence(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    penalty = np.array([0.0] + [1.0] * (x.shape[1] - 1))  # the bias is not held

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        value = np.mean(np.logaddexp(0, z) - y * z) + CONFIDENCE_RIDGE * (penalty * w**2).sum()
        p = 1 / (1 + np.exp(-np.clip(z, -700, 700)))
        return value, x.T @ (p - y) / len(y) + 2 * CONFIDENCE_RIDGE * penalty * w

    found = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B")
    return {name: round(float(v), 4) for name, v in zip(features.CONFIDENCE, found.x)}


def first_right(searcher: Searcher, row: dict, game: str | None) -> tuple[bool, bool, list[float], float]:
    """(first answer right, right among the first 3, confidence features, probability) of a question."""
    answer = searcher.ask(row["q"], game=game, limit=3, expansions=in_play(row))
    answerable = row.get("answerable", True)
    rights = [answerable and is_right(row, hit) for hit in answer.results]
    return bool(rights[:1] and rights[0]), any(rights), answer.evidence, answer.probability


def scores(searcher: Searcher, rows: list[tuple[dict, bool]]) -> tuple[float, float]:
    """hit@1 and hit@3 of answerable questions asked as their rows ask them."""
    found = [first_right(searcher, row, row["game"])[:2] for row, _ in rows if row.get("answerable", True)]
    return sum(a for a, _ in found) / len(found), sum(b for _, b in found) / len(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print the figures, leave rulebot/search/weights.json alone")
    args = parser.parse_args(argv)
    rows = rows_of(SHIPPED, True) + rows_of(IMPORTED, False)
    random.Random(SEED).shuffle(rows)
    with tempfile.TemporaryDirectory(prefix="rulebot-fit-") as folder:
        os.environ["RULEBOT_CACHE_DIR"] = folder
        corpus = imported.import_games(Path(folder), imported.FITTED)
        with Searcher(open_index([shipped_corpus_dir(), corpus])) as searcher:
            features.MODEL["rank"] = dict(PRIOR)
            prior_scores = {}
            games = sorted({row["game"] or row["expect_game"] for row, _ in rows})
            for game in games:
                prior_scores[game] = scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game])
            questions = collect(searcher, rows)
            print(f"{len(rows)} development questions, {len(questions)} asked; {len(pairs(questions)[0])} pairs", file=sys.stderr)
            # Leave one game out: fitted without it, scored on it.
            left_out = {}
            for game in games:
                features.MODEL["rank"] = fit_rank([q for q in questions if q.game != game])
                left_out[game] = scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game])
            rank = fit_rank(questions)
            features.MODEL["rank"] = rank
            fitted_scores = {game: scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game]) for game in games}
            # Confidence, with the fitted ranking.
            judged = [(row, shipped, *first_right(searcher, row, row["game"])) for row, shipped in rows]
            found = [j for j in judged if j[4]]  # (an answer with no entry is never sure)
            x = np.array([j[4] for j in found])
            y = np.array([1.0 if j[2] else 0.0 for j in found])
            drafted = x[:, features.CONFIDENCE.index("draft")] > 0
            confidence, draft_confidence = fit_confidence(x[~drafted], y[~drafted]), fit_confidence(x[drafted], y[drafted])
            features.MODEL["confidence"], features.MODEL["draft_confidence"] = confidence, draft_confidence
            # (an answer of several games alike, to a count it states no number for, found by the words of a phrase no
            # entry holds, or a lone mention, is never stood by, whatever its probability: features.confident; -1 is
            # below any threshold tried)
            chances = [features.probability(j[4]) if j[4] and not features.vetoed(j[4]) else -1.0 for j in judged]
            threshold, draft_threshold, floor = choose_threshold(judged, chances)
    print("| game | n | hit@1 before | hit@3 before | hit@1 fitted | hit@3 fitted | hit@1 left out | hit@3 left out |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for game in games:
        n = sum(1 for r, _ in rows if (r["game"] or r["expect_game"]) == game and r.get("answerable", True))
        cells = [f"{v:.2f}" for pair in (prior_scores[game], fitted_scores[game], left_out[game]) for v in pair]
        print(f"| {game} | {n} | " + " | ".join(cells) + " |")
    print("\n| feature | weight | prior |\n|---|---:|---:|")
    for name in features.FEATURES:
        print(f"| {name} | {rank[name]:+.3f} | {PRIOR[name]:+.3f} |")
    print("\n| confidence feature | weight | of a draft |\n|---|---:|---:|")
    for name in features.CONFIDENCE:
        print(f"| {name} | {confidence[name]:+.3f} | {draft_confidence[name]:+.3f} |")
    print(f"\nthreshold: {threshold}, of a draft: {draft_threshold}, coverage floor: {floor}")
    stood = _stood(judged, chances, threshold, draft_threshold, floor)
    for shipped in (True, False):
        sure = [j[2] for j, s in zip(judged, stood) if j[1] == shipped and s]
        answerable = [s for j, s in zip(judged, stood) if j[1] == shipped and j[0].get("answerable", True)]
        unanswerable = [s for j, s in zip(judged, stood) if j[1] == shipped and not j[0].get("answerable", True)]
        print(f"{'shipped' if shipped else 'imported'}: confident right {sum(sure)}/{len(sure)}, answerable confident "
              f"{sum(answerable)}/{len(answerable)}, unanswerable confident {sum(unanswerable)}/{len(unanswerable)}")
    if not args.dry_run:
        model = {
            "rank": rank,
            "confidence": confidence,
            "draft_confidence": draft_confidence,
            "threshold": threshold,
            "draft_threshold": draft_threshold,
            "min_coverage": floor,
            "fitted": {
                "by": "bench/fit_ranking.py", "date": date.today().isoformat(), "seed": SEED, "ridge": RIDGE,
                "questions": len(rows), "games": games,
            },
        }
        features.WEIGHTS_FILE.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {features.WEIGHTS_FILE.relative_to(ROOT)}")
    return 0


def choose_threshold(judged: list[tuple], chances: list[float]) -> tuple[float, float, float]:
    """The thresholds (of an answer whose first entry is curated, and of one whose first entry is an imported draft)
    and the coverage floor that stand by the most answerable shipped questions while the confident answers are right
    at least TARGET_SHIPPED (shipped games) and TARGET_IMPORTED (imported ones) of the time and at most
    UNANSWERED_TARGET of the questions the sources do not answer are answered confidently. For each floor of FLOORS:
    the lowest curated threshold (of the probabilities met, rounded to 3 places) that reaches the targets with no
    draft stood by, then of the draft thresholds that still do, the one that stands by the fewest questions the
    sources do not answer, then the most imported ones (then the lowest). Of floors that stand by as many shipped
    ones, the same order decides (the first floor of FLOORS, else, a tie that the order of FLOORS decided).

    Two thresholds, because the two logistics (`main`) are not calibrated alike: a probability of a draft's answer
    and the same probability of a curated one's are not as often right. A draft threshold above 1 (NEVER) stands by
    no draft: none reaches the targets."""
    best: tuple[tuple[int, int, int, float], float, float, float] | None = None
    levels = sorted({round(c, 3) for c in chances if c >= 0})
    for floor in FLOORS:
        curated = next((t for t in levels if _meets(judged, _stood(judged, chances, t, NEVER, floor))), None)
        if curated is None:
            continue
        for draft in [*levels, NEVER]:
            chosen = _stood(judged, chances, curated, draft, floor)
            if not _meets(judged, chosen):
                continue
            stood = [j for j, s in zip(judged, chosen) if s]
            rank = (
                sum(1 for j in stood if j[1] and j[0].get("answerable", True)),
                -sum(1 for j in stood if not j[0].get("answerable", True)),
                sum(1 for j in stood if not j[1] and j[0].get("answerable", True)),
                -draft,
            )
            if best is None or rank > best[0]:
                best = (rank, curated, draft, floor)
    return (best[1], best[2], best[3]) if best else (1.0, NEVER, FLOORS[0])


def _stood(judged: list[tuple], chances: list[float], curated: float, draft: float, floor: float) -> list[bool]:
    """Which answers these thresholds (of a curated first entry, of a draft) and this coverage floor stand by."""
    at, drafted = features.CONFIDENCE.index("coverage"), features.CONFIDENCE.index("draft")
    return [bool(j[4]) and c >= (draft if j[4][drafted] else curated) and j[4][at] > floor for j, c in zip(judged, chances)]


def _meets(judged: list[tuple], sure: list[bool]) -> bool:
    for shipped, target in ((True, TARGET_SHIPPED), (False, TARGET_IMPORTED)):
        right = [j[2] for j, s in zip(judged, sure) if j[1] == shipped and s]
        if right and sum(right) / len(right) < target:
            return False
    unanswered = [s for j, s in zip(judged, sure) if not j[0].get("answerable", True)]
    return sum(unanswered) <= math.floor(UNANSWERED_TARGET * len(unanswered) + 0.5)  # to the nearest, halves up


if __name__ == "__main__":
    sys.exit(main())
