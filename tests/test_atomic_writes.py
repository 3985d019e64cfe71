"""Every write a curator or a user makes is whole or not at all: a full disk, a killed command or two
commands at once leave each file as it was or as the command makes it, never part of it, and nothing beside.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL, fill_disk, write_corpus

from rulebot import atomic
from rulebot.corpus.files import user_corpus_dir

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
def corpus(tmp_path: Path) -> Path:
    """A copy of the minimal corpus, the one a curator changes."""
    folder = tmp_path / "corpus"
    shutil.copytree(MINIMAL, folder)
    return folder


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


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        RULEBOT_CACHE_DIR=str(tmp_path / "cache"),
        RULEBOT_CONFIG_DIR=str(tmp_path / "config"),
        RULEBOT_DATA_DIR=str(tmp_path / "data"),
    )


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see a command wait for its turn")
class TestTwoAtOnce:
    def test_two_imports_of_the_same_document(self, corpus: Path, tmp_path: Path):
        """Two imports of one document at once, both drafted before either writes: the second finds the
        first's drafts there and writes nothing; every entry is there once."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        source = document(tmp_path)
        args = [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), "import", str(source), "-g", "lantern-harbor", "-s", "rulebook", "--append"]
        with atomic.locked(rules):
            lock = atomic.lock_path(rules)
            processes = [subprocess.Popen(args, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
            while not all(_open_by(p.pid, lock) or p.poll() is not None for p in processes):
                os.sched_yield()
        results = [p.communicate(timeout=120) for p in processes]
        assert [p.returncode for p in processes] == [0, 0], results
        messages = sorted(err for _, err in results)
        assert "written to" in messages[-1] and "nothing written" in messages[0]
        headings = [line for line in rules.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
        assert len(headings) == len(set(headings))
        assert sum(h.startswith("## lh-rule-") for h in headings) == 40
        assert sorted(p.name for p in rules.parent.iterdir() if p.name.startswith(".")) == []

    def test_two_new_entries_with_one_id(self, run_cli, corpus: Path, tmp_path: Path):
        """Two `new --append` of one title at once: the one that comes second is refused, never a repeated id."""
        rules = corpus / "lantern-harbor" / "rulebook.md"
        args = [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(corpus), "new", "-g", "lantern-harbor", "-k", "faq", "-t", "Do gulls swim?", "--append"]
        with atomic.locked(rules):
            lock = atomic.lock_path(rules)
            processes = [subprocess.Popen(args, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
            while not all(_open_by(p.pid, lock) or p.poll() is not None for p in processes):
                os.sched_yield()
        results = [p.communicate(timeout=120) for p in processes]
        assert sorted(p.returncode for p in processes) == [0, 2], results
        assert any("has an entry lh-do-gulls-swim already (written meanwhile)" in err for _, err in results)
        assert rules.read_text(encoding="utf-8").count("## lh-do-gulls-swim\n") == 1


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
