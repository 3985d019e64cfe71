"""The package's layers import only downward, and only the command line and the index touch click and Whoosh.

The contracts are in pyproject.toml ([tool.importlinter]); import-linter
reads every import of the package, those inside functions too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    """Every contract of pyproject.toml holds: a cycle, an upward import or click outside the CLI fails here."""
    from importlinter.cli import lint_imports

    monkeypatch.chdir(ROOT)
    result = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    output = capsys.readouterr().out
    assert result == 0, output
    assert "0 broken" in output


def test_every_module_is_in_a_layer():
    """Each module of the package belongs to a layer of the contract, so none escapes the check."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c["layers"] for c in config["contracts"] if c["type"] == "layers")
    named = {name.strip() for layer in layers for name in layer.split("|")}
    package = ROOT / "rulebot"
    tops = {f"rulebot.{p.stem if p.is_file() else p.name}" for p in package.iterdir() if (p.suffix == ".py" or (p / "__init__.py").is_file())}
    tops -= {"rulebot.__init__", "rulebot.__main__"}
    assert tops <= named, f"modules in no layer: {sorted(tops - named)}"
