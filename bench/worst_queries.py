"""Time the costliest questions found, on the shipped corpus.

    python bench/worst_queries.py                  # each question 3 times, in-process
    python bench/worst_queries.py --repeat 1       # quicker
    python bench/worst_queries.py --process        # also as `rulebot ask` processes: wall time, peak RSS

The questions are WORST of tests/test_query_hostile.py (the test checks that
each completes; this measures how long it takes, which a test must not
assert), plus two ordinary questions for scale. Each is asked (through the front door, rulebot.answering) on a fresh
Searcher, as one `rulebot ask` does, and timed; the typo look-ups
(close words of the names and text vocabulary, rulebot.search.spelling) are counted, since
they are where the time goes. With --process, each also runs as a real
`rulebot ask` under /usr/bin/time -v for its wall time and peak RSS.

Needs the test extra (hypothesis, pytest) because it imports the test module.
The index is built in a temporary cache, never the user's.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # run from a checkout; WORST lives with its test

os.environ["RULEBOT_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulebot-bench-")

from test_query_hostile import WORST  # noqa: E402

from rulebot.answering import Answerer  # noqa: E402
from rulebot.errors import QueryError  # noqa: E402
from rulebot.index.cache import open_index  # noqa: E402
from rulebot.language.analysis import words  # noqa: E402
from rulebot.places import shipped_corpus_dir  # noqa: E402
from rulebot.search.constants import MAX_UNITS  # noqa: E402
from rulebot.search.question import MAX_QUESTION_CHARS, clean_question  # noqa: E402
from rulebot.search.ranking import Searcher  # noqa: E402

ORDINARY = {"ordinary: chamurky tie": "chamurky tie", "ordinary: sloppy": "can i trash assassination mision card"}


def ask_once(opened, question: str) -> tuple[float, int, str]:
    """(seconds, typo look-ups, outcome) of one question on a fresh Searcher."""
    with Searcher(opened) as searcher:
        calls = 0
        vocabulary = searcher.spellings.vocabulary
        real = vocabulary.within

        def counting(*args, **kwargs):
            nonlocal calls
            calls += 1
            return real(*args, **kwargs)

        vocabulary.within = counting
        started = time.perf_counter()
        try:
            answer = Answerer(searcher).ask(question)  # the front door, as `rulebot ask` asks
            outcome = f"{len(answer.results)} results"
        except QueryError as exc:
            outcome = f"QueryError: {exc}"
        return time.perf_counter() - started, calls, outcome


def in_process(question: str) -> tuple[float, int] | None:
    """(wall seconds, peak RSS in KiB) of `rulebot ask QUESTION` under /usr/bin/time -v, or None without it."""
    if not Path("/usr/bin/time").exists():
        return None
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-m", "rulebot", "ask", question],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600,
    )
    wall = time.perf_counter() - started
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return wall, int(match.group(1)) if match else -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="times each question is asked (default 3)")
    parser.add_argument("--process", action="store_true", help="also run each as a `rulebot ask` process (wall time, peak RSS)")
    args = parser.parse_args()

    opened = open_index([shipped_corpus_dir()])
    print(f"Run: {date.today()}, Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; "
          f"corpus {opened.meta['count']} entries; MAX_QUESTION_CHARS={MAX_QUESTION_CHARS}, MAX_UNITS={MAX_UNITS}; "
          f"{args.repeat} run(s) each\n")
    header = "| question | chars | words after NFKC | typo look-ups | median s | max s | outcome |"
    if args.process:
        header += " process wall s | peak RSS MiB |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, question in {**ORDINARY, **WORST}.items():
        runs = [ask_once(opened, question) for _ in range(args.repeat)]
        times = [t for t, _, _ in runs]
        try:
            count = len(words(clean_question(question)))
        except QueryError:
            count = 0
        row = (f"| {name} | {len(question)} | {count} | {runs[0][1]} | {statistics.median(times):.3f} | "
               f"{max(times):.3f} | {runs[0][2]} |")
        if args.process:
            measured = in_process(question)
            row += f" {measured[0]:.2f} | {measured[1] / 1024:.0f} |" if measured else " – | – |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
