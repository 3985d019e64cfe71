"""Translation files (`<source-id>.<lang>.md`): read beside their source, checked against the entries they translate."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TOY_GAME_TOML, write_corpus

from rulebot.corpus import load as corpus
from rulebot.corpus.files import shipped_corpus_dir
from rulebot.language.quantities import stated_numbers

GAME_TOML = TOY_GAME_TOML

ENTRY = """\
## toy-hand
title: Hand limit
kind: rule
section: Part 1

Keep at most **5 cards** in hand; discard down to five at the end of your turn.
"""

FRENCH = """\
# Notes

## toy-hand
title: Limite de main

Gardez au plus **5 cartes** en main ; défaussez jusqu'à cinq à la fin de votre tour.
"""


def loaded(tmp_path: Path, files: dict[str, str]):
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY, **files})
    return corpus.check([root])


def problems(tmp_path: Path, files: dict[str, str]) -> list[str]:
    _, found = loaded(tmp_path, files)
    return [f"{Path(p.path).name}:{p.line}: {p.message}" for p in found]


def test_a_translation_is_added_to_its_entry(tmp_path: Path):
    found, problems_found = loaded(tmp_path, {"toy/rules.fr.md": FRENCH})
    assert problems_found == []
    french = found.entries["toy-hand"].translation("fr")
    assert french is not None and french.title == "Limite de main" and "5 cartes" in french.text
    assert french.line == 3 and found.entries["toy-hand"].translation("de") is None


CASES = [
    ("numbers disagree", FRENCH.replace("**5 cartes**", "**6 cartes**").replace("cinq", "six"),
     "rules.fr.md:3: the French text of 'toy-hand' disagrees in numbers with the English one: 5 only in the English text, 6 only in the French one"),
    ("a number word counts", FRENCH.replace("jusqu'à cinq", "jusqu'à quatre"), "rules.fr.md:3: the French text of 'toy-hand' disagrees in numbers"),
    ("unknown id", FRENCH.replace("toy-hand", "toy-nowhere"), "rules.fr.md:3: no entry 'toy-nowhere' in rules.md to translate"),
    ("no title", FRENCH.replace("title: Limite de main\n", ""), "rules.fr.md:3: the French text of 'toy-hand' has no title"),
    ("unknown key", FRENCH.replace("title: Limite de main", "title: Limite de main\nkind: rule"), "rules.fr.md:5: unknown key 'kind' in a translation"),
    ("translated twice", FRENCH + "\n" + FRENCH.replace("# Notes\n", ""), "rules.fr.md:9: 'toy-hand' is translated twice (first at line 3)"),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_wrong_translation_is_reported_at_its_line(tmp_path: Path, text: str, expected: str):
    found = problems(tmp_path, {"toy/rules.fr.md": text})
    assert any(p.startswith(expected) for p in found), found


def test_a_translation_of_an_unknown_source(tmp_path: Path):
    found = problems(tmp_path, {"toy/faq.fr.md": FRENCH})
    assert any(p.startswith("faq.fr.md:0: no source 'faq' in game.toml for this translation file") for p in found), found


def test_a_translation_into_the_entries_own_language_is_refused(tmp_path: Path):
    found = problems(tmp_path, {"toy/rules.en.md": FRENCH})
    assert any("are in English already" in p for p in found), found


def test_a_wrong_translation_leaves_the_entry_in_english(tmp_path: Path):
    found, _ = loaded(tmp_path, {"toy/rules.fr.md": FRENCH.replace("**5 cartes**", "**6 cartes**")})
    assert found.entries["toy-hand"].translations == ()


def test_check_reports_a_disagreement_as_file_and_line(tmp_path: Path, run_cli):
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY, "toy/rules.fr.md": FRENCH.replace("cinq", "six")})
    result = run_cli("--no-shipped", "--corpus", str(root), "check")
    assert result.exit_code != 0
    assert "toy/rules.fr.md:3: the French text of 'toy-hand' disagrees in numbers" in result.output


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("2 à 4 joueurs", {2, 4}), ("two or three players", {2, 3}), ("une carte, un joueur, one card", set()), ("douze perles", {12})],
)
def test_stated_numbers(text: str, numbers: set[int]):
    assert stated_numbers(text) == numbers


def test_every_molthar_entry_has_a_french_text_agreeing_in_numbers():
    """The shipped Molthar entries are all in French too, and each French text states the English one's numbers."""
    found, problems_found = corpus.check([shipped_corpus_dir()])
    assert problems_found == []
    molthar = [e for e in found.entries.values() if e.game == "portals-of-molthar"]
    assert len(molthar) >= 53
    for entry in molthar:
        french = entry.translation("fr")
        assert french is not None, entry.id
        assert stated_numbers(f"{french.title}\n{french.text}") == stated_numbers(f"{entry.title}\n{entry.text}"), entry.id
