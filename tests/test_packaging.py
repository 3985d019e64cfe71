"""Packaging: one Whoosh, and a wheel that carries the corpus and templates."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_exactly_one_distribution_provides_whoosh():
    """Two Whoosh distributions side by side would overwrite each other's files."""
    providers = importlib.metadata.packages_distributions().get("whoosh", [])
    assert len(set(providers)) == 1, providers
    assert providers[0].lower() == "whoosh-reloaded"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel."""
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return next(out.glob("rulebot-*.whl"))


def test_wheel_carries_corpus_and_templates(wheel: Path):
    """The wheel holds every corpus file and the site templates inside the package."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (ROOT / "corpus").rglob("*"):
        if path.is_file():
            assert f"rulebot/corpus/{path.relative_to(ROOT / 'corpus').as_posix()}" in names
    if (ROOT / "templates").is_dir():
        assert any(n.startswith("rulebot/templates/") for n in names)


def test_wheel_answers_from_its_own_corpus(wheel: Path, tmp_path: Path):
    """Unpacked alone, the wheel's package finds its shipped corpus and answers."""
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"), RULEBOT_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.run(
        [sys.executable, "-m", "rulebot", "ask", "--json", "chaumurky"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["results"][0]["id"] == "dune-chaumurky"
    located = subprocess.run(
        [sys.executable, "-c", "from rulebot.corpus_files import shipped_corpus_dir; print(shipped_corpus_dir())"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )
    assert located.stdout.strip().startswith(str(tmp_path / "site"))
