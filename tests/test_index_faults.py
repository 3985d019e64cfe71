"""The index lifecycle under faults: killed rebuilds, damaged files, a cache that cannot be written, concurrency.

tests/test_index.py covers the ordinary lifecycle and the first kinds of
damage; these tests push further. The figures of their runs are in
docs/reliability.md.
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import MINIMAL

from rulebot.index import cache as index_module
from rulebot.index import sealed
from rulebot.index.cache import PARSED_DIR, STALE_SECONDS, STAMPS_FILE, open_index
from rulebot.index.opened import OpenIndex
from rulebot.index.sealed import META_FILE, VERIFIED_FILE
from rulebot.places import shipped_corpus_dir
from rulebot.search.ranking import Searcher

SEED = 20261122
"""Every random choice here comes from this seed: a failure replays."""
KILLS = 20
"""SIGKILLs that must land inside a rebuild."""

# -- a synthetic corpus, big enough that a rebuild takes seconds ---------------

SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "shi", "bel", "du", "fa", "gor", "ni", "sel", "ump", "ro", "ta", "zi", "qua", "mer", "ol"]
MARKERS = {
    # question -> the entry that answers it; their words are made of no syllable above
    "glimmerwick lantern": "vo-glimmerwick",
    "how far does the brassfern sail": "vo-brassfern",
    "quillhorn": "vo-quillhorn",
}


def write_synthetic_corpus(root: Path, entries: int, seed: int = SEED) -> Path:
    """One game of `entries` entries in invented words, plus the MARKERS entries."""
    rng = random.Random(seed)
    game = root / "vornish"
    game.mkdir(parents=True)
    (game / "game.toml").write_text(
        'slug = "vornish"\nname = "Vornish Isles"\nid_prefix = "vo"\n\n[[sources]]\nid = "rules"\ntitle = "Vornish rules"\n',
        encoding="utf-8",
    )

    def word() -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))

    vocabulary = sorted({word() for _ in range(3000)})
    chunks = [
        "## vo-glimmerwick\ntitle: Glimmerwick Lantern\nkind: rule\nsection: Lights\n\nThe Glimmerwick Lantern lights two harbours.\n",
        "## vo-brassfern\ntitle: Brassfern\nkind: fine-point\nsection: Ships\n\nThe Brassfern sails three seas in one turn.\n",
        "## vo-quillhorn\ntitle: Quillhorn\nkind: faq\nsection: Calls\naliases: horn of quills\n\nA Quillhorn call wakes every sleeper.\n",
    ]
    for n in range(entries):
        title = " ".join(rng.choice(vocabulary).title() for _ in range(2))
        text = " ".join(rng.choice(vocabulary) for _ in range(6))
        chunks.append(f"## vo-e{n}\ntitle: {title}\nkind: rule\nsection: Part {n % 50}\n\n{text.capitalize()}.\n")
    (game / "rules.md").write_text("\n".join(chunks), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2,000-entry corpus (about 3 s to index here)."""
    return write_synthetic_corpus(tmp_path_factory.mktemp("synthetic"), entries=2000)


def rulebot_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, RULEBOT_CACHE_DIR=str(cache), NO_COLOR="1")
    env.pop("RULEBOT_CORPUS", None)
    return env


def command(corpus: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), *args]


def ask_top(corpus: Path, cache: Path, question: str, nice: int = 0) -> tuple[subprocess.CompletedProcess, str | None]:
    """Run `rulebot ask --json` as a process; (the process, the top entry id or None)."""
    done = subprocess.run(
        command(corpus, "ask", "--json", question), capture_output=True, text=True, env=rulebot_env(cache), timeout=300,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )
    top = None
    if done.returncode == 0:
        results = json.loads(done.stdout)["results"]
        top = results[0]["id"] if results else None
    return done, top


def index_home(cache: Path) -> Path:
    (home,) = (cache / "index").iterdir()
    return home


# -- SIGKILL -----------------------------------------------------------------------

def _wait_for_processes_of(cache: Path, timeout: float = 120) -> None:
    """Wait until no process runs with this cache (orphaned build helpers, on Linux)."""
    marker = str(cache).encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = []
        for entry in Path("/proc").glob("[0-9]*"):
            try:
                if marker in (entry / "environ").read_bytes() and int(entry.name) != os.getpid():
                    running.append(entry.name)
            except OSError:
                continue
        if not running:
            return
        time.sleep(0.2)
    raise AssertionError(f"processes still using {cache}: {running}")


@pytest.mark.slow
def test_sigkill_during_rebuild_never_breaks_answers(synthetic: Path, tmp_path: Path):
    """`rulebot index --rebuild` killed at random moments: the next `ask` always answers correctly, without a warning.

    A kill is sent at a random moment within the shortest rebuild seen so
    far, and a rebuild that finishes first shortens that span: the kills
    land inside rebuilds however fast or loaded the machine is, and whether
    one landed is read from how the process ended, not from the clock.
    """
    cache = tmp_path / "cache"
    env = rulebot_env(cache)
    subprocess.run(command(synthetic, "index"), check=True, capture_output=True, env=env, timeout=300)
    shortest = math.inf  # a whole process: start-up, load, write, swap, prune
    rng = random.Random(SEED)
    questions = list(MARKERS)
    outcomes: Counter[str] = Counter()
    while outcomes["killed"] < KILLS:
        assert outcomes["finished first"] < KILLS, outcomes  # each one shortens the span: never this many
        outcomes["trials"] += 1
        started = time.monotonic()
        process = subprocess.Popen(command(synthetic, "index", "--rebuild"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        try:
            process.wait(timeout=None if shortest == math.inf else rng.uniform(0, shortest))
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
        process.wait()
        if process.returncode == -signal.SIGKILL:
            outcomes["killed"] += 1
        else:
            assert process.returncode == 0
            shortest = min(shortest, time.monotonic() - started)
            outcomes["finished first"] += 1
        question = rng.choice(questions)
        done, top = ask_top(synthetic, cache, question)
        assert done.returncode == 0, done.stderr
        assert top == MARKERS[question], (question, top)
        assert "Warning" not in done.stderr, done.stderr
        if "Building the search index" in done.stderr:
            outcomes["ask had to build"] += 1  # the kill fell between the two renames of a swap
    print(f"\nSIGKILL trials (shortest rebuild {shortest:.2f} s): {dict(outcomes)}")
    home = index_home(cache)
    assert len([p for p in home.iterdir() if not p.name.startswith(".")]) == 1
    # A killed build's helper process may still be finishing its segment (it
    # stops at its next check); its folder is only stale once it is done.
    _wait_for_processes_of(cache)
    # Killed builds leave their folders; once stale, the next build removes them.
    leftovers = [p for p in home.iterdir() if p.name.startswith(".") and p.name not in (STAMPS_FILE, PARSED_DIR)]
    old = time.time() - STALE_SECONDS - 60
    for path in leftovers:
        os.utime(path, (old, old))
    subprocess.run(command(synthetic, "index", "--rebuild"), check=True, capture_output=True, env=env, timeout=300)
    assert leftovers and not any(p.exists() for p in leftovers)  # (this rebuild's own retired index stays a while)


def test_sigkill_of_an_asker_building_the_index(tmp_path: Path):
    """An `ask` killed while it builds the index on first use leaves nothing that breaks the next one."""
    cache = tmp_path / "cache"
    corpus = write_synthetic_corpus(tmp_path / "corpus", entries=300)
    process = subprocess.Popen(command(corpus, "ask", "quillhorn"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=rulebot_env(cache))
    assert process.stderr is not None
    process.stderr.readline()  # "Building the search index…": it is writing now
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stderr.close()
    done, top = ask_top(corpus, cache, "quillhorn")
    assert done.returncode == 0 and top == "vo-quillhorn", done.stderr


# -- damaged files ---------------------------------------------------------------------

def _flip(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _zero_page(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    start = rng.randrange(max(1, len(data) - 4096))
    data[start:start + 4096] = bytes(len(data[start:start + 4096]))
    path.write_bytes(bytes(data))


DAMAGE = {
    # same size: only the checksums see these (sizes and entry count stay right)
    "segment-bit-flip": (".seg", _flip),
    "segment-zeroed-page": (".seg", _zero_page),  # what a crash leaves of a file never fsynced
    "toc-bit-flip": (".toc", _flip),
    # the table of contents (a pickle) rather than the segment
    "toc-truncated": (".toc", lambda p, rng: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])),
    "toc-zeroed": (".toc", lambda p, rng: p.write_bytes(bytes(p.stat().st_size))),
    "toc-deleted": (".toc", lambda p, rng: p.unlink()),
    "segment-replaced-by-folder": (".seg", lambda p, rng: (p.unlink(), p.mkdir())),
    "extra-segment": (".seg", lambda p, rng: shutil.copy(p, p.with_name("MAIN_intruder.seg"))),
}


class TestDamage:
    @pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # Whoosh leaves damaged files to the GC
    @pytest.mark.parametrize("damage", list(DAMAGE))
    def test_damage_is_detected_and_rebuilt(self, fresh_cache: Path, damage: str):
        """Damage that tests/test_index.py does not make is detected on opening, rebuilt with a warning, and answers stay right."""
        suffix, make = DAMAGE[damage]
        folder = open_index([MINIMAL]).path
        victim = max((p for p in folder.iterdir() if p.suffix == suffix), key=lambda p: p.stat().st_size)
        make(victim, random.Random(f"{SEED}-{damage}"))
        warnings: list[str] = []
        again = open_index([MINIMAL], warn=warnings.append)
        if damage == "extra-segment":  # not part of the index: harmless, and nothing to rebuild
            assert not again.built and warnings == []
        else:
            assert again.built and warnings and "damaged" in warnings[0], warnings
        with Searcher(again) as searcher:
            assert searcher.ask("lantern keeper").results[0].id == "lh-lantern-keeper"

    @pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
    def test_random_damage_never_reaches_a_search(self, fresh_cache: Path, tmp_path: Path):
        """40 random bit flips and zeroed pages over every index file: each is rebuilt, and every answer is right."""
        rng = random.Random(SEED)
        pristine = open_index([MINIMAL]).path
        keep = tmp_path / "pristine"
        shutil.copytree(pristine, keep)
        outcomes: Counter[str] = Counter()
        for _ in range(40):
            shutil.rmtree(pristine)
            shutil.copytree(keep, pristine)
            # (the record of the last verification only spares checking again: see test_a_verified_index_...)
            victim = rng.choice([p for p in pristine.iterdir() if p.stat().st_size and p.name not in (META_FILE, VERIFIED_FILE)])
            rng.choice([_flip, _zero_page])(victim, rng)
            again = open_index([MINIMAL])
            outcomes["rebuilt" if again.built else "used"] += 1
            with Searcher(again) as searcher:
                assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"
                assert searcher.ask("whirlpool").results[0].id == "lh-tides-whirlpool"
        assert outcomes == {"rebuilt": 40}

    def test_old_metadata_without_checksums_is_rebuilt(self, fresh_cache: Path):
        """An index whose metadata lacks checksums (as written before they existed) is rebuilt, not trusted."""
        folder = open_index([MINIMAL]).path
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        del meta["sha256"]
        (folder / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
        warnings: list[str] = []
        assert open_index([MINIMAL], warn=warnings.append).built
        assert "no checksums" in warnings[0]

    def test_file_in_the_index_place(self, fresh_cache: Path):
        """A file where the index folder should be is replaced, not worked around in memory for ever."""
        opened = open_index([MINIMAL])
        shutil.rmtree(opened.path)
        opened.path.write_text("not an index")
        warnings: list[str] = []
        again = open_index([MINIMAL], warn=warnings.append)
        assert again.path == opened.path and again.path.is_dir()
        assert "not a folder" in warnings[0]
        assert open_index([MINIMAL]).built is False

    def test_stale_leftovers_are_pruned_files_too(self, fresh_cache: Path):
        """Leftover build folders and stray files are removed once stale; fresh ones are kept."""
        opened = open_index([MINIMAL])
        home = opened.path.parent
        stale_dir, stale_file, fresh_dir = home / ".build-dead", home / ".old-file", home / ".build-running"
        stale_dir.mkdir()
        stale_file.write_text("x")
        fresh_dir.mkdir()
        old = time.time() - STALE_SECONDS - 60
        for path in (stale_dir, stale_file):
            os.utime(path, (old, old))
        open_index([MINIMAL], rebuild=True)
        assert not stale_dir.exists() and not stale_file.exists()
        assert fresh_dir.is_dir() and opened.path.is_dir()


# -- a cache that cannot be written ---------------------------------------------------------

def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class TestUnwritableCache:
    def test_full_disk_before_the_build(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
        """No space for the build folder: answers from memory, with a warning."""
        monkeypatch.setattr(tempfile, "mkdtemp", _enospc)
        warnings: list[str] = []
        opened = open_index([MINIMAL], warn=warnings.append)
        assert opened.path is None and "No space left on device" in warnings[0] and "in-memory" in warnings[0]
        with Searcher(opened) as searcher:
            assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"

    @pytest.mark.parametrize("when", ["segment", "metadata", "rename"])
    def test_full_disk_during_the_build(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, when: str):
        """The disk fills while the segment, the metadata or the swap is written: memory, a warning, no leftovers."""
        from whoosh.filedb.filestore import FileStorage

        if when == "segment":
            real = FileStorage.create_file

            def create_file(self, name, *args, **kwargs):
                if name.endswith(".seg"):
                    _enospc()
                return real(self, name, *args, **kwargs)

            monkeypatch.setattr(FileStorage, "create_file", create_file)
        elif when == "metadata":
            monkeypatch.setattr(sealed, "write_json", _enospc)
        else:
            monkeypatch.setattr(Path, "rename", _enospc)
        warnings: list[str] = []
        opened = open_index([MINIMAL], warn=warnings.append)
        assert opened.path is None and "No space left on device" in warnings[0]
        with Searcher(opened) as searcher:
            assert searcher.ask("lantern keeper").results[0].id == "lh-lantern-keeper"
        (home,) = (fresh_cache / "index").iterdir()
        assert [p for p in home.iterdir() if p.name not in (STAMPS_FILE, PARSED_DIR)] == []  # the failed build folder is gone

    def test_in_memory_build_writes_no_file(self, fresh_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """The in-memory fallback keeps Whoosh's scratch files in memory too, not in the (full) temp folder."""
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        monkeypatch.setenv("RULEBOT_CACHE_DIR", str(blocker / "cache"))  # works as root too
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-temp-folder"))
        opened = open_index([MINIMAL])
        assert opened.path is None
        assert not (tmp_path / "no-such-temp-folder").exists()
        with Searcher(opened) as searcher:
            assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"

    def test_up_to_date_index_needs_no_write(self, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
        """With an up-to-date index, a cache that has become read-only (or full) is not even noticed."""
        open_index([MINIMAL])
        monkeypatch.setattr(tempfile, "mkdtemp", _enospc)
        monkeypatch.setattr(Path, "mkdir", _enospc)
        monkeypatch.setattr(os, "replace", _enospc)
        warnings: list[str] = []
        opened = open_index([MINIMAL], warn=warnings.append)
        assert opened.path is not None and not opened.built and warnings == []

    def test_file_size_limit_in_a_real_process(self, tmp_path: Path):
        """`rulebot ask` whose writes fail past 64 KiB (RLIMIT_FSIZE, which binds root too) answers with a warning."""

        def limit() -> None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failing write, not a killed process
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

        env = rulebot_env(tmp_path / "cache")
        done = subprocess.run(
            [sys.executable, "-m", "rulebot", "ask", "--json", "chamurky tie"],
            capture_output=True, text=True, env=env, timeout=120, preexec_fn=limit,
        )
        assert done.returncode == 0, done.stderr
        assert "Warning: cannot write the index" in done.stderr and "File too large" in done.stderr
        assert json.loads(done.stdout)["results"]
        assert "Traceback" not in done.stderr


# -- concurrency ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_concurrent_asks_during_repeated_rebuilds(tmp_path: Path):
    """8 `rulebot ask` processes asking over and over while another process rebuilds 5 times: no failure, no wrong answer."""
    corpus = tmp_path / "corpus"
    shutil.copytree(shipped_corpus_dir(), corpus)  # a snapshot: the expected answers hold for the whole run
    cache = tmp_path / "cache"
    questions: dict[str, str | None] = {"chamurky tie": None, "how many coins can i keep": None, "combien d'actions par tour": None}
    for question in questions:  # the expected answers, from a quiet index
        done, questions[question] = ask_top(corpus, cache, question)
        assert done.returncode == 0 and questions[question], done.stderr
    stop = threading.Event()
    results: list[tuple[str, int, str | None, str]] = []
    rebuilds: list[subprocess.CompletedProcess] = []

    def rebuilder() -> None:
        try:
            for _ in range(5):
                rebuilds.append(subprocess.run(command(corpus, "index", "--rebuild"), capture_output=True, text=True,
                                               env=rulebot_env(cache), timeout=300))
        finally:
            stop.set()

    def asker(number: int) -> None:
        rng = random.Random(f"{SEED}-{number}")
        while not stop.is_set():
            question = rng.choice(list(questions))
            # Niced and paced, so that on two cores the rebuilds still get done in seconds.
            done, top = ask_top(corpus, cache, question, nice=5)
            results.append((question, done.returncode, top, done.stderr))
            stop.wait(rng.uniform(0, 0.5))

    threads = [threading.Thread(target=rebuilder)] + [threading.Thread(target=asker, args=(n,)) for n in range(8)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failures = [r for r in results if r[1] != 0]
    wrong = [r for r in results if r[1] == 0 and r[2] != questions[r[0]]]
    print(f"\nconcurrency: {len(results)} asks during 5 rebuilds in {time.monotonic() - started:.1f} s; "
          f"{len(failures)} failed, {len(wrong)} wrong, {sum('Warning' in r[3] for r in results)} warned, "
          f"{sum('Building the search index' in r[3] for r in results)} built an index themselves")
    assert [r.returncode for r in rebuilds] == [0] * 5, [r.stderr for r in rebuilds]
    assert failures == [] and wrong == []
    assert [r[3] for r in results if "Warning" in r[3]] == []
    assert len(results) >= 8


def test_rebuild_swapped_in_during_verification_is_not_damage(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
    """A reader checking the index while another process swaps a rebuild in uses the new one, without a 'damaged' warning."""
    folder = open_index([MINIMAL]).path
    (folder / VERIFIED_FILE).unlink()  # so that the checksums are verified, file by file
    real = sealed.sha256

    def racing(path: Path) -> str:
        monkeypatch.setattr(sealed, "sha256", real)
        open_index([MINIMAL], rebuild=True).index.close()  # the other process, between reading the metadata and the files
        return real(path)

    monkeypatch.setattr(sealed, "sha256", racing)
    monkeypatch.setattr(index_module, "IN_MEMORY_BYTES", 0)  # read from disk, checked with _sha256
    warnings: list[str] = []
    opened = open_index([MINIMAL], warn=warnings.append)
    assert warnings == [] and not opened.built
    assert sealed.sha256 is real  # the race did happen
    with Searcher(opened) as searcher:
        assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"


@pytest.mark.parametrize("in_memory", [True, False])
def test_a_verified_index_is_checked_again_only_when_a_file_changed(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, in_memory: bool):
    """Checksums are verified once; after that, a file is checked again only when its stamp changed, even if its size and modification time are put back."""
    if not in_memory:
        monkeypatch.setattr(index_module, "IN_MEMORY_BYTES", 0)
    def reopened(**options) -> OpenIndex:
        opened = open_index([MINIMAL], **options)
        opened.index.close()
        return opened

    folder = reopened().path
    hashed: list[str] = []
    real_file, real_bytes = sealed.sha256, sealed.sha256_of
    monkeypatch.setattr(sealed, "sha256", lambda path: hashed.append(path.name) or real_file(path))
    monkeypatch.setattr(sealed, "sha256_of", lambda data: hashed.append(len(data)) or real_bytes(data))
    assert not reopened().built and hashed == []

    (folder / VERIFIED_FILE).write_text("{not json", encoding="utf-8")  # a lost record costs one verification, no rebuild
    assert not reopened().built and hashed
    hashed.clear()
    assert not reopened().built and hashed == []  # recorded again

    segment = max(folder.glob("*.seg"), key=lambda p: p.stat().st_size)
    before = segment.stat()
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0x10
    segment.write_bytes(bytes(data))
    os.utime(segment, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same modification time
    warnings: list[str] = []
    assert reopened(warn=warnings.append).built and "damaged" in warnings[0]
