"""The `asked` lines of the corpus that share a run of words with a question of a question set.

    python bench/asked_overlap.py QUESTIONS.jsonl [...]            # list the corpus lines (never the questions)
    python bench/asked_overlap.py --remove QUESTIONS.jsonl [...]   # and take those phrases out of the corpus
    python bench/asked_overlap.py --check tests/questions*.jsonl   # exit 1 when any phrase is flagged

An `asked` phrase is written from the sources by a curator who has not read
the question sets; one that shares a long run of words with a question
flatters every figure measured on that set. A phrase is flagged when it
shares a run of RUN words (or all its words, for a phrase of three or more)
with a question, or when the two are equal. Only the corpus side is printed,
so that the list can be handed to a curator without showing the questions.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
RUN = 4
ASKED = re.compile(r"^(asked(?:-[a-z]{2})?):[ \t]*(.*)$")


def words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.lower().replace("’", "'"))
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return re.findall(r"[a-z0-9]+", folded)


FILLER = set(
    "a an the i we you my your our it is are do does did can could to of in on at for with and or if when what how "
    "many much who which there that this be have has get one my me "
    "le la les un une des de du d l je j on en a au aux et ou est il elle ce qui que quand combien comment".split()
)
"""Words that make up the runs every question shares: a run must hold two others to count."""


def longest_run(a: list[str], b: list[str]) -> int:
    """The most words of `a` found in a row in `b`, counting runs with at least two words outside FILLER."""
    best = 0
    previous = [0] * (len(b) + 1)
    for i, x in enumerate(a):
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                current[j] = previous[j - 1] + 1
                run = a[i - current[j] + 1 : i + 1]
                if sum(w not in FILLER for w in run) >= 2:
                    best = max(best, current[j])
        previous = current
    return best


def leaks(phrase: list[str], questions: list[list[str]]) -> bool:
    if not phrase:
        return False
    need = min(RUN, len(phrase)) if len(phrase) >= 3 else None
    for question in questions:
        if phrase == question:
            return True
        if need is not None and longest_run(phrase, question) >= need:
            return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="+", type=Path)
    parser.add_argument("--remove", action="store_true", help="take the flagged phrases out of the corpus files")
    parser.add_argument("--check", action="store_true", help="exit with status 1 when any phrase is flagged")
    args = parser.parse_args()
    questions = []
    for path in args.questions:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if "q" in row:
                    questions.append(words(row["q"]))
    flagged = 0
    for path in sorted(CORPUS.rglob("*.md")):
        if path.name == "README.md":
            continue
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        entry = None
        changed = False
        for number, line in enumerate(lines):
            if line.startswith("## "):
                entry = line[3:].strip()
            match = ASKED.match(line.rstrip("\n"))
            if not match:
                continue
            phrases = [p.strip() for p in match.group(2).split(";")]
            kept = []
            for phrase in phrases:
                if phrase and leaks(words(phrase), questions):
                    flagged += 1
                    print(f"{path.relative_to(CORPUS.parent)}:{number + 1}: {entry}: {match.group(1)}: {phrase}")
                elif phrase:
                    kept.append(phrase)
            if args.remove and len(kept) != len([p for p in phrases if p]):
                changed = True
                lines[number] = f"{match.group(1)}: {'; '.join(kept)}\n" if kept else ""
        if changed:
            path.write_text("".join(lines), encoding="utf-8")
    print(f"{flagged} asked phrase(s) share a run of words with a question", file=sys.stderr)
    return 1 if args.check and flagged else 0


if __name__ == "__main__":
    sys.exit(main())
