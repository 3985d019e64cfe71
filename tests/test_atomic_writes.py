"""Every write a curator or a user makes is whole or not at all: a full disk, a killed command or two
commands at once leave each file as it was or as the command makes it, never part of it, and nothing beside.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import MINIMAL, fill_disk, write_corpus

from rulebot import atomic
from rulebot.corpus.files import user_corpus_dir
from rulebot.errors import WriteError

ROOT = Path(__file__).resolve().parent.parent
NEW_GAME = ("new-game", "skyrail", "--name", "Skyrail Express", "--source", "rules", "--title", "Skyrail rulebook")
CONFIG = """\
# Our table's settings; kept by hand.
lang = "en"  # the children read English

[lantern-harbor]
# we own the first expansion only
with = ["deep-tides"]
"""


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (hidden ones too), by relative path, with its content."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def document(folder: Path, entries: int = 40) -> Path:
    """A rules document drafting `entries` entries."""
    sections = "".join(f"## Rule {n}\n\nA gull on pier {n} may fly to pier {n + 1} once per turn.\n\n" for n in range(entries))
    return write_corpus(folder, {"rules.md": "# Harbour rules\n\n" + sections}) / "rules.md"


@pytest.fixture
def corpus(minimal_copy: Path) -> Path:
    """The copy of the minimal corpus a curator changes (conftest's minimal_copy, under the name these tests give it)."""
    return minimal_copy


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(folder))
    return folder


class TestFullDisk:
    def test_import_append(self, run_cli, corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A full disk while drafts are appended leaves the entries file as it was, says so, and check is still OK."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        before = tree(corpus)
        source = document(tmp_path, 400)
        loaded = run_cli("--no-shipped", "--corpus", str(corpus), "check")
        assert loaded.exit_code == 0
        with monkeypatch.context() as disk:  # undo() would undo the isolating fixture too
            fill_disk(disk, 10_000)
            result = run_cli("--no-shipped", "--corpus", str(corpus), "import", str(source), "-g", "lantern-harbor", "-s", "rulebook", "--append")
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == f"Error: cannot write {rules}: No space left on device; it is as it was"
        assert tree(corpus) == before
        assert run_cli("--no-shipped", "--corpus", str(corpus), "check").exit_code == 0

    def test_new_game(self, run_cli, monkeypatch: pytest.MonkeyPatch):
        """A full disk while a game is started leaves no folder: the retry succeeds, and no command warns."""
        with monkeypatch.context() as disk:  # undo() would undo the isolating fixture too
            fill_disk(disk, 100)
            result = run_cli(*NEW_GAME)
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1].endswith("No space left on device; nothing was written")
        assert [p.name for p in user_corpus_dir().iterdir()] == []
        retry = run_cli(*NEW_GAME)
        assert retry.exit_code == 0, retry.output
        assert sorted(tree(user_corpus_dir())) == ["skyrail/game.toml", "skyrail/rules.md"]
        listed = run_cli("list")
        assert listed.exit_code == 0 and "Warning" not in listed.stderr

    def test_config_set(self, run_cli, config_dir: Path, monkeypatch: pytest.MonkeyPatch):
        """A full disk while the settings are written leaves config.toml as it was, and says so."""
        path = config_dir / "config.toml"
        path.write_text(CONFIG, encoding="utf-8")
        with monkeypatch.context() as disk:  # undo() would undo the isolating fixture too
            fill_disk(disk, 10)
            result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "config", "set", "lang", "fr")
        assert result.exit_code == 2
        assert result.stderr == f"Error: cannot write {path}: No space left on device; it is as it was\n"
        assert path.read_text(encoding="utf-8") == CONFIG
        assert sorted(p.name for p in config_dir.iterdir()) == ["config.toml"]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of its own, 600 KB (a tmpfs, where the tests may mount one: as root, on Linux)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(folder)], capture_output=True).returncode:
        pytest.skip("cannot mount a file system here (the full-disk tests above simulate one)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def fill(disk: Path, room: int) -> None:
    """Fill a file system but for about `room` bytes."""
    (disk / "filler").unlink(missing_ok=True)
    info = os.statvfs(disk)
    (disk / "filler").write_bytes(b"\0" * max(0, info.f_bavail * info.f_frsize - room))


class TestRealFullDisk:
    def test_import_append_and_new_game(self, small_disk: Path, tmp_path: Path):
        """On a real full disk, import --append and new-game fail with exit 2, saying so, and leave every file as it was."""
        corpus = small_disk / "corpus"
        shutil.copytree(MINIMAL, corpus)
        before = tree(corpus)
        source = document(tmp_path, 1500)
        fill(small_disk, 60_000)
        env = _env(tmp_path)
        done = subprocess.run([sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), "import", str(source),
                               "-g", "lantern-harbor", "-s", "rulebook", "--append"], env=env, capture_output=True, text=True)
        assert done.returncode == 2 and done.stderr.rstrip().endswith("No space left on device; it is as it was")
        assert tree(corpus) == before
        fill(small_disk, 0)
        done = subprocess.run([sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), *NEW_GAME], env=env, capture_output=True, text=True)
        assert done.returncode == 2 and done.stderr.rstrip().endswith("No space left on device; nothing was written")
        (small_disk / "filler").unlink()
        assert tree(corpus) == before
        done = subprocess.run([sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), *NEW_GAME], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


class TestAppends:
    def test_an_append_keeps_every_byte_before_it(self, run_cli, corpus: Path):
        """new --append adds after the file's bytes as they were: its line ends (CRLF) are not changed."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        rules.write_bytes(rules.read_bytes().replace(b"\n", b"\r\n"))
        before = rules.read_bytes()
        result = run_cli("--no-shipped", "--corpus", str(corpus), "new", "-g", "lantern-harbor", "-k", "faq", "-t", "Do gulls swim?", "--append")
        assert result.exit_code == 0, result.output
        assert rules.read_bytes().startswith(before) and b"## lh-do-gulls-swim" in rules.read_bytes()

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
    def test_a_fifo_is_refused_without_waiting(self, tmp_path: Path):
        """A FIFO named like the file to change is refused at once, never read (it would wait for a writer)."""
        fifo = tmp_path / "rules.md"
        os.mkfifo(fifo)
        with pytest.raises(WriteError, match=f"cannot read {fifo}: not a regular file; nothing was changed"):
            atomic.update_file(fifo, lambda existing: "x")


    def test_a_file_not_in_utf8_is_refused_at_its_line(self, tmp_path: Path):
        """Bytes that are no UTF-8: refused at their line, as `rulebot check` says it, and the file left as it was."""
        path = tmp_path / "rules.md"
        path.write_bytes(b"# Rules\n\n## x-one\ntitle: \xff\xfe\n")
        with pytest.raises(WriteError, match=f"{path}:4: not valid UTF-8 \\(byte 0xff\\); nothing was changed"):
            atomic.update_file(path, lambda existing: "x")
        assert path.read_bytes() == b"# Rules\n\n## x-one\ntitle: \xff\xfe\n"

class TestConfigKeepsItsLines:
    def test_comments_and_layout_are_kept(self, run_cli, config_dir: Path):
        """config set and unset change their own lines, and keep the user's comments, order and layout."""
        path = config_dir / "config.toml"
        path.write_text(CONFIG, encoding="utf-8")
        toy = ("--no-shipped", "--corpus", str(MINIMAL))
        assert run_cli(*toy, "config", "set", "lang", "fr").exit_code == 0
        assert path.read_text(encoding="utf-8") == CONFIG.replace('lang = "en"', 'lang = "fr"')
        assert run_cli(*toy, "config", "unset", "lantern-harbor.with").exit_code == 0
        assert path.read_text(encoding="utf-8").startswith('# Our table\'s settings; kept by hand.\nlang = "fr"  # the children read English\n')
        assert "lantern-harbor" not in path.read_text(encoding="utf-8")
        assert run_cli(*toy, "config", "set", "lantern-harbor.with", "deep-tides").exit_code == 0
        assert path.read_text(encoding="utf-8").endswith('\n[lantern-harbor]\nwith = ["deep-tides"]\n')
        assert run_cli("config", "get", "lang").stdout == "fr\n"
        assert run_cli("config", "get", "lantern-harbor.with").stdout == "deep-tides\n"

    def test_a_linked_config_file_stays_a_link(self, run_cli, config_dir: Path, tmp_path: Path):
        """A config file that is a symbolic link (to a dotfiles folder, say) is written where it points."""
        kept = tmp_path / "dotfiles" / "rulebot.toml"
        kept.parent.mkdir()
        kept.write_text(CONFIG, encoding="utf-8")
        (config_dir / "config.toml").symlink_to(kept)
        assert run_cli("--no-shipped", "--corpus", str(MINIMAL), "config", "set", "lang", "fr").exit_code == 0
        assert (config_dir / "config.toml").is_symlink()
        assert kept.read_text(encoding="utf-8") == CONFIG.replace('lang = "en"', 'lang = "fr"')


def _open_by(pid: int, path: Path) -> bool:
    """Whether a process has `path` open (Linux's /proc)."""
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def both_waiting(target: Path, args: list[str], tmp_path: Path) -> list[tuple[int, str]]:
    """Start two `rulebot ARGS` that write `target` while its lock is held, let them go once both wait
    for it (or have ended), so that each decides what to write only when its turn comes; their exit
    statuses and standard errors."""
    with atomic.locked(target):
        lock = atomic.lock_path(target)
        command = [sys.executable, "-m", "rulebot", *args]
        processes = [subprocess.Popen(command, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        while not all(_open_by(p.pid, lock) or p.poll() is not None for p in processes):
            os.sched_yield()
    errors = [p.communicate(timeout=120)[1] for p in processes]
    return [(p.returncode, err) for p, err in zip(processes, errors, strict=True)]


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        RULEBOT_CACHE_DIR=str(tmp_path / "cache"),
        RULEBOT_CONFIG_DIR=str(tmp_path / "config"),
        RULEBOT_DATA_DIR=str(tmp_path / "data"),
        PYTHONDONTWRITEBYTECODE="1",  # the only files a command writes are its own
    )


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see a command wait for its turn")
class TestTwoAtOnce:
    def test_two_imports_of_the_same_document(self, corpus: Path, tmp_path: Path):
        """Two imports of one document at once, both drafted before either writes: the second finds the
        first's drafts there and writes nothing; every entry is there once."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        source = document(tmp_path)
        results = both_waiting(rules, ["--no-shipped", "--corpus", str(corpus), "import", str(source), "-g", "lantern-harbor", "-s", "rulebook", "--append"], tmp_path)
        assert [code for code, _ in results] == [0, 0], results
        assert sorted("nothing written" in err for _, err in results) == [False, True]
        headings = [line for line in rules.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
        assert len(headings) == len(set(headings))
        assert sum(h.startswith("## lh-rule-") for h in headings) == 40
        assert sorted(p.name for p in rules.parent.iterdir() if p.name.startswith(".")) == []

    def test_two_new_entries_with_one_id(self, corpus: Path, tmp_path: Path):
        """Two `new --append` of one title at once, both choosing the same id: the one that comes second
        takes the next free id under the lock, never a repeated id."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        results = both_waiting(rules, ["--no-shipped", "--corpus", str(corpus), "new", "-g", "lantern-harbor", "-k", "faq", "-t", "Do gulls swim?", "--append"], tmp_path)
        assert [code for code, _ in results] == [0, 0], results
        assert sorted(err.split()[0] for _, err in results) == ["lh-do-gulls-swim", "lh-do-gulls-swim-2"]
        text = rules.read_text(encoding="utf-8")
        assert text.count("## lh-do-gulls-swim\n") == 1 and text.count("## lh-do-gulls-swim-2\n") == 1


class TestTurns:
    def test_a_writer_waits_a_bounded_time(self, tmp_path: Path):
        """A writer that cannot have its turn within its wait is refused, saying why; the file is not touched."""
        target = tmp_path / "rules.md"
        with atomic.locked(target), pytest.raises(WriteError, match="another rulebot command is writing it; nothing was changed"):
            with atomic.locked(target, wait=0):
                pass
        assert sorted(p.name for p in tmp_path.iterdir()) == []

    def test_a_killed_holder_frees_the_lock(self, tmp_path: Path):
        """The lock of a writer killed while holding it is free at once (the system drops it), and its file removed on the next turn."""
        target = tmp_path / "rules.md"
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys, time; from pathlib import Path; from rulebot import atomic\n"
             f"with atomic.locked(Path({str(target)!r})):\n    print('held', flush=True); time.sleep(600)"],
            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, text=True,
        )
        assert holder.stdout is not None
        with holder.stdout:
            assert holder.stdout.readline() == "held\n"
            holder.kill()
            holder.wait()
        assert atomic.lock_path(target).exists()
        with atomic.locked(target, wait=0):
            pass
        assert sorted(p.name for p in tmp_path.iterdir()) == []


class TestStrays:
    def test_site_build_removes_what_a_killed_build_left(self, run_cli, tmp_path: Path):
        """A build removes the folders a killed build left beside the site (its process gone), and only those."""
        out = tmp_path / "public"
        assert run_cli("--no-shipped", "--corpus", str(MINIMAL), "site", "build", str(out)).exit_code == 0
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
        dead = int(gone.stdout)
        living = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
        try:
            strays = [out.with_name(f".public.{dead}.0badcafe.rulebot-new"), out.with_name(f".public.{dead}.0badcafe.rulebot-old")]
            kept = [out.with_name(f".public.{living.pid}.0badcafe.rulebot-new"), out.with_name(".public.x1y2z3.rulebot-new"),
                    out.with_name(f".other.{dead}.0badcafe.rulebot-new")]
            for folder in strays + kept:
                shutil.copytree(out, folder)
            assert run_cli("--no-shipped", "--corpus", str(MINIMAL), "site", "build", str(out)).exit_code == 0
            assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["public", *(p.name for p in kept)])
        finally:
            living.communicate(b"")

    def test_a_write_removes_a_killed_writers_file(self, run_cli, config_dir: Path):
        """What a killed `config set` left beside config.toml is removed by the next one."""
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
        (config_dir / f".config.toml.{int(gone.stdout)}.0badcafe.rulebot-tmp").write_text("lang = ", encoding="utf-8")
        assert run_cli("--no-shipped", "--corpus", str(MINIMAL), "config", "set", "lang", "fr").exit_code == 0
        assert sorted(p.name for p in config_dir.iterdir()) == ["config.toml"]


KILLS = 20
"""Kills per command at times spread over one whole run of it, from its start to past its end."""
WRITE_KILLS = 10
"""Kills per command in the middle of a write: at bytes spread over the largest file it writes."""


def killed_after(args: list[str], env: dict[str, str], delay: float, file_size: int | None = None) -> int | None:
    """Run `python -m rulebot ARGS`, kill it (SIGKILL) after `delay` seconds unless it is done; its exit status, None when killed.

    With `file_size`, the system kills it (SIGXFSZ) as soon as it writes past that many bytes of any file,
    part of that write landed: a kill in the middle of a write, wherever the write is.
    """

    def limit() -> None:
        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    process = subprocess.Popen(
        [sys.executable, "-m", "rulebot", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit
    )
    try:
        return process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None


def visible(folder: Path) -> dict[str, bytes] | None:
    """What a reader sees of a folder: its files but the hidden ones beside them (a writer's lock, a killed one's temporary); None when missing."""
    if not folder.is_dir():
        return None
    return {name: data for name, data in tree(folder).items() if not any(part.startswith(".") for part in Path(name).parts)}


@pytest.mark.slow
class TestKilled:
    """Each command killed at 20 moments of its run, and 10 times in the middle of writing: what it writes is as
    it was or as it makes it, and the next run leaves nothing beside it. The tally of each is printed (pytest -s)
    for docs/reliability.md."""

    def kill_loop(self, args: list[str], env: dict[str, str], reset: Callable[[], object], seen: Callable[[], object]) -> None:
        reset()
        before = seen()
        started = time.monotonic()
        assert killed_after(args, env, 600) == 0
        duration = time.monotonic() - started  # spreads the kills over a run; no assertion is timed
        after = seen()
        assert after != before
        tally = {"as it was": 0, "complete": 0, "some files complete": 0}
        for kill in range(KILLS):
            reset()
            killed_after(args, env, duration * 1.1 * (kill + 0.5) / KILLS)
            state = seen()
            if None in (before, after, state):  # a folder made whole (new-game): there or not
                assert state in (before, after), f"kill {kill}: part of a write"
            else:  # each file as it was or as the command makes it (a command may write several, each whole)
                for name in {*before, *after, *state}:
                    assert state.get(name) in (before.get(name), after.get(name)), f"kill {kill}: part of a write to {name}"
            tally["as it was" if state == before else "complete" if state == after else "some files complete"] += 1
        largest = max(len(data) for data in (after or {}).values())
        for kill in range(WRITE_KILLS):
            reset()
            assert killed_after(args, env, 600, file_size=largest * kill // WRITE_KILLS + 1) != 0
            state = seen()
            assert state == before, f"killed at byte {largest * kill // WRITE_KILLS + 1} of a write: part of it"
            tally["as it was"] += 1
        reset()
        assert killed_after(args, env, 600) == 0 and seen() == after
        print(f"\n{' '.join(a for a in args[3:] if not a.startswith('/'))}: {KILLS + WRITE_KILLS} kills, {tally}")

    def test_import_append(self, corpus: Path, tmp_path: Path):
        rules = corpus / "lantern-harbor" / "rulebook.md"
        game = corpus / "lantern-harbor" / "game.toml"  # the import names its document there
        originals = {path: path.read_bytes() for path in (rules, game)}
        source = document(tmp_path, 600)
        args = ["--no-shipped", "--corpus", str(corpus), "import", str(source), "-g", "lantern-harbor", "-s", "rulebook", "--append"]

        def reset() -> None:
            for path, data in originals.items():
                path.write_bytes(data)

        self.kill_loop(args, _env(tmp_path), reset, lambda: visible(corpus))
        assert [p.name for p in rules.parent.iterdir() if p.name.startswith(".")] == []

    def test_new_game(self, corpus: Path, tmp_path: Path):
        folder = corpus / "skyrail"
        args = ["--no-shipped", "--corpus", str(corpus), *NEW_GAME]
        self.kill_loop(args, _env(tmp_path), lambda: shutil.rmtree(folder, ignore_errors=True), lambda: visible(folder))
        assert sorted(p.name for p in corpus.iterdir()) == ["lantern-harbor", "skyrail"]

    def test_config_set(self, tmp_path: Path):
        config = tmp_path / "config"
        config.mkdir()
        path = config / "config.toml"
        args = ["--no-shipped", "--corpus", str(MINIMAL), "config", "set", "lang", "fr"]
        self.kill_loop(args, _env(tmp_path), lambda: path.write_text(CONFIG, encoding="utf-8"), lambda: visible(config))
        assert sorted(p.name for p in config.iterdir()) == ["config.toml"]

    def test_site_build(self, corpus: Path, tmp_path: Path):
        out = tmp_path / "sites" / "public"
        env = _env(tmp_path)
        assert killed_after(["--no-shipped", "--corpus", str(MINIMAL), "site", "build", str(out)], env, 600) == 0
        old = tmp_path / "old-site"
        shutil.copytree(out, old)
        rules = corpus / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("title: ", "title: The ", 1), encoding="utf-8")

        def reset() -> None:
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(old, out)

        args = ["--no-shipped", "--corpus", str(corpus), "site", "build", str(out)]
        self.kill_loop(args, env, reset, lambda: visible(out))
        assert sorted(p.name for p in out.parent.iterdir()) == ["public"]


class TestAsOne:
    def test_an_interrupt_takes_effect_once_the_writes_are_made(self, tmp_path: Path):
        """SIGINT received among writes that stand together is held until they are all made, then raised."""
        made = []
        before = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            with atomic.as_one():
                atomic.write_file(tmp_path / "one", "1")
                os.kill(os.getpid(), signal.SIGINT)
                made.append("after the interrupt")
                atomic.write_file(tmp_path / "two", "2")
        assert made and (tmp_path / "one").read_text() == "1" and (tmp_path / "two").read_text() == "2"
        assert signal.getsignal(signal.SIGINT) is before  # (the handler as it was)

    def test_outside_the_main_thread_nothing_is_held(self, tmp_path: Path):
        """A thread cannot set a signal handler: the writes are made as they come."""
        done = []
        thread = threading.Thread(target=lambda: done.append(_write_as_one(tmp_path / "t")))
        thread.start()
        thread.join()
        assert done == [True] and (tmp_path / "t").read_text() == "t"


def _write_as_one(path: Path) -> bool:
    with atomic.as_one():
        atomic.write_file(path, "t")
    return True


def test_a_signal_ignored_before_does_not_hide_the_next(tmp_path: Path):
    """SIGINT ignored (a background job) and SIGTERM received while held: SIGTERM still takes effect after."""
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    terminated = []
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda number, frame: terminated.append(number))
    try:
        with atomic.as_one():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
            atomic.write_file(tmp_path / "one", "1")
            assert terminated == []  # (held)
        assert terminated == [signal.SIGTERM]
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
