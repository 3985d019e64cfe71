"""Fit the ranking model's weights (rulebot/search/weights.json) on development questions, and report them.

    pip install -e ".[fit]"                 # numpy and scipy: for this script only, never to answer
    python bench/fit_ranking.py             # refit, write rulebot/search/weights.json, print the figures
    python bench/fit_ranking.py --dry-run   # the same figures, the weights file left alone

The questions: the development sets of the shipped games (tests/questions.jsonl,
tests/questions-players-dev.jsonl, tests/questions-fresh-dev.jsonl: right
entries by id) and of two games imported from ../shared/data as a curator
would import them (bench/imported.py: Star Wars Unlimited and MTG;
bench/questions/imported-dev.jsonl: right entries by phrases of their text).
X-Wing and Marvel Champions are never fitted on, nor any test half.

Each question is asked (as its row asks it, and the shipped ones with no game
too) and every candidate's feature vector (rulebot.search.features.FEATURES)
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
   its CONFIDENCE features; an answer is stood by from a threshold of that
   probability, when its first entry matches more than a floor of the
   question's units: the pair that stands by the most answerable shipped
   questions while the confident answers of the shipped games are right at
   least TARGET_SHIPPED of the time, those of the imported games
   TARGET_IMPORTED, and at most UNANSWERED_TARGET of the questions the
   sources do not answer are answered confidently.

Deterministic (L-BFGS from the prior; the seed only orders the questions).
"""

from __future__ import annotations

import argparse
import json
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
SHIPPED = [ROOT / "tests" / "questions.jsonl", ROOT / "tests" / "questions-players-dev.jsonl", ROOT / "tests" / "questions-fresh-dev.jsonl"]
IMPORTED = [ROOT / "bench" / "questions" / "imported-dev.jsonl"]
PAIR_DEPTH = 20
"""Wrong candidates paired with the right ones: those ranked among the first this many."""
RIDGES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
"""How strongly the weights (of standardised features) may be held to PRIOR: the one chosen leaving one game out."""
DRAFT_SHARE = 0.025
"""...and those of the features of drafts only, this share of it: they change nothing for a curated entry, so no
curated game's ranking is at stake, and the imported games' questions may move them further."""
ROUNDS = 2
"""Refits with the pairs formed in the order of the model just fitted."""
DRAFT_FEATURES = ("draft", "draft_name", "draft_coverage")
CONFIDENCE_RIDGE = 0.001
TARGET_SHIPPED, TARGET_IMPORTED = 0.95, 0.90
UNANSWERED_TARGET = 0.1
"""At most this share of the questions the sources do not answer may be answered confidently."""
FLOORS = (0.0, 0.25, 0.34, 0.5, 0.6, 0.67)
"""The coverage floors tried: a first answer matching at most this share of the question's units is not stood by."""
PRIOR = features.PRIOR
"""The hand-set form the model replaced (rulebot.search.features.PRIOR), toward which the ranking is held."""


@dataclass
class Asked:
    """One question as asked: its game, whether shipped, how much it weighs (a question weighs 1 in all, however
    many ways it is asked), and each scored candidate's features and rightness."""

    row: dict
    game: str
    shipped: bool
    mode: str
    weight: float = 1.0
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
        return imported.right(row, hit.data["text"])
    return hit.id in row.get("expect", ())


def modes_of(row: dict, shipped: bool) -> list[str | None]:
    """The ways a question is asked: as its row asks it, and a shipped one with a game with none too."""
    return [row["game"]] + ([None] if shipped and row["game"] else [])


def collect(searcher: Searcher, rows: list[tuple[dict, bool]]) -> list[Asked]:
    """Every question asked each way (`modes_of`), each way weighing its share of the question: its candidates as
    scored. The entry an expansion fetches before the rule it changes (rulebot.search.answer.modifications_first)
    carries that rule's features, not its own: such a copy is left out (the rule itself comes after it)."""
    out = []
    for row, shipped in rows:
        modes = modes_of(row, shipped)
        for game in modes:
            answer = searcher.ask(row["q"], game=game, limit=10_000, expansions=in_play(row))
            mode = "as asked" if game == row["game"] else "no game"
            asked = Asked(row, row["game"] or row["expect_game"], shipped, mode, 1 / len(modes))
            hits = answer.results
            for i, hit in enumerate(hits):
                if any(later.features is hit.features for later in hits[i + 1 :]):
                    continue  # a fetched copy
                asked.vectors.append(hit.features)
                asked.right.append(is_right(row, hit))  # of a question not answered: what says so
            out.append(asked)
    return out


def pairs(questions: list[Asked], w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The differences right - wrong of each question's pairs, and each pair's weight (a question weighs its
    Asked.weight): each right candidate against the first PAIR_DEPTH wrong ones in the order of the weights `w`
    (the ranking the model makes, not the prior's)."""
    diffs, weights = [], []
    for q in questions:
        vectors = np.array(q.vectors) if q.vectors else np.zeros((0, len(w)))
        order = np.argsort(-(vectors @ w), kind="stable")
        rights = [vectors[i] for i in order if q.right[i]]
        wrongs = [vectors[i] for i in order if not q.right[i]][:PAIR_DEPTH]
        if not rights or not wrongs:
            continue
        made = [a - b for a in rights for b in wrongs]
        diffs += made
        weights += [q.weight / len(made)] * len(made)
    return np.array(diffs), np.array(weights)


def feature_scale(questions: list[Asked]) -> np.ndarray:
    """Each ranking feature's spread over the candidates (1 for one that never varies): the fit works on features
    divided by it, so that one ridge holds each weight alike whatever its feature's unit."""
    rows = np.array([v for q in questions for v in q.vectors])
    spread = rows.std(axis=0)
    return np.where(spread > 1e-9, spread, 1.0)


def fit_rank(questions: list[Asked], ridge_value: float, scale: np.ndarray) -> dict[str, float]:
    """The ranking weights: pairwise logistic on standardised features, held toward PRIOR by `ridge_value`
    (DRAFT_SHARE of it for the drafts' own features); pairs formed in the order of the prior, then refitted
    ROUNDS times with pairs in the order of the model just fitted."""
    prior = np.array([PRIOR[name] for name in features.FEATURES])
    ridge = np.array([ridge_value * (DRAFT_SHARE if name in DRAFT_FEATURES else 1.0) for name in features.FEATURES])
    w = prior
    for _ in range(ROUNDS + 1):
        diffs, weights = pairs(questions, w)
        x = diffs / scale
        target = prior * scale
        total = weights.sum()

        def loss(v: np.ndarray, x: np.ndarray = x, weights: np.ndarray = weights, total: float = total, target: np.ndarray = target) -> tuple[float, np.ndarray]:
            margin = x @ v
            value = (weights * np.logaddexp(0, -margin)).sum() / total + (ridge * (v - target) ** 2).sum()
            slope = -(weights / (1 + np.exp(np.clip(margin, -700, 700))))
            return value, x.T @ slope / total + 2 * ridge * (v - target)

        w = minimize(loss, target, jac=True, method="L-BFGS-B").x / scale
    return {name: round(float(v), 4) for name, v in zip(features.FEATURES, w)}


def held_out_hits(questions: list[Asked], rank: dict[str, float]) -> float:
    """The weighted count of questions whose first candidate, by score alone, is right."""
    w = np.array([rank[name] for name in features.FEATURES])
    found = 0.0
    for q in questions:
        if q.vectors and any(q.right) and q.row.get("answerable", True):
            found += q.weight * q.right[int(np.argmax(np.array(q.vectors) @ w))]
    return found


def choose_ridge(questions: list[Asked], games: list[str], scale: np.ndarray) -> tuple[float, dict[float, float]]:
    """The ridge of RIDGES whose fits without each game put a right entry first for the most of that game's
    questions (the largest ridge of the best: the nearest to the prior)."""
    found = {}
    for value in RIDGES:
        per_game = {
            game: held_out_hits([q for q in questions if q.game == game], fit_rank([q for q in questions if q.game != game], value, scale))
            for game in games
        }
        print(f"ridge {value}: " + ", ".join(f"{g} {v:.1f}" for g, v in per_game.items()), file=sys.stderr)
        found[value] = sum(per_game.values())
    best = max(found.values())
    return max(v for v in RIDGES if found[v] >= best - 1e-9), found


CONFIDENCE_SIGNS = {
    "margin": 1, "linked_margin": 1, "alone": 1, "coverage": 1, "strength": 1, "name": 1, "exact": 1, "asked": 1,
    "stated": 1, "unstated": -1, "game_margin": 1, "draft": -1, "absent": -1,
}
"""The sign each confidence feature's weight may take (0 or that sign): each says the answer is likelier right (+1)
or wrong (-1), so a weight of the other sign could only come from features that move together."""


def fit_confidence(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> dict[str, float]:
    """A logistic regression of rightness on the confidence features, standardised for the fit (one ridge for all),
    each weight of its CONFIDENCE_SIGNS sign; returned as weights of the raw features."""
    mean, spread = x.mean(axis=0), x.std(axis=0)
    mean[0], spread[0] = 0.0, 1.0  # the bias
    spread = np.where(spread > 1e-9, spread, 1.0)
    z_x = (x - mean) / spread
    penalty = np.array([0.0] + [1.0] * (x.shape[1] - 1))  # the bias is not held
    total = weight.sum()

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = z_x @ w
        value = (weight * (np.logaddexp(0, z) - y * z)).sum() / total + CONFIDENCE_RIDGE * (penalty * w**2).sum()
        p = 1 / (1 + np.exp(-np.clip(z, -700, 700)))
        return value, z_x.T @ (weight * (p - y)) / total + 2 * CONFIDENCE_RIDGE * penalty * w

    signs = [CONFIDENCE_SIGNS.get(name, 0) for name in features.CONFIDENCE]
    bounds = [(0.0, None) if sign > 0 else (None, 0.0) if sign < 0 else (None, None) for sign in signs]
    v = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", bounds=bounds).x
    w = v / spread
    w[0] = v[0] - (v[1:] * mean[1:] / spread[1:]).sum()
    return {name: round(float(value), 4) for name, value in zip(features.CONFIDENCE, w)}


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
    parser.add_argument(
        "--keep-ranking", action="store_true", help="keep the ranking weights of rulebot/search/weights.json: refit the confidence only"
    )
    parser.add_argument("--ridge", type=float, help="hold the ranking to PRIOR this strongly (default: chosen leaving one game out)")
    args = parser.parse_args(argv)
    rows = rows_of(SHIPPED, True) + rows_of(IMPORTED, False)
    random.Random(SEED).shuffle(rows)
    with tempfile.TemporaryDirectory(prefix="rulebot-fit-") as folder:
        os.environ["RULEBOT_CACHE_DIR"] = folder
        corpus = imported.import_games(Path(folder), imported.FITTED)
        with Searcher(open_index([shipped_corpus_dir(), corpus])) as searcher:
            kept = dict(features.MODEL["rank"]), features.MODEL["fitted"].get("ridge")
            features.MODEL["rank"] = dict(PRIOR)
            prior_scores = {}
            games = sorted({row["game"] or row["expect_game"] for row, _ in rows})
            for game in games:
                prior_scores[game] = scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game])
            questions = collect(searcher, rows)
            scale = feature_scale(questions)
            prior_w = np.array([PRIOR[name] for name in features.FEATURES])
            print(f"{len(rows)} development questions, {len(questions)} asked; {len(pairs(questions, prior_w)[0])} pairs", file=sys.stderr)
            left_out = {}
            if args.keep_ranking:
                rank, ridge = kept
            else:
                ridge, by_ridge = (args.ridge, {}) if args.ridge else choose_ridge(questions, games, scale)
                print("held-out first right, by ridge: " + ", ".join(f"{k}: {v:.1f}" for k, v in by_ridge.items()), file=sys.stderr)
                # Leave one game out: fitted without it, scored on it.
                for game in games:
                    features.MODEL["rank"] = fit_rank([q for q in questions if q.game != game], ridge, scale)
                    left_out[game] = scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game])
                rank = fit_rank(questions, ridge, scale)
            features.MODEL["rank"] = rank
            fitted_scores = {game: scores(searcher, [(r, s) for r, s in rows if (r["game"] or r["expect_game"]) == game]) for game in games}
            # Confidence, with the fitted ranking: each question asked each way (modes_of), weighing 1 in all.
            judged = [
                (row, shipped, *first_right(searcher, row, game), 1 / len(modes_of(row, shipped)), row["game"] or row["expect_game"], game == row["game"])
                for row, shipped in rows
                for game in modes_of(row, shipped)
            ]
            # Out of fold: each game's probabilities from a fit without it; the threshold is chosen on those.
            chances = [0.0] * len(judged)
            for game in games:
                confidence = fit_confidence(*_confidence_data([j for j in judged if j[7] != game]))
                features.MODEL["confidence"] = confidence
                for i, j in enumerate(judged):
                    if j[7] == game and j[4]:
                        chances[i] = features.probability(j[4])
            threshold, floor = choose_threshold(judged, chances)
            confidence = fit_confidence(*_confidence_data(judged))
            features.MODEL["confidence"] = confidence
    print("| game | n | hit@1 before | hit@3 before | hit@1 fitted | hit@3 fitted | hit@1 left out | hit@3 left out |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for game in games:
        n = sum(1 for r, _ in rows if (r["game"] or r["expect_game"]) == game and r.get("answerable", True))
        cells = [f"{v:.2f}" for pair in (prior_scores[game], fitted_scores[game]) for v in pair]
        cells += [f"{v:.2f}" for v in left_out[game]] if game in left_out else ["-", "-"]
        print(f"| {game} | {n} | " + " | ".join(cells) + " |")
    print("\n| feature | weight | prior |\n|---|---:|---:|")
    for name in features.FEATURES:
        print(f"| {name} | {rank[name]:+.3f} | {PRIOR[name]:+.3f} |")
    print("\n| confidence feature | weight |\n|---|---:|")
    for name in features.CONFIDENCE:
        print(f"| {name} | {confidence[name]:+.3f} |")
    print(f"\nthreshold: {threshold}, coverage floor: {floor} (chosen on the probabilities of fits without each game;"
          " each shipped question asked with its game and with none)")
    at = features.CONFIDENCE.index("coverage")
    stood = [c >= threshold and bool(j[4]) and j[4][at] > floor for j, c in zip(judged, chances)]
    print("out of fold (probabilities of fits without the question's game):")
    for shipped, as_asked in ((True, True), (True, False), (False, True)):
        chosen = [(j, s) for j, s in zip(judged, stood) if j[1] == shipped and j[8] == as_asked]
        sure = [j[2] for j, s in chosen if s]
        answerable = [s for j, s in chosen if j[0].get("answerable", True)]
        unanswerable = [s for j, s in chosen if not j[0].get("answerable", True)]
        form = "as asked" if as_asked else "asked with no game"
        print(f"{'shipped' if shipped else 'imported'} ({form}): confident right {sum(sure)}/{len(sure)}, answerable confident "
              f"{sum(answerable)}/{len(answerable)}, unanswerable confident {sum(unanswerable)}/{len(unanswerable)}")
    if not args.dry_run:
        model = {
            "rank": rank,
            "confidence": confidence,
            "threshold": threshold,
            "min_coverage": floor,
            "fitted": {
                "by": "bench/fit_ranking.py", "date": date.today().isoformat(), "seed": SEED, "ridge": ridge,
                "questions": len(rows), "games": games,
            },
        }
        features.WEIGHTS_FILE.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {features.WEIGHTS_FILE.relative_to(ROOT)}")
    return 0


def _confidence_data(judged: list[tuple]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The confidence features, rightness and weight of each judged answer that has an entry (one with none is never
    sure)."""
    found = [j for j in judged if j[4]]
    return np.array([j[4] for j in found]), np.array([1.0 if j[2] else 0.0 for j in found]), np.array([j[6] for j in found])


def choose_threshold(judged: list[tuple], chances: list[float]) -> tuple[float, float]:
    """The threshold and coverage floor that stand by the most answerable shipped questions while the confident
    answers are right at least TARGET_SHIPPED (shipped games) and TARGET_IMPORTED (imported ones) of the time and
    at most UNANSWERED_TARGET of the questions the sources do not answer are answered confidently (each question
    weighing 1, however many ways it is asked; `chances` out of fold): for each floor
    of FLOORS, the lowest probability (of those met, rounded to 3 places) that reaches the targets."""
    at = features.CONFIDENCE.index("coverage")
    best: tuple[float, float, float] | None = None
    for floor in FLOORS:
        for t in sorted({round(c, 3) for c in chances}):
            sure = [c >= t and bool(j[4]) and j[4][at] > floor for j, c in zip(judged, chances)]
            if _meets(judged, sure):
                count = sum(j[6] for j, s in zip(judged, sure) if s and j[1] and j[0].get("answerable", True))
                if best is None or count > best[0]:
                    best = (count, t, floor)
                break
    return (best[1], best[2]) if best else (1.0, 0.0)


def _meets(judged: list[tuple], sure: list[bool]) -> bool:
    for shipped, target in ((True, TARGET_SHIPPED), (False, TARGET_IMPORTED)):
        right = [(j[2], j[6]) for j, s in zip(judged, sure) if j[1] == shipped and s]
        if right and sum(w for r, w in right if r) / sum(w for _, w in right) < target:
            return False
    unanswered = [(s, j[6]) for j, s in zip(judged, sure) if not j[0].get("answerable", True)]
    return not unanswered or sum(w for s, w in unanswered if s) / sum(w for _, w in unanswered) <= UNANSWERED_TARGET


if __name__ == "__main__":
    sys.exit(main())
