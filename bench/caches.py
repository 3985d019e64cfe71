"""What each of rulebot's caches saves: the same commands with the cache on and off, run in turn.

    python bench/caches.py                          # shipped corpus and 10,000 entries
    python bench/caches.py --sizes shipped --runs 5

rulebot keeps, beside each index in its cache folder:

- parsed: each entries file as last parsed (rulebot.corpus.load.ParsedFiles),
  so that an update parses only the files that changed;
- stamps: each corpus file's size, times and hash when last read
  (rulebot.index.cache.STAMPS_FILE), so that the corpus fingerprint taken
  before every answer reads only the files that changed;
- verified: each index file's stamp when its checksum was last verified
  (rulebot.index.sealed.VERIFIED_FILE), so that an answer hashes the index
  files again only when one changed;
- update: the earlier build itself, which an edit brings up to date
  (rulebot.index.update) rather than building anew.

Each is measured where it can matter: a cold `rulebot ask` of a built index
(ask), `rulebot ask` right after one entries file was edited (edit: the
index is brought up to date first), and `rulebot index --rebuild`
(rebuild). A cache is turned off by a launcher that patches rulebot in the
measured process only (it is never read, nor written); the launcher of the
"on" runs imports the same modules and patches nothing. The two run in
turn, on then off, each with a cache folder of its own, over the same corpus
copy (an edit scenario edits it before every run): the medians of wall and
CPU time (user + system, the process and its helpers), and the median of the
pairwise ratios off/on of CPU time, which holds when the machine's speed drifts.
Large corpora come from bench/scale_corpus.py.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import scale_corpus  # noqa: E402

QUESTION = ["how", "many", "cards", "can", "i", "keep"]

OFF = {
    "parsed": ("from rulebot.corpus import load", "load.ParsedFiles.get = lambda self, path, key: None\nload.ParsedFiles.save = lambda self: None"),
    "stamps": ("from rulebot.corpus import files", "_fingerprint = files.fingerprint\nfiles.fingerprint = lambda dirs, known=None: _fingerprint(dirs, {})"),
    "verified": ("from rulebot.index import sealed", "sealed.verified_unchanged = lambda folder, meta: False\nsealed.record_verified = lambda folder, stamps: None"),
    "update": ("from rulebot.index import cache", "cache._latest_build = lambda home, exclude: None"),
}
"""How each cache is turned off in the measured process (never read, never written): the module the patch reaches
(imported by the "on" launcher too: the edit and rebuild import them anyway), and the patch."""
SCENARIOS = {"ask": ("stamps", "verified"), "edit": ("parsed", "stamps", "verified", "update"), "rebuild": ("parsed", "stamps", "verified")}
"""The caches each scenario can use."""
RUN = "import sys\nfrom rulebot.cli.quick import main\nsys.exit(main())\n"


def launcher(cache_name: str, off: bool) -> list[str]:
    """The command that runs rulebot with a cache on or off."""
    imports, patch = OFF[cache_name]
    return [sys.executable, "-c", imports + "\n" + (patch + "\n" if off else "") + RUN]


def timed(command: list[str], cache: Path) -> tuple[float, float]:
    """Run a process to its end: (wall seconds, CPU seconds of it and of its helpers)."""
    env = {**_environ(), "RULEBOT_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1, 3):  # an answer: clear, none, or unsure (README, exit statuses)
        raise SystemExit(f"{' '.join(command[3:])} failed ({done.returncode}): {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("RULEBOT_")} | {"PYTHONPATH": str(ROOT)}


class Editor:
    """Edits one entries file of a corpus a little differently each time (its last entry gains a sentence)."""

    def __init__(self, corpus: Path):
        # The first entries file, not a translation (`<source>.<lang>.md`): the same one at every run.
        self.path = min(p for p in corpus.glob("*/*.md") if p.name.lower() != "readme.md" and p.name.count(".") == 1)
        self.original = self.path.read_text(encoding="utf-8")
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        self.path.write_text(self.original.rstrip("\n") + f"\n\nBench edit {self.count}.\n", encoding="utf-8")


def measure(corpus: Path, scenario: str, cache_name: str, runs: int, work: Path) -> dict:
    """On and off in turn, `runs` each after one of each not counted."""
    args = ["ask", "--no-shipped", "--corpus", str(corpus), *QUESTION]
    if scenario == "rebuild":
        args = ["index", "--rebuild", "--no-shipped", "--corpus", str(corpus)]
    editor = Editor(corpus) if scenario == "edit" else None
    folders = {state: work / f"{cache_name}-{scenario}-{state}" for state in ("on", "off")}
    commands = {"on": launcher(cache_name, off=False), "off": launcher(cache_name, off=True)}
    figures: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
    for state in ("on", "off"):  # each cache folder holds a built index of this corpus before the first run
        timed(commands[state] + ["ask", "--no-shipped", "--corpus", str(corpus), *QUESTION], folders[state])
    for run in range(runs + 1):
        for state in ("on", "off"):
            if editor is not None:
                editor()
            result = timed(commands[state] + args, folders[state])
            if run:
                figures[state].append(result)
    if editor is not None:
        editor.path.write_text(editor.original, encoding="utf-8")
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
    on_cpu, off_cpu = [c for _, c in figures["on"]], [c for _, c in figures["off"]]
    return {
        "scenario": scenario,
        "cache": cache_name,
        "on_wall": statistics.median(w for w, _ in figures["on"]),
        "off_wall": statistics.median(w for w, _ in figures["off"]),
        "on_cpu": statistics.median(on_cpu),
        "off_cpu": statistics.median(off_cpu),
        "ratio": statistics.median(off / on for on, off in zip(on_cpu, off_cpu)),
    }


def table(label: str, rows: list[dict]) -> str:
    lines = [
        f"{label}:",
        "",
        "| scenario | cache | on: wall / CPU ms | off: wall / CPU ms | CPU saved ms | CPU off/on |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['scenario']} | {r['cache']} | {r['on_wall'] * 1000:.0f} / {r['on_cpu'] * 1000:.0f} | "
            f"{r['off_wall'] * 1000:.0f} / {r['off_cpu'] * 1000:.0f} | {(r['off_cpu'] - r['on_cpu']) * 1000:.0f} | {r['ratio']:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="shipped,10000", help="comma-separated: shipped and/or entry counts")
    parser.add_argument("--runs", type=int, default=7, help="runs of each state (on, off) per scenario and cache")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated: " + ", ".join(SCENARIOS))
    parser.add_argument("--data", type=Path, default=scale_corpus.DEFAULT_DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulebot-caches-") as temporary:
        work = Path(temporary)
        for size in args.sizes.split(","):
            corpus = work / f"corpus-{size}"
            if size == "shipped":
                shutil.copytree(ROOT / "corpus", corpus)
                label = "shipped corpus"
            else:
                count = scale_corpus.build(int(size), corpus, args.data if args.data.is_dir() else None)
                label = f"{count:,} entries"
            rows = [
                measure(corpus, scenario, cache_name, args.runs, work)
                for scenario in args.scenarios.split(",")
                for cache_name in SCENARIOS[scenario]
            ]
            print(table(label, rows), flush=True)
            print(flush=True)


if __name__ == "__main__":
    main()
