"""Shared fixtures: an isolated index cache, sample corpora, and the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebot.cli import cli

HERE = Path(__file__).resolve().parent
CORPORA = HERE / "corpora"
MINIMAL = CORPORA / "minimal"


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test uses a cache of its own run, never the user's."""
    cache = tmp_path_factory.getbasetemp() / "cache"
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(cache))
    monkeypatch.delenv("RULEBOT_CORPUS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path_factory.getbasetemp() / "config"))
    # Each test's own: a user corpus folder made by one test must not join the corpora of the next.
    monkeypatch.setenv("RULEBOT_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    return cache


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache for tests about the index lifecycle."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def minimal_copy(tmp_path: Path) -> Path:
    """A writable copy of the minimal test corpus."""
    target = tmp_path / "corpus"
    shutil.copytree(MINIMAL, target)
    return target


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process (click's runner); returns the Result."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


def rulebot_process(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run `python -m rulebot ARGS` as a real process."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rulebot", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def write_corpus(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write a corpus from {relative path: content}; returns its folder."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root
