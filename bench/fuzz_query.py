"""Fuzz the question path with atheris (coverage-guided), for a fixed time.

    pip install atheris                         # not a project dependency
    python bench/fuzz_query.py --seconds 300    # five minutes on the shipped corpus
    python bench/fuzz_query.py --seconds 60 -- -seed=1 CORPUS_DIR   # further args go to libFuzzer

Each input becomes a question (arbitrary Unicode, lone surrogates included,
or a mix of query-syntax fragments and corpus words, chosen by the input's
first byte), an optional game, and is asked of rulebot's front door (Answerer) over
the shipped corpus; the answer is then printed as text and as JSON, as
`rulebot ask` does. A *crash* is any exception other than QueryError (the
clean refusal). Unlike plain libFuzzer, the run does not stop at the first
crash: it counts them, keeps the first input of each kind under
`--crashes DIR`, and at the end prints one summary line of JSON: seconds,
executions, crashes by kind, and the slowest input's time.

JSON that cannot be encoded as UTF-8 (a lone surrogate echoed back, a known
bug) is counted apart, not as a crash.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["RULEBOT_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulebot-fuzz-")

with atheris.instrument_imports(include=["rulebot"]):
    from rulebot.answering import Answerer, searcher_over
    from rulebot.cli import output
    from rulebot.errors import QueryError
    from rulebot.places import shipped_corpus_dir

FRAGMENTS = [
    "title:*", "id:*", "body:x", "*", "?", "AND", "OR", "NOT", "ANDNOT", '"', "(", ")", "[a TO z]", "{", "}",
    "~", "~2", "^3", "\\", ":", "-", "+", "chamurky", "tie", "mage", "essence", "perle", "égalité", "combien",
    "victory points", "vp", "coins", "res arcana", "dune", "\u202e", "\u200f", "\ud800", "\x00", "🎲", "ﬃ", "ﷺ",
]
GAMES = [None, "dune-imperium", "res-arcana", "catalyst", "portals-of-molthar"]


class Run:
    def __init__(self, seconds: float, crashes_dir: Path):
        self.deadline = time.monotonic() + seconds
        self.started = time.monotonic()
        self.crashes_dir = crashes_dir
        self.executions = 0
        self.crashes: Counter[str] = Counter()
        self.refused = 0
        self.bad_utf8_json = 0
        self.slowest = (0.0, "")
        self.answerer = Answerer(searcher_over([shipped_corpus_dir()]))

    def question(self, data: bytes) -> tuple[str, str | None]:
        provider = atheris.FuzzedDataProvider(data)
        mode = provider.ConsumeIntInRange(0, 2)
        game = GAMES[provider.ConsumeIntInRange(0, len(GAMES) - 1)]
        if mode == 0:
            return provider.ConsumeUnicode(provider.remaining_bytes()), game
        if mode == 1:
            return provider.ConsumeUnicodeNoSurrogates(provider.remaining_bytes()), game
        parts = []
        while provider.remaining_bytes() > 0:
            if provider.ConsumeBool():
                parts.append(FRAGMENTS[provider.ConsumeIntInRange(0, len(FRAGMENTS) - 1)])
            else:
                parts.append(provider.ConsumeUnicode(provider.ConsumeIntInRange(0, 12)))
        return " ".join(parts), game

    def one_input(self, data: bytes) -> None:
        self.executions += 1
        question, game = self.question(data)
        started = time.perf_counter()
        try:
            answer = self.answerer.ask(question, game=game)  # the front door, as `rulebot ask` asks
            printed = output.to_json(answer.to_json())
            output.answer_text(answer, output.Style(False))
            try:
                printed.encode("utf-8")
            except UnicodeEncodeError:
                self.bad_utf8_json += 1
        except QueryError:
            self.refused += 1
        except Exception as exc:  # a crash: keep the first input of each kind
            kind = f"{type(exc).__name__} at {traceback.extract_tb(exc.__traceback__)[-1].name}"
            if not self.crashes[kind]:
                self.crashes_dir.mkdir(parents=True, exist_ok=True)
                (self.crashes_dir / f"crash-{len(self.crashes)}.bin").write_bytes(data)
                print(f"\nCRASH {kind}: {question!r}\n{traceback.format_exc()}", file=sys.stderr)
            self.crashes[kind] += 1
        elapsed = time.perf_counter() - started
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, question[:80])
        if time.monotonic() >= self.deadline:
            self.report()
            os._exit(0)  # libFuzzer never returns; leave with the summary printed

    def report(self) -> None:
        summary = {
            "seconds": round(time.monotonic() - self.started, 1),
            "executions": self.executions,
            "crashes": sum(self.crashes.values()),
            "crash_kinds": dict(self.crashes),
            "refused_with_QueryError": self.refused,
            "json_not_utf8": self.bad_utf8_json,
            "slowest_seconds": round(self.slowest[0], 3),
            "slowest_input": self.slowest[1],
        }
        print(json.dumps(summary, ensure_ascii=True), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300, help="how long to fuzz (default 300)")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"), help="where crashing inputs go")
    parser.add_argument("libfuzzer", nargs="*", help="arguments for libFuzzer (after --)")
    args = parser.parse_args()
    run = Run(args.seconds, args.crashes)
    # -timeout: an input running this long is reported by libFuzzer as a hang.
    atheris.Setup([sys.argv[0], "-timeout=120", "-rss_limit_mb=4096", "-max_len=4096", *args.libfuzzer], run.one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
