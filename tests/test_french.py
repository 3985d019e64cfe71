"""Answers in French: French texts found and given for French questions, `--lang`, `config set lang`, French labels."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TOY_GAME_TOML, write_corpus

from rulebot import api
from rulebot.cli import messages

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "rulebot" / "locale"

GAME_TOML = TOY_GAME_TOML
ENTRIES = """\
## toy-hand
title: Hand limit
kind: rule
section: Part 1
see_also: toy-bell

Keep at most **5 cards** in hand at the end of your turn.

## toy-bell
title: The bell
kind: rule
section: Part 2
see_also: toy-hand

Ring the bell when the harbour opens.
"""
FRENCH = """\
## toy-hand
title: Limite de main

À la fin de votre tour, défaussez jusqu'à garder au plus **5 cartes** en main.
"""


@pytest.fixture()
def toy(tmp_path: Path) -> list[str]:
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRIES, "toy/rules.fr.md": FRENCH})
    return ["--no-shipped", "--corpus", str(root)]


def ask_json(run_cli, *args: str) -> dict:
    result = run_cli(*args)
    return json.loads(result.stdout)


def test_a_french_question_finds_a_word_of_the_french_text_only(run_cli, toy):
    """`défaussez` is in the French text alone: the French question finds it, and gets the French title and text."""
    found = ask_json(run_cli, *toy, "ask", "--json", "quand défausser les cartes")
    assert found["language"] == found["answer_language"] == "fr"
    best = found["results"][0]
    assert (best["id"], best["lang"], best["title"]) == ("toy-hand", "fr", "Limite de main")
    assert "défaussez" in best["text"]
    assert best["translations"] == [{"lang": "en", "title": "Hand limit", "text": "Keep at most **5 cards** in hand at the end of your turn."}]


def test_without_its_translation_the_french_word_finds_nothing(run_cli, tmp_path: Path):
    root = write_corpus(tmp_path / "bare", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRIES})
    found = ask_json(run_cli, "--no-shipped", "--corpus", str(root), "ask", "--json", "défaussez")
    assert found["results"] == []


def test_an_english_question_gets_the_english_text(run_cli, toy):
    best = ask_json(run_cli, *toy, "ask", "--json", "hand limit at the end of the turn")["results"][0]
    assert (best["id"], best["lang"], best["title"]) == ("toy-hand", "en", "Hand limit")
    assert best["translations"][0]["lang"] == "fr"


def test_lang_chooses_the_language_of_the_answer(run_cli, toy):
    english = ask_json(run_cli, *toy, "ask", "--json", "--lang", "en", "quand défausser les cartes")
    assert english["answer_language"] == "en" and english["results"][0]["title"] == "Hand limit"
    french = ask_json(run_cli, *toy, "ask", "--json", "--lang", "fr", "hand limit at the end of the turn")
    assert french["answer_language"] == "fr" and french["results"][0]["title"] == "Limite de main"


def test_an_entry_without_french_text_is_given_in_english_and_marked(run_cli, toy):
    result = run_cli(*toy, "ask", "--lang", "fr", "ring the bell harbour")
    assert result.stdout.startswith("The bell  [règle · Toy Game]  texte en anglais\n")
    assert "  Voir aussi : Limite de main (toy-hand)\n" in result.stdout  # a linked entry named in French
    found = ask_json(run_cli, *toy, "ask", "--json", "--lang", "fr", "ring the bell harbour")
    assert found["results"][0]["lang"] == "en"
    assert found["results"][0]["see_also_refs"][0]["title"] == "Limite de main"
    assert found["results"][0]["see_also_refs"][0]["titles"] == {"en": "Hand limit"}


def test_french_labels(run_cli, toy):
    result = run_cli(*toy, "ask", "--lang", "fr", "hand limit at the end of the turn")
    assert "Limite de main" in result.stdout
    assert "  Source : Toy rules, Part 1\n" in result.stdout and "  Voir aussi : The bell (toy-bell)\n" in result.stdout
    english = run_cli(*toy, "ask", "hand limit at the end of the turn")
    assert "  Source: Toy rules, Part 1\n" in english.stdout and "Voir" not in english.stdout


def test_unclear_and_errors_in_french(run_cli, toy):
    unclear = run_cli(*toy, "ask", "--lang", "fr", "bell zzqx blorf qqq")
    assert "Aucune entrée ne répond clairement. Les plus proches :" in unclear.stdout
    error = run_cli(*toy, "ask", "--lang", "fr", "--game", "chess", "bell")
    assert error.exit_code == 2 and error.output.startswith("Erreur : ")
    assert run_cli(*toy, "ask", "--game", "chess", "bell").output.startswith("Error: ")


def test_config_lang(run_cli, toy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`config set lang fr` answers in French whatever the question's language; `unset` gives it back."""
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path / "config"))
    assert run_cli("config", "set", "lang", "fr").exit_code == 0
    try:
        assert run_cli("config", "get", "lang").output == "fr\n"
        assert ask_json(run_cli, *toy, "ask", "--json", "hand limit at the end of the turn")["results"][0]["lang"] == "fr"
        assert ask_json(run_cli, *toy, "ask", "--json", "--lang", "en", "quand défausser")["results"][0]["lang"] == "en"
        refused = run_cli("config", "set", "lang", "de")
        assert refused.exit_code == 2 and "unknown language 'de'" in refused.output
    finally:
        assert run_cli("config", "unset", "lang").exit_code == 0
    assert run_cli("config", "get", "lang").output == ""
    assert ask_json(run_cli, *toy, "ask", "--json", "hand limit at the end of the turn")["results"][0]["lang"] == "en"


def test_config_lang_keeps_the_expansions(run_cli, toy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path / "config"))
    assert run_cli("config", "set", "lang", "fr").exit_code == 0
    try:
        assert run_cli(*toy, "config", "set", "toy.with", "base").exit_code == 0
        assert run_cli("config", "get", "lang").output == "fr\n"
    finally:
        run_cli("config", "unset", "lang")
        run_cli("config", "unset", "toy.with")


def test_a_french_question_on_the_command_line(toy, tmp_path: Path):
    """As a real process (the quick path): French text and French labels."""
    env = dict(os.environ, RULEBOT_CONFIG_DIR=str(tmp_path))
    process = subprocess.run(
        [sys.executable, "-m", "rulebot", *toy, "ask", "combien de cartes en main à la fin du tour"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert process.returncode in (0, 3), process.stderr
    assert "Limite de main  [règle · Toy Game]" in process.stdout and "  Source : Toy rules, Part 1" in process.stdout


def test_kind_labels_in_french(run_cli, toy):
    """A French answer names each entry's kind in French, in its heading and among the other matches; an English one
    keeps the kinds' own names."""
    french = run_cli(*toy, "ask", "--lang", "fr", "--limit", "2", "bell zzqx blorf qqq").stdout
    english = run_cli(*toy, "ask", "--lang", "en", "--limit", "2", "bell zzqx blorf qqq").stdout
    assert "The bell  [règle · Toy Game]" in french and "[rule" not in french
    assert "The bell  [rule · Toy Game]" in english
    others = run_cli("ask", "--limit", "5", "combien de cartes en main à la fin du tour").stdout.split("Autres résultats :")[1]
    assert "– précision, Die Portale von Molthar" in " ".join(others.split()) and "fine-point" not in others


def test_every_kind_has_a_french_label():
    """Each kind of the corpus format has its label in the catalog, in French a word of its own."""
    from rulebot.cli import output
    from rulebot.corpus.kinds import KINDS

    assert set(output.KIND_LABELS) == set(KINDS)
    messages.use("fr")
    try:
        french = [output.kind_label(kind) for kind in KINDS]
    finally:
        messages.use("en")
    assert french == ["règle", "mise en place", "FAQ", "errata", "précision", "terme", "variante", "règle maison"]
    assert [output.kind_label(kind) for kind in KINDS] == list(KINDS)


def test_every_trust_level_but_official_has_a_french_label():
    """The mark after a citation of a source that is not official reads in French in French ("source communautaire",
    not "source community")."""
    from rulebot.cli import output
    from rulebot.corpus.kinds import TRUST_LEVELS

    assert set(output.TRUST_LABELS) == set(TRUST_LEVELS) - {"official"}
    entry = {"source": {"title": "Wiki", "trust": "community", "section": "Setup"}}
    assert output.citation(entry).endswith("Setup [community source]")  # type: ignore[arg-type]
    messages.use("fr")
    try:
        assert output.citation(entry).endswith("Setup [source communautaire]")  # type: ignore[arg-type]
        assert [output._(output.TRUST_LABELS[t]) for t in ("designer", "house")] == ["source des auteurs", "source maison"]
    finally:
        messages.use("en")


def test_every_molthar_entry_is_answered_in_french(tmp_path: Path):
    """Through the Python API, a French answer gives each Molthar entry's French title and text."""
    with api.Library() as library:
        for ruling in library.rulings(game="portals-of-molthar"):
            assert [t.lang for t in ruling.translations] == ["fr"], ruling.id
        answer = library.ask("combien de cartes en main à la fin du tour")
    assert answer.matches[0].ruling.lang == "fr" and answer.matches[0].ruling.id == "molthar-hand-limit"


def test_french_english_only_entries_are_still_found(run_cli):
    """A French question about a game without French texts finds its English entries, given in English."""
    found = ask_json(run_cli, "ask", "--json", "-g", "dune-imperium", "combien de cartes on pioche au début")
    assert found["language"] == "fr" and found["results"] and found["results"][0]["lang"] == "en"


# -- the catalog -----------------------------------------------------------------


def test_the_catalog_has_every_message_of_the_code():
    """What Babel extracts from the code and the templates (babel.cfg) is what the French catalog translates, each
    message translated."""
    extract = pytest.importorskip("babel.messages.extract", reason="Babel extracts the messages")
    from babel.messages.frontend import parse_mapping_cfg
    from babel.messages.pofile import read_po

    with (ROOT / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    code = {found[2] for found in extract.extract_from_dir(str(ROOT), method_map, options_map)}
    with (LOCALE / "fr" / "LC_MESSAGES" / "rulebot.po").open("rb") as file:
        catalog = read_po(file)
    translated = {m.id: m.string for m in catalog if m.id}
    assert set(translated) == code
    assert all(translated.values())
    assert {"Source: ", "Also called"} <= code  # the command line's and the site's


def test_the_compiled_catalog_is_the_catalog(tmp_path: Path):
    """The shipped .mo is the .po compiled (`pybabel compile`)."""
    pytest.importorskip("babel", reason="Babel compiles the catalog")
    import gettext

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (LOCALE / "fr" / "LC_MESSAGES" / "rulebot.po").open("rb") as file:
        catalog = read_po(file)
    with (tmp_path / "fresh.mo").open("wb") as file:
        write_mo(file, catalog)
    with (LOCALE / "fr" / "LC_MESSAGES" / "rulebot.mo").open("rb") as shipped, (tmp_path / "fresh.mo").open("rb") as fresh:
        compiled, expected = (gettext.GNUTranslations(f)._catalog for f in (shipped, fresh))  # type: ignore[attr-defined]
    assert {k: v for k, v in compiled.items() if k} == {k: v for k, v in expected.items() if k}


def test_the_documented_babel_commands_work(tmp_path: Path):
    """The commands rulebot.cli.messages gives for updating the catalogs run, and the catalog keeps its header
    (its plural forms) and its translations."""
    pytest.importorskip("babel", reason="Babel updates the catalogs")
    import shlex
    import shutil

    from babel.messages.pofile import read_po

    for name in ("rulebot", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "babel.cfg", tmp_path)
    commands = [line.split() for line in (messages.__doc__ or "").splitlines() if line.strip().startswith("pybabel ")]
    assert [c[1] for c in commands] == ["extract", "update", "compile"]
    for command in commands:
        done = subprocess.run(
            [sys.executable, "-c", "from babel.messages.frontend import main; main()", *command[1:]],
            cwd=tmp_path, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, shlex.join(command) + "\n" + done.stderr
    with (tmp_path / "rulebot" / "locale" / "fr" / "LC_MESSAGES" / "rulebot.po").open("rb") as file:
        catalog = read_po(file)
    assert catalog.plural_forms == "nplurals=2; plural=(n > 1);"
    assert catalog["Source: "] is not None and catalog["Source: "].string == "Source : "


def test_messages_in_english_until_french_is_chosen():
    messages.use("en")
    try:
        assert messages._("Source: ") == "Source: "
        messages.use("fr")
        assert messages._("Source: ") == "Source : " and messages.language_name("en") == "anglais"
    finally:
        messages.use("en")
    assert messages._("See also: ") == "See also: "
