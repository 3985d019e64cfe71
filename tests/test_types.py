"""The whole package type-checks strictly: mypy, with the configuration of pyproject.toml ([tool.mypy]), finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_passes(tmp_path: Path):
    """mypy --strict on the files pyproject.toml names: the whole package, no module left out or silenced."""
    pytest.importorskip("mypy", reason="mypy is not installed (it comes with the test extras: pip install -e '.[test]')")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "mypy")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_checks_the_whole_package():
    """No module of rulebot is left out of the strict check, nor has its errors silenced or ignored."""
    import tomllib

    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["files"] == ["rulebot"]
    assert mypy["strict"] is True
    for override in mypy.get("overrides", []):
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        ours = [m for m in modules if m == "rulebot" or m.startswith("rulebot.")]
        assert not ours, f"{ours}: an override of mypy's settings for rulebot's own modules ({override})"


def test_stored_payload_adds_what_outputs_leave_out():
    """The index's payload type (StoredEntry) is the entry's JSON and the keys that `ask --json` drops."""
    from rulebot.index.payload import EntryJSON, StoredEntry
    from rulebot.search.answer import INTERNAL_KEYS

    assert set(StoredEntry.__annotations__) - set(EntryJSON.__annotations__) == set(INTERNAL_KEYS)
