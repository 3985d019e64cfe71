"""The `rulebot ask` examples of the README and of docs/ answer what they promise; the README gives the quick test command."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from conftest import docs_text, sh_lines

README = Path(__file__).resolve().parent.parent / "README.md"

PROMISED = {
    # example as written -> the entries its answer must start with
    'rulebot ask "can i trash assassination mission"': ["dune-assassination-mission"],
    "rulebot ask chamurky tie": ["dune-chaumurky"],
    'rulebot ask --game catalyst "can i keep more than 8 coins"': ["catalyst-coin-limit"],
    "rulebot ask \"molthar combien d'actions par tour\"": ["molthar-three-actions"],
    'rulebot ask --json --limit 5 "pearl conversion"': ["arcana-pi-pearl-conversion"],
    'rulebot ask -g res-arcana "how many monuments with 3 players with perlae imperii"': ["arcana-pi-setup-table"],
    'echo "who wins a tie" | rulebot ask -': None,  # several games: see test_several_games
    'rulebot ask --with perlae-imperii "how many points to win"': ["arcana-pi-victory-check", "arcana-victory-check"],
    'rulebot ask --game res-arcana --with base "how many points to win"': ["arcana-victory-check"],
    'rulebot ask --json "chaumurky tie" | jq .confident': ["dune-chaumurky"],
    'rulebot ask "combien de cartes en main à la fin du tour"': ["molthar-hand-limit", "molthar-end-of-turn"],
    'rulebot ask --lang en "combien de cartes en main"': ["molthar-hand-limit"],
    'rulebot ask --lang fr "molthar hand limit"': ["molthar-hand-limit"],
}
NOT_RUN_HERE = {
    # examples that need something the test does not have: a shell variable, a folder of the reader's, a game they add
    "printf '%s' \"$QUESTION\" | rulebot ask -",
    "rulebot --corpus my-corpus ask …",
    'rulebot --corpus my-table ask --official-only "chaumurky tie"',
    'rulebot ask "what does a focus token do"',
    'pip install . && rulebot ask "can i trash assassination mission"',
}


def examples() -> list[str]:
    """Every line of the shell blocks of the README and docs/ that runs `rulebot ... ask`, without its comment."""
    return [line for line in sh_lines(docs_text()) if re.search(r"\brulebot\b.*\bask\b", line)]


def test_every_example_is_known():
    """Each `ask` example of the docs is either checked here or said to need what the test lacks, and none is lost."""
    unknown = [e for e in examples() if e not in PROMISED and e not in NOT_RUN_HERE]
    assert not unknown, f"examples of the docs this test does not know: {unknown}"
    missing = [e for e in [*PROMISED, *NOT_RUN_HERE] if e not in examples()]
    assert not missing, f"examples this test knows that the docs no longer give: {missing}"


def test_readme_gives_the_full_and_the_quick_test_commands():
    """The README's full test command (the one .ci/run runs) and the quick subset beside it."""
    lines = sh_lines(README.read_text(encoding="utf-8"))
    assert 'pip install -e ".[test]" && python -m pytest' in lines
    assert 'python -m pytest -m "not browser and not slow"' in lines


def arguments(example: str) -> tuple[list[str], str | None]:
    """The `rulebot` arguments of an example, --json added, and what it reads on standard input."""
    stdin = None
    if "|" in example:
        left, right = (part.strip() for part in example.split("|", 1))
        if left.startswith("echo "):
            stdin, example = shlex.split(left)[1], right
        else:
            example = left
    words = shlex.split(example)[1:]
    return (["ask", "--json", *words[1:]] if "--json" not in words else words), stdin


@pytest.mark.parametrize("example", [e for e, promised in PROMISED.items() if promised])
def test_example_answers_what_it_promises(run_cli, example: str):
    """The example's answer starts with the entries it promises (and stands by it)."""
    args, stdin = arguments(example)
    result = run_cli(*args, input=stdin)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    promised = PROMISED[example]
    assert [r["id"] for r in answer["results"][: len(promised)]] == promised
    assert answer["confident"]


def test_several_games(run_cli):
    """"who wins a tie" read from standard input: several games answer, each one's tie-break is given, unsure."""
    answer = json.loads(run_cli("ask", "--json", "-", input="who wins a tie").stdout)
    assert not answer["confident"] and len(answer["games"]) >= 2
    assert all("tie" in r["id"] for r in answer["results"][:2])


# The README's other examples (its `ask` and `setup` ones are run above and in test_setup.py), each with
# what its output must show.
README_RUNS = {
    "rulebot site build public/": "Built ",
    "rulebot check": "OK:",
    'rulebot new --game dune-imperium --kind house-rule --title "Two spice to start" --append': "dune-two-spice-to-start",
}
README_NOT_RUN = {"rulebot site serve"}  # it serves until Ctrl-C: test_cli_scripts.py runs it on the folder built here


def readme_commands() -> list[str]:
    """The README's `rulebot` command lines other than `ask` and `setup`, those joined by `&&` taken apart."""
    commands = [part.strip() for line in sh_lines(README.read_text(encoding="utf-8")) for part in line.split("&&")]
    return [c for c in commands if c.startswith("rulebot ") and c.split()[1] not in ("ask", "setup")]


def test_every_readme_command_is_known():
    """Each of the README's other commands is run here, or said why not."""
    assert sorted(readme_commands()) == sorted([*README_RUNS, *README_NOT_RUN])


@pytest.mark.parametrize("example", README_RUNS)
def test_readme_command_runs(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, example: str):
    """The command runs as written (in a folder of its own, the user's folders the test's) and says what it did."""
    monkeypatch.chdir(tmp_path)
    result = run_cli(*shlex.split(example)[1:])
    assert result.exit_code == 0, result.output
    assert README_RUNS[example] in result.output
