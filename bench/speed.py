"""Speed and scale of rulebot, side by side with a minimal reference in the same run.

    python bench/speed.py                         # shipped corpus, 10k and 100k entries
    python bench/speed.py --sizes shipped,10000   # some sizes only
    python bench/speed.py --runs 30               # more cold runs

For each corpus size it measures:

- cold answer: `rulebot ask` as a fresh process, index already built, median
  of --runs, interleaved run by run with the reference (a fresh `python`
  process that opens an SQLite FTS5 table of the same entries and runs one
  `bm25()` query), so that the machine's noise hits both alike;
- warm answer: latency within one process (of its own), p50 and p95, over 200+ varied questions;
- index build: a full build, then bringing the index up to date after one
  entry is edited (both as `rulebot index` processes; the update's median
  over EDITS edits); and, right after the full build, a naive build of the
  same documents by Whoosh's own writer in one process;
- site build time, and the weight of the site's pages (bench/page_weight.py:
  the largest HTML page, what opening a game page downloads, the search data
  its first search loads), when Chromium is there to open them;
- peak memory (max RSS) of `ask` and of the index build, per process (wait4,
  from a small launcher: see LAUNCHER).

Large corpora come from bench/scale_corpus.py (real rules documents from
../shared/data when present, else a seeded generator). Everything runs in
temporary folders with its own index cache: nothing touches the user's.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSWERED = (0, 1, 3)
"""The exit statuses of an `ask` that answered: clearly, with nothing found, or unsure (README, exit statuses)."""
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import page_weight  # noqa: E402
import scale_corpus  # noqa: E402

from rulebot.corpus import load as corpus_module  # noqa: E402
from rulebot.places import shipped_corpus_dir  # noqa: E402

QUESTIONS = ["chaumurky tie", "can i trash assassination mission", "how many coins can i keep",
             "combien d'actions par tour", "what happens when a creature with deathtouch deals damage"]


LAUNCHER = (
    "import os, sys, time\n"
    "started = time.perf_counter()\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    quiet = os.open(os.devnull, os.O_RDWR)\n"
    "    for stream in (0, 1, 2):\n"
    "        os.dup2(quiet, stream)\n"
    "    os.execv(sys.argv[1], sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "print(time.perf_counter() - started, os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n"
)
"""Runs a command, timing it and reporting its exit status and max RSS.

Linux carries a process's peak RSS across exec: a command started straight
from this process (which holds a whole generated corpus) would report this
process's peak as its own. A small launcher forks it from a fresh, small
process instead, and times it itself, so that its own start is not counted."""


EDITS = 5
"""How many one-entry edits the update time is the median of."""


def run(command: list[str], env: dict) -> tuple[float, int, int]:
    """Run a process: (wall seconds, exit status, max RSS in KiB)."""
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *command], env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    )
    seconds, status, rss = done.stdout.split()
    return float(seconds), int(status), int(rss)


def rulebot(args: list[str]) -> list[str]:
    """What the installed `rulebot` command runs (its console script), from this checkout."""
    return [sys.executable, "-c", "import sys; from rulebot.cli.quick import main; sys.exit(main())", *args]


def compile_bytecode() -> None:
    """Write rulebot's bytecode, as `pip install` does: with PYTHONDONTWRITEBYTECODE set
    (as on some machines), a checkout would otherwise be compiled from source at every start."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "rulebot")], check=True)


def fts5_reference(corpus, folder: Path) -> Path:
    """An SQLite FTS5 table of the same entries (title, aliases, text)."""
    path = folder / "reference.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE VIRTUAL TABLE e USING fts5(id UNINDEXED, body)")
    con.executemany(
        "INSERT INTO e VALUES (?, ?)",
        ((e.id, " ".join([e.title, *(a.text for a in e.aliases), e.text])) for e in corpus.entries.values()),
    )
    con.commit()
    con.close()
    return path


REFERENCE_SCRIPT = (
    "import sqlite3,sys\n"
    "con=sqlite3.connect(sys.argv[1])\n"
    "q=' OR '.join('\"'+w.replace('\"','')+'\"' for w in sys.argv[2].split())\n"
    "print(con.execute('SELECT id FROM e WHERE e MATCH ? ORDER BY bm25(e) LIMIT 5',(q,)).fetchall())\n"
)


PLAIN_WHOOSH_SCRIPT = (
    "import sys\n"
    "from whoosh import index, query\n"
    "from whoosh.filedb.filestore import FileStorage\n"
    "ix=FileStorage(sys.argv[1]).open_index()\n"
    "with ix.searcher() as s:\n"
    "    q=query.Or([query.Term('body',w) for w in sys.argv[2].lower().split()])\n"
    "    print([h['id'] for h in s.search(q,limit=5)])\n"
)
"""A plain Whoosh script: open rulebot's index and run one BM25F query (the floor Whoosh sets)."""


def built_index(cache: Path) -> Path:
    """The folder of the index rulebot built in a cache."""
    return max((p.parent for p in (cache / "index").glob("*/*/rulebot-meta.json")), key=lambda p: p.stat().st_mtime)


WARM_SCRIPT = (
    "import json, sys, time\n"
    "from rulebot.index.cache import open_index\n"
    "from rulebot.search.ranking import Searcher\n"
    "questions = json.loads(open(sys.argv[2], encoding='utf-8').read())\n"
    "with Searcher(open_index(json.loads(sys.argv[1]))) as searcher:\n"
    "    for question in questions[:20]:\n"
    "        searcher.ask(question)  # warm the caches as a session would\n"
    "    timings = []\n"
    "    for question in questions:\n"
    "        started = time.perf_counter()\n"
    "        searcher.ask(question)\n"
    "        timings.append(time.perf_counter() - started)\n"
    "print(json.dumps(timings))\n"
)
"""Warm answers: one searcher, the questions asked one after the other, each timed."""

NAIVE_WHOOSH_WARM_SCRIPT = (
    "import json, sys, time\n"
    "from whoosh import index\n"
    "from whoosh.qparser import MultifieldParser, OrGroup\n"
    "questions = json.loads(open(sys.argv[2], encoding='utf-8').read())\n"
    "ix = index.open_dir(sys.argv[1])\n"
    "parser = MultifieldParser(['title', 'names', 'aliases', 'aliases_fr', 'body'], ix.schema, group=OrGroup)\n"
    "with ix.searcher() as searcher:\n"
    "    def ask(question):\n"
    "        try:\n"
    "            return [hit['id'] for hit in searcher.search(parser.parse(question), limit=10)]\n"
    "        except Exception:  # a question the query syntax refuses\n"
    "            return []\n"
    "    for question in questions[:20]:\n"
    "        ask(question)\n"
    "    timings = []\n"
    "    for question in questions:\n"
    "        started = time.perf_counter()\n"
    "        ask(question)\n"
    "        timings.append(time.perf_counter() - started)\n"
    "print(json.dumps(timings))\n"
)
"""The same questions through a naive use of Whoosh on the same index: its query parser over the
text fields (words OR-ed), its own BM25F searcher, the ten best. What rulebot's warm answers are set against."""


NAIVE_WHOOSH_BUILD_SCRIPT = (
    "import json, sys, tempfile\n"
    "from pathlib import Path\n"
    "from whoosh import index\n"
    "from rulebot.corpus import load as corpus\n"
    "from rulebot.index.cache import documents\n"
    "from rulebot.index.schema import schema\n"
    "loaded = corpus.load([Path(d) for d in json.loads(sys.argv[1])])\n"
    "with tempfile.TemporaryDirectory(dir=sys.argv[2]) as folder:\n"
    "    writer = index.create_in(folder, schema()).writer()\n"
    "    for _, make in documents(loaded):\n"
    "        writer.add_document(**make())\n"
    "    writer.commit()\n"
)
"""A naive index build: the same corpus loaded, the same documents made, written by Whoosh's own
writer in one process. The issue's reference for the build target; what rulebot's build is set against."""


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def warm_questions(corpus, count: int = 240, seed: int = 1) -> list[str]:
    """Varied questions: titles, titles with a typo, and words from texts."""
    rng = random.Random(seed)
    entries = list(corpus.entries.values())
    out = list(QUESTIONS)
    own = ROOT / "tests" / "questions.jsonl"
    if own.is_file():
        out.extend(json.loads(line)["q"] for line in own.read_text(encoding="utf-8").splitlines() if line.strip())
    while len(out) < count:
        entry = rng.choice(entries)
        title = entry.title.lower()
        if rng.random() < 0.4 and len(title) > 5:
            i = rng.randrange(1, len(title) - 1)
            title = title[:i] + title[i + 1:]
        words = entry.text.split()
        if rng.random() < 0.5 and len(words) > 6:
            start = rng.randrange(len(words) - 4)
            title = f"{title} {' '.join(words[start:start + 3])}"
        out.append(title)
    return out[:count]


def measure(label: str, corpus_dir: Path, shipped: bool, runs: int, work: Path) -> dict:
    env = dict(os.environ, RULEBOT_CACHE_DIR=str(work / "cache"), RULEBOT_CONFIG_DIR=str(work / "config"), NO_COLOR="1")
    corpus_args = [] if shipped else ["--no-shipped", "--corpus", str(corpus_dir)]
    result: dict = {"size": label}
    loaded = corpus_module.load([corpus_dir])
    result["entries"] = len(loaded.entries)

    dirs = [shipped_corpus_dir()] if shipped else [corpus_dir]
    seconds, status, rss = run(rulebot([*corpus_args, "index", "--rebuild"]), env)
    assert status == 0, "index build failed"
    result["build_s"], result["build_rss_mb"] = seconds, rss / 1024
    seconds, status, _ = run([sys.executable, "-c", NAIVE_WHOOSH_BUILD_SCRIPT, json.dumps([str(d) for d in dirs]), str(work)], dict(env, PYTHONPATH=str(ROOT)))
    assert status == 0, "naive Whoosh build failed"
    result["naive_build_s"] = seconds

    # One edited entry, EDITS times: a line appended to the text of the last
    # entry of the first entries file, then `rulebot index`; the median.
    if not shipped:
        first = next(p for p in sorted(corpus_dir.rglob("*.md")))
        original = first.read_text(encoding="utf-8")
        updates = []
        for number in range(EDITS):
            first.write_text(original + f"\nEdited for the benchmark, {number + 1}.\n", encoding="utf-8")
            seconds, status, _ = run(rulebot([*corpus_args, "index"]), env)
            assert status == 0
            updates.append(seconds)
        result["update_s"] = statistics.median(updates)
    reference = fts5_reference(loaded, work)
    folder = built_index(work / "cache")
    cold, ref, plain, rss_ask = [], [], [], []
    for number in range(runs):
        question = QUESTIONS[number % len(QUESTIONS)]
        seconds, status, rss = run(rulebot([*corpus_args, "ask", question]), env)
        assert status in ANSWERED, status
        cold.append(seconds)
        rss_ask.append(rss / 1024)
        seconds, status, _ = run([sys.executable, "-c", REFERENCE_SCRIPT, str(reference), question], env)
        ref.append(seconds)
        seconds, status, _ = run([sys.executable, "-c", PLAIN_WHOOSH_SCRIPT, str(folder), question], env)
        assert status == 0
        plain.append(seconds)
    result["cold_ms"], result["ref_ms"], result["plain_whoosh_ms"] = median_ms(cold), median_ms(ref), median_ms(plain)
    # Every run's peak is kept: one outlier among them should be seen as such.
    result["ask_rss_mb"], result["ask_rss_median_mb"], result["ask_rss_runs_mb"] = max(rss_ask), statistics.median(rss_ask), rss_ask

    # In a process of its own, as a session at the table has: this one holds
    # the whole corpus, and the garbage collector's sweeps of it would be timed too.
    questions = work / "questions.json"
    questions.write_text(json.dumps(warm_questions(loaded)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", WARM_SCRIPT, json.dumps([str(d) for d in dirs]), str(questions)],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    )
    timings = json.loads(done.stdout)
    result["warm_p50_ms"], result["warm_p95_ms"], result["warm_n"] = percentile(timings, 0.5), percentile(timings, 0.95), len(timings)
    done = subprocess.run(
        [sys.executable, "-c", NAIVE_WHOOSH_WARM_SCRIPT, str(folder), str(questions)],
        env=dict(env, PYTHONPATH=str(ROOT)), cwd=ROOT, capture_output=True, text=True, check=True,
    )
    naive = json.loads(done.stdout)
    result["naive_warm_p50_ms"], result["naive_warm_p95_ms"] = percentile(naive, 0.5), percentile(naive, 0.95)

    seconds, status, rss = run(rulebot([*corpus_args, "site", "build", "--force", str(work / "site")]), env)
    assert status == 0, "site build failed"
    result["site_s"], result["site_rss_mb"] = seconds, rss / 1024
    if page_weight.available():
        result["page_weight"] = page_weight.measure(work / "site")
    return result


def table(results: list[dict]) -> str:
    rows = [
        "| corpus | entries | cold ask (ms) | FTS5 reference (ms) | ratio | plain Whoosh (ms) | warm p50 / p95 (ms) | naive Whoosh warm p50 / p95 (ms) | index build (s) | naive Whoosh build (s) | one edit (s) | site build (s) | max RSS ask / build (MB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        update = f"{r['update_s']:.2f}" if "update_s" in r else "–"
        rows.append(
            f"| {r['size']} | {r['entries']} | {r['cold_ms']:.0f} | {r['ref_ms']:.0f} | {r['cold_ms'] / r['ref_ms']:.1f}x | {r['plain_whoosh_ms']:.0f} "
            f"| {r['warm_p50_ms']:.1f} / {r['warm_p95_ms']:.1f} | {r['naive_warm_p50_ms']:.1f} / {r['naive_warm_p95_ms']:.1f} "
            f"| {r['build_s']:.1f} | {r['naive_build_s']:.1f} | {update} | {r['site_s']:.1f} "
            f"| {r['ask_rss_mb']:.0f} / {r['build_rss_mb']:.0f} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="shipped,10000,100000", help="comma-separated: shipped and/or entry counts")
    parser.add_argument("--runs", type=int, default=20, help="cold runs per size (each also runs the reference)")
    parser.add_argument("--data", type=Path, default=scale_corpus.DEFAULT_DATA)
    args = parser.parse_args()
    compile_bytecode()
    results = []
    with tempfile.TemporaryDirectory(prefix="rulebot-speed-") as tmp:
        for size in args.sizes.split(","):
            work = Path(tmp) / size
            work.mkdir()
            if size == "shipped":
                corpus_dir, shipped = shipped_corpus_dir(), True
            else:
                corpus_dir, shipped = work / "corpus", False
                scale_corpus.build(int(size), corpus_dir, args.data)
            results.append(measure(size, corpus_dir, shipped, args.runs, work))
            print(json.dumps(results[-1]), file=sys.stderr)
            shutil.rmtree(work / "cache", ignore_errors=True)
    print(f"{date.today()}, Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.runs} cold runs per size\n")
    print(table(results))
    weights = [(r["size"], r["page_weight"]) for r in results if "page_weight" in r]
    if weights:
        print("\nPage weight (bench/page_weight.py):\n")
        print(page_weight.table(weights))
    else:
        print("\nPage weight: not measured (needs the playwright package and Chromium at /usr/bin/chromium).")


if __name__ == "__main__":
    main()
