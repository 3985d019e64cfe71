"""The package's layers import only downward, only the command line and the index touch click and Whoosh,
and only the front door (rulebot.answering.Answerer) asks the search.

The contracts are in pyproject.toml ([tool.importlinter]); import-linter
reads every import of the package, those inside functions too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL

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


MAX_MODULE_LINES = 600
"""A module longer than this holds more than one thing: split it by what it holds."""


def rulebot_modules() -> list[Path]:
    return sorted((ROOT / "rulebot").rglob("*.py"))


def test_no_module_is_over_600_lines():
    """Every module of the package has at most MAX_MODULE_LINES lines."""
    lengths = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines()) for path in rulebot_modules()}
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}


def test_no_module_touches_sys_modules():
    """No module of the package reads or changes sys.modules: imports are left to the import system (a
    stand-in module in sys.modules depends on a dependency's private lines, and breaks on its next release)."""
    touching = []
    for path in rulebot_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            named = (
                isinstance(node, ast.Attribute) and node.attr == "modules" and isinstance(node.value, ast.Name) and node.value.id == "sys"
            ) or (isinstance(node, ast.ImportFrom) and node.module == "sys" and any(alias.name == "modules" for alias in node.names))
            if named:
                touching.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    assert touching == []


def test_only_the_front_door_calls_the_search():
    """Every `.ask(...)` of the package is on an Answerer, but the front door's own calls of Searcher.ask
    (rulebot/answering.py): no command, page or API answers around it."""
    front_door = ROOT / "rulebot" / "answering.py"
    strays = []
    for path in rulebot_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "ask"):
                continue
            receiver = node.func.value
            made_here = isinstance(receiver, ast.Call) and ast.unparse(receiver.func) == "Answerer"
            if path != front_door and not (made_here or ast.unparse(receiver).lower().endswith("answerer")):
                strays.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node.func)}")
    assert not strays, f"asking the search around the front door: {strays}"


def test_every_front_end_answers_through_the_front_door(monkeypatch: pytest.MonkeyPatch, run_cli, capsys: pytest.CaptureFixture):
    """`ask` (click's and the quick path), `play` and the Python API: the search is asked by the front door only."""
    from rulebot import Library
    from rulebot.cli.asking import read_line
    from rulebot.cli.quick import answer_quickly
    from rulebot.search.ranking import Searcher

    callers: list[str] = []
    ask = Searcher.ask

    def spy(self: Searcher, *args: object, **options: object) -> object:
        callers.append(sys._getframe(1).f_globals["__name__"])
        return ask(self, *args, **options)

    monkeypatch.setattr(Searcher, "ask", spy)
    toy = ["--no-shipped", "--corpus", str(MINIMAL)]
    assert run_cli(*toy, "ask", "ferry", "gull").exit_code == 0
    line = read_line([*toy, "ask", "ferry", "gull"])
    assert line is not None and answer_quickly(line) == 0
    assert "Ferry Gull" in capsys.readouterr().out
    assert "Ferry Gull" in run_cli(*toy, "play", input="ferry gull\n:quit\n").output
    with Library([MINIMAL], shipped=False) as rules:
        assert rules.ask("ferry gull").confident
    assert len(callers) >= 4 and set(callers) == {"rulebot.answering"}
