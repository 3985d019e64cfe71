"""Import public rules references as a curator would, and measure the drafts and their answers.

    python bench/drafts_shape.py                                  # X-Wing and Marvel Champions: drafts' shape
    python bench/drafts_shape.py --questions FILE.jsonl           # ... and hit@1 / hit@3 of FILE (aggregate only)
    python bench/drafts_shape.py --more                           # Star Wars: Unlimited and MTG instead
    python bench/drafts_shape.py --mtg                            # the MTG comprehensive rules: time, size, site

Each game is started in a temporary corpus folder with `rulebot new-game`
and its document added with `rulebot import DOCUMENT --append`, nothing
edited by hand. The documents are ../shared/data's (a bench may read them;
the tests never do). For the drafts: their number, words per entry (median,
largest, how many over 400), titles used more than once, kinds. With
--questions, every question of the file is asked through
../shared/eval/score.py against that corpus, and only the overall figures
are printed: the file is a report, not something to tune against. With
--mtg: seconds for new-game + import + the first answer, and the largest
page of the imported game's site.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ../shared beside the checkout (a worktree may sit one folder deeper)
SHARED = next((p / "shared" for p in HERE.parents if (p / "shared" / "data").is_dir()), HERE.parent.parent / "shared")
DATA = SHARED / "data"
SCORE = SHARED / "eval" / "score.py"
GAMES = {
    "x-wing": ("Star Wars: X-Wing", "star-wars-x-wing-2e-rules-reference-v1.4.6.md"),
    "marvel-champions": ("Marvel Champions", "marvel-champions-rules-reference.md"),
}
MORE_GAMES = {
    "star-wars-unlimited": ("Star Wars: Unlimited", "star-wars-unlimited-comprehensive-rules.md"),
    "mtg": ("Magic: The Gathering", "mtg-comprehensive-rules-20260417.txt"),
}
MTG = ("magic", "Magic: The Gathering", "mtg-comprehensive-rules-20260417.txt")


def rulebot(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rulebot", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def curator_import(folder: Path, slug: str, name: str, document: Path, env: dict[str, str]) -> str:
    """new-game then import --append, as the new-game hint says; the import's summary line."""
    corpus = ("--corpus", str(folder))
    made = rulebot(*corpus, "new-game", slug, "--name", name, "--title", f"{name} rules reference", env=env)
    if made.returncode:
        sys.exit(f"new-game {slug}: {made.stderr.strip()}")
    imported = rulebot(*corpus, "import", str(document), "--game", slug, "--source", "rules", "--append", env=env)
    if imported.returncode:
        sys.exit(f"import {slug}: {imported.stderr.strip()}")
    return imported.stderr.strip()


def shape(entries_file: Path) -> str:
    """The drafts' figures: count, words per entry, repeated titles, kinds."""
    text = entries_file.read_text(encoding="utf-8")
    blocks = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    words, titles, kinds = [], collections.Counter(), collections.Counter()
    for block in blocks:
        head, _, body = block.partition("\n\n")
        title = re.search(r"^title: (.*)$", head, re.MULTILINE)
        kind = re.search(r"^kind: (.*)$", head, re.MULTILINE)
        titles[title.group(1) if title else ""] += 1
        kinds[kind.group(1) if kind else ""] += 1
        words.append(len(body.split()))
    repeated = sum(1 for n in titles.values() if n > 1)
    return (
        f"{len(blocks)} drafts; words median {statistics.median(words):.0f}, max {max(words)}, over 400: "
        f"{sum(w > 400 for w in words)}; titles used more than once: {repeated}; kinds: {dict(kinds)}"
    )


def score(folder: Path, questions: Path, env: dict[str, str]) -> str:
    """The scorer's overall line; questions without a `must` or `any` (the unanswerable ones) are left out."""
    import json

    rows = [line for line in questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = [line for line in rows if (row := json.loads(line)).get("must") or row.get("any")]
    questions = folder.parent / "questions.jsonl"
    questions.write_text("\n".join(kept) + "\n", encoding="utf-8")
    cmd = f"{shlex.quote(sys.executable)} -m rulebot --no-shipped --corpus {shlex.quote(str(folder))}"
    done = subprocess.run(
        [sys.executable, str(SCORE), str(questions), "--cmd", cmd, "--k", "3"], capture_output=True, text=True, env=env, check=False
    )
    overall = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
    return f"{overall} ({len(rows) - len(kept)} without must/any left out)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=Path, help="a question file to score (overall figures only)")
    parser.add_argument("--mtg", action="store_true", help="the MTG comprehensive rules: time, size, site")
    parser.add_argument("--more", action="store_true", help="Star Wars: Unlimited and MTG instead of X-Wing and Marvel Champions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "RULEBOT_DATA_DIR": str(root / "data"), "RULEBOT_CACHE_DIR": str(root / "cache"),
               "RULEBOT_CONFIG_DIR": str(root / "config")}
        folder = root / "games"
        if args.mtg:
            slug, name, file = MTG
            started = time.perf_counter()
            summary = curator_import(folder, slug, name, DATA / file, env)
            asked = rulebot("--no-shipped", "--corpus", str(folder), "ask", "what does trample do", "--game", slug, env=env)
            seconds = time.perf_counter() - started
            print(summary)
            print(shape(folder / slug / "rules.md"))
            print(f"new-game + import + first answer: {seconds:.1f} s (exit {asked.returncode}); first answer: {asked.stdout.splitlines()[:1]}")
            site = root / "site"
            built = rulebot("--no-shipped", "--corpus", str(folder), "site", "build", str(site), env=env)
            pages = sorted(((p.stat().st_size, p) for p in site.rglob("*") if p.is_file()), reverse=True) if not built.returncode else []
            html = [(size, p) for size, p in pages if p.suffix == ".html"]
            print(f"site: exit {built.returncode}; {len(html)} pages, largest "
                  + (f"{html[0][0] // 1024} KB ({html[0][1].relative_to(site)})" if html else "-")
                  + (f"; largest file {pages[0][0] // 1024} KB ({pages[0][1].relative_to(site)})" if pages else ""))
            over = [p for size, p in html if size > 300 * 1024]
            print(f"pages over 300 KB: {len(over)}" + (f" ({', '.join(str(p.relative_to(site)) for p in over[:5])})" if over else ""))
            return
        for slug, (name, file) in (MORE_GAMES if args.more else GAMES).items():
            print(f"{slug}: {curator_import(folder, slug, name, DATA / file, env)}")
            print(f"  {shape(folder / slug / 'rules.md')}")
        if args.questions:
            print(f"{args.questions.name}: {score(folder, args.questions, env)}")


if __name__ == "__main__":
    main()
