"""The code lints clean: ruff, with the rules of pyproject.toml ([tool.ruff]), finds nothing in the package, the tests
and the benchmarks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing(tmp_path: Path):
    pytest.importorskip("ruff", reason="ruff is not installed (it comes with the test extras: pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
