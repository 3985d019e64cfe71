"""`rulebot check` validates a game's setup.toml, each problem at FILE:LINE."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import rulebot_process

VALID = """\
players = [2, 3, 4]

[[steps]]
id = "docks"
order = 10
entry = "lh-setup"
who = "table"
text = "Lay out {docks} docks in a ring."
values.docks = { 2 = 3, 3 = 4, 4 = "5 (all of them)" }

[[steps]]
id = "shells"
order = 20
entry = "lh-setup"
who = "each player"
text = "Each player takes 2 shells."

[[steps]]
id = "first-player"
order = 30
entry = "lh-setup"
text = "Choose the first player."
open = "The rulebook does not say how."

[[expansions]]
expansion = "deep-tides"
players = [2, 3, 4, 5]

[[expansions.steps]]
action = "replace"
step = "docks"
entry = "lh-tides-winning"
text = "Lay out {docks} docks and the whirlpool."
values.docks = { 2 = 4, 3 = 5, 4 = 6, 5 = 7 }

[[expansions.steps]]
action = "add"
step = "whirlpool"
order = 15
entry = "lh-tides-whirlpool"
text = "Put the whirlpool in the middle of the ring."

[[expansions.steps]]
action = "remove"
step = "shells"
"""


def check(corpus: Path, setup: str) -> tuple[int, list[str]]:
    """Write setup.toml into the corpus's game; `rulebot check`'s exit code and its FILE:LINE lines, the path made relative."""
    path = corpus / "lantern-harbor" / "setup.toml"
    path.write_text(setup, encoding="utf-8")
    done = rulebot_process("--no-shipped", "--corpus", str(corpus), "check")
    lines = [line.replace(str(path), "setup.toml") for line in (done.stdout + done.stderr).splitlines() if str(path) in line]
    return done.returncode, lines


def test_a_valid_setup_passes_and_makes_checklists(minimal_copy: Path, run_cli):
    """A valid setup.toml passes check, and its checklists follow it: values per count, an expansion's add, replace and remove."""
    assert check(minimal_copy, VALID) == (0, [])
    corpus = ("--no-shipped", "--corpus", str(minimal_copy))
    base = json.loads(run_cli(*corpus, "setup", "lantern-harbor", "-p", "3", "--with", "base", "--json").stdout)
    assert [s["text"] for s in base["steps"]] == ["Lay out 4 docks in a ring.", "Each player takes 2 shells.", "Choose the first player."]
    tides = json.loads(run_cli(*corpus, "setup", "lantern-harbor", "-p", "5", "--with", "deep-tides", "--json").stdout)
    assert [(s["id"], s["change"]) for s in tides["steps"]] == [("docks", "replace"), ("whirlpool", "add"), ("first-player", None)]
    assert tides["steps"][0]["text"] == "Lay out 7 docks and the whirlpool."


BROKEN = [
    # (what is changed in VALID, the line and message check must print)
    (
        ('values.docks = { 2 = 3, 3 = 4, 4 = "5 (all of them)" }', "values.docks = { 2 = 3, 3 = 4 }"),
        "setup.toml:9: values.docks of step 'docks' has no value for 4 players, which the game supports",
    ),
    (
        ("values.docks = { 2 = 4, 3 = 5, 4 = 6, 5 = 7 }", "values.docks = { 2 = 4, 3 = 5, 4 = 6 }"),
        "setup.toml:34: values.docks of step 'docks' has no value for 5 players, which the game supports",
    ),
    (
        ('action = "replace"\nstep = "docks"', 'action = "replace"\nstep = "dock"'),
        "setup.toml:31: replaces step 'dock', which the base game does not have (its steps: docks, shells, first-player)",
    ),
    (
        ('action = "remove"\nstep = "shells"', 'action = "remove"\nstep = "shell"'),
        "setup.toml:45: removes step 'shell', which the base game does not have (its steps: docks, shells, first-player)",
    ),
    (
        ('id = "shells"\norder = 20', 'id = "shells"\norder = 10'),
        "setup.toml:13: order 10 of step 'shells' is the place of step 'docks' too",
    ),
    (
        ('step = "whirlpool"\norder = 15', 'step = "whirlpool"\norder = 30'),
        "setup.toml:39: order 30 of step 'whirlpool' is the place of step 'first-player' too",
    ),
    (
        ('id = "shells"', 'id = "docks"'),
        "setup.toml:12: step 'docks' is given twice",
    ),
    (
        ('entry = "lh-tides-whirlpool"', 'entry = "lh-whirlpool"'),
        "setup.toml:40: entry: unknown entry id 'lh-whirlpool'",
    ),
    (
        ('expansion = "deep-tides"', 'expansion = "shallow-tides"'),
        "setup.toml:26: unknown expansion 'shallow-tides' of lantern-harbor (known: deep-tides)",
    ),
    (
        ('open = "The rulebook does not say how."', 'open = "The rulebook does not say how."\nvalues.x = { 2 = 1 }'),
        "setup.toml:23: step 'first-player' is open (its numbers are not in the sources): it gives no values",
    ),
    (
        ("Each player takes 2 shells.", "Each player takes {shells} shells."),
        "setup.toml:16: {shells} in the text of step 'shells' has no values.shells",
    ),
    (
        ('step = "whirlpool"\norder = 15', 'step = "whirlpool"'),
        "setup.toml:36: missing required key 'expansions[0].steps[1].order'",
    ),
    (
        ("players = [2, 3, 4]\n", "players = 4\n"),
        "setup.toml:1: players must be a list of player counts (whole numbers, each once)",
    ),
    (
        ('values.docks = { 2 = 3, 3 = 4, 4 = "5 (all of them)" }', 'values.docks = { 2 = 3, 3 = 4, 4 = "5 (all of them)" }\ntext-fr = "Disposez les quais."'),
        "setup.toml:10: steps[0].text-fr must hold the {name}s of text ({docks})",
    ),
    (
        ('text = "Each player takes 2 shells."', 'text = "Each player takes 2 shells."\ntext-en = "Two shells each."'),
        "setup.toml:17: steps[1].text-en: en is the entries' own language: that text is `text`",
    ),
    (
        ('text = "Each player takes 2 shells."', 'text = "Each player takes 2 shells."\ntext-french = "Deux coquillages."'),
        "setup.toml:17: unknown key 'steps[1].text-french' (known: also, entry, id, open, order, players, text, text-LANG, values, who)",
    ),
]


@pytest.mark.parametrize("change, expected", BROKEN, ids=lambda v: v.split(": ", 1)[-1][:40] if isinstance(v, str) else None)
def test_a_broken_setup_is_reported_at_its_line(minimal_copy: Path, change: tuple[str, str], expected: str):
    """Each problem of a setup.toml is one FILE:LINE line of `rulebot check`, which then fails (exit 1)."""
    old, new = change
    assert old in VALID
    code, lines = check(minimal_copy, VALID.replace(old, new, 1))
    assert code == 1
    assert expected in lines, lines


def test_a_broken_setup_is_left_out(minimal_copy: Path, run_cli):
    """A setup.toml with problems gives no checklist; the rest of the corpus still answers."""
    (minimal_copy / "lantern-harbor" / "setup.toml").write_text(VALID.replace('id = "shells"', 'id = "docks"'), encoding="utf-8")
    corpus = ("--no-shipped", "--corpus", str(minimal_copy))
    result = run_cli(*corpus, "setup", "lantern-harbor", "-p", "3")
    assert result.exit_code == 2 and "no setup checklist for Lantern Harbor" in result.output
    assert run_cli(*corpus, "ask", "ferry gull").exit_code == 0


def test_a_house_rules_folder_has_no_setup(tmp_path: Path, minimal_copy: Path):
    """A house-rules folder cannot hold a setup.toml: the setup is the game's own."""
    house = tmp_path / "house" / "lantern-harbor"
    house.mkdir(parents=True)
    (house / "game.toml").write_text('extends = "lantern-harbor"\n\n[[sources]]\nid = "our-table"\ntitle = "Ours"\n', encoding="utf-8")
    (house / "our-table.md").write_text((minimal_copy / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8").split("## lh-winning")[0].replace("lh-setup", "lh-our-setup"), encoding="utf-8")
    (house / "setup.toml").write_text(VALID, encoding="utf-8")
    done = rulebot_process("--no-shipped", "--corpus", str(minimal_copy), "--corpus", str(tmp_path / "house"), "check")
    assert done.returncode == 1
    assert f"{house / 'setup.toml'}:" in done.stdout + done.stderr


UNCOVERED = VALID.replace('expansion = "deep-tides"\nplayers = [2, 3, 4, 5]\n', '''expansion = "deep-tides"
uncovered = "No source covers Deep Tides: its player counts are not given."
[expansions.open.shells]
text = "Each player takes their shells."
open = "how many shells Deep Tides gives"
''').replace('values.docks = { 2 = 4, 3 = 5, 4 = 6, 5 = 7 }', 'values.docks = { 2 = 4, 3 = 5, 4 = 6 }').replace(
    '[[expansions.steps]]\naction = "remove"\nstep = "shells"\n', '')


def test_an_uncovered_expansion_takes_the_covered_counts(minimal_copy: Path, run_cli):
    """An expansion `uncovered` by the sources has the counts of the setups they cover (here the base game's,
    2 to 4), never any count; a step it opens has its own text, without a number."""
    assert check(minimal_copy, UNCOVERED) == (0, [])
    corpus = ("--no-shipped", "--corpus", str(minimal_copy))
    refused = run_cli(*corpus, "setup", "lantern-harbor", "-p", "6", "--with", "deep-tides")
    assert refused.exit_code == 2
    assert refused.output.splitlines()[-1] == (
        "Error: Lantern Harbor with Deep Tides is played by 2 to 4 players (the sources do not give Deep Tides's own"
        " player counts: these are those of the setups they cover), not 6"
    )
    result = run_cli(*corpus, "setup", "lantern-harbor", "-p", "4", "--with", "deep-tides", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["supported"] == [2, 3, 4]
    assert printed["complete"] is False and printed["note"] == "No source covers Deep Tides: its player counts are not given."
    steps = {s["id"]: s for s in printed["steps"]}
    assert steps["docks"]["open"] is None and "6" in steps["docks"]["text"]
    assert steps["shells"]["text"] == "Each player takes their shells." and steps["shells"]["open"] == "how many shells Deep Tides gives"


def test_an_uncovered_expansions_mistakes_are_reported(minimal_copy: Path):
    """An `open` step that is not there, and player counts given for an expansion the sources do not cover."""
    broken = UNCOVERED.replace("[expansions.open.shells]", "players = [2, 3]\n[expansions.open.sails]")
    code, lines = check(minimal_copy, broken)
    assert code == 1
    at = broken.splitlines().index('uncovered = "No source covers Deep Tides: its player counts are not given."') + 1
    assert any(line.startswith(f"setup.toml:{at + 1}: ") and "gives no player counts" in line for line in lines), lines
    assert any("open.sails: no step 'sails'" in line for line in lines), lines
