"""`rulebot setup`: each game's checklist, for every player count it supports, with and without each expansion,
holds the numbers of the source documents.

The numbers below are copied from the sources (catalyst-rulebook-en.txt, PREPARATION;
res-arcana-bga-rules-summary.txt, the opening list; res-arcana-perlae-imperii-rules.md, Setup and its
table; portale-von-molthar-regles-fr.txt, MISE EN PLACE; dune-imperium-errata-faq-2022-12-14.md,
Errata > Rise of Ix rulebook > page 8), not computed from the corpus's setup.toml files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from conftest import docs_text, rulebot_process, sh_lines

from rulebot.places import package_dir

# -- what the sources say ---------------------------------------------------------------------

CATALYST_COMMON = {
    "board": ["board"],
    "sort-cards": ["Catalysts, Buildings and Goal cards"],
    "final-round-stack": ["10 cards", "Final Round token"],
    "catalyst-display": ["left side of the board", "top 5 cards"],
    "building-stacks": ["4 stacks", "marked 1 on top"],
    "goal-card": ["4 Goal cards", "one face up", "other 3 go out of the game"],
    "starting-player": ["at random", "Starting Player marker"],
    "starting-coins": ["starting coins"],
    "supply": ["Military Power", "Chain Activation", "scoring pad"],
}
CATALYST_BY_COUNT = {
    # PREPARATION, paragraph 4 (Catalyst cards back in the box) and paragraph 6 (Buildings kept per colour)
    2: {"catalyst-deck": ["cards marked 3 and the cards marked 4 back in the box"], "buildings-by-player-count": ["numbered 1 and 3;"]},
    3: {"catalyst-deck": ["cards marked 4 back in the box"], "buildings-by-player-count": ["numbered 1, 2 and 3;"]},
    4: {"catalyst-deck": ["keep them all"], "buildings-by-player-count": ["1 to 4"]},
}
CATALYST_ORDER = [
    "board", "sort-cards", "catalyst-deck", "final-round-stack", "catalyst-display", "building-stacks",
    "buildings-by-player-count", "goal-card", "starting-player", "starting-coins", "supply",
]

ARCANA_BASE = {
    "supply": ["8 magic items", "Calm, Elan, Life, Death and Gold"],
    "places-of-power": ["5 places of power"],
    "monuments": ["Shuffle the monuments", "2 of them face up"],
    "starting-essences": ["1 Calm, 1 Elan, 1 Life, 1 Death and 1 Gold"],
    "artifacts": ["8 artifacts"],
    "mages": ["2 mages", "keeps 1"],
    "starting-hand": ["starting hand"],
    "first-player": ["first player"],
    "magic-items": ["counter-clockwise", "to the right of the first player", "1 magic item"],
}
ARCANA_BASE_ORDER = list(ARCANA_BASE)
ARCANA_OPEN = {"starting-hand", "first-player"}
"""Not stated by the base summary: the starting hand's size (only the draft variant gives 3), how the first player is chosen."""

LUX_SUPPLY = ["every magic item", "Calm, Elan, Life, Death and Gold"]
"""The supply with Lux et Tenebrae in play: every magic item, and no count of them (no source covers it)."""
PERLAE_TABLE = {2: (4, 7), 3: (5, 10), 4: (6, 12), 5: (7, 14)}
"""Perlae Imperii, Setup, the table: players -> (places of power, monuments dealt as the deck)."""
PERLAE_COMMON = {
    "combine": ["Perlae Imperii components", "base game"],
    "supply": ["every magic item", "Calm, Elan, Life, Death and Gold"],
    "pearl-supply": ["centre of the essence tray", "25"],
    "reminder-tile": ["reminder tile", "Pearl side up"],
    "starting-essences": ["1 Calm, 1 Elan, 1 Life, 1 Death and 1 Gold", "1 Pearl"],
    "artifacts": ARCANA_BASE["artifacts"],
    "mages": ARCANA_BASE["mages"],
    "starting-hand": ARCANA_BASE["starting-hand"],
    "first-player": ARCANA_BASE["first-player"],
    "magic-items": ARCANA_BASE["magic-items"],
}
PERLAE_ORDER = [
    "combine", "supply", "pearl-supply", "places-of-power", "monuments", "reminder-tile",
    "starting-essences", "artifacts", "mages", "starting-hand", "first-player", "magic-items",
]

MOLTHAR = {
    "shuffle": ["pearl cards", "character cards", "each in its own deck"],
    "pearl-display": ["4 pearl cards face up", "face down", "draw pile"],
    "character-display": ["2 character cards face up", "face down", "draw pile"],
    "discard-piles": ["two discard piles"],
    "portals": ["one Portal"],
    "first-player": ["first player", "Premier Joueur"],
}

HAGAL = ["4", "House Hagal deck", "Hall of Oratory", "Rally Troops"]
"""Errata > Rise of Ix rulebook > page 8: four base cards out of the House Hagal deck, solo and two-player games."""


def cases() -> list[tuple[str, tuple[str, ...], int, list[str], dict[str, list[str]]]]:
    """(game, expansions, players, step ids in order, {step id: phrases its text states})."""
    out = []
    for players, by_count in CATALYST_BY_COUNT.items():
        out.append(("catalyst", (), players, CATALYST_ORDER, {**CATALYST_COMMON, **by_count}))
    for players in (2, 3, 4):
        out.append(("res-arcana", (), players, ARCANA_BASE_ORDER, ARCANA_BASE))
        # Lux et Tenebrae: no source covers it; the base game's steps, the supply without a count of magic items
        out.append(("res-arcana", ("lux-et-tenebrae",), players, ARCANA_BASE_ORDER, {**ARCANA_BASE, "supply": LUX_SUPPLY}))
    for expansions in [("perlae-imperii",), ("lux-et-tenebrae", "perlae-imperii")]:
        for players, (places, monuments) in PERLAE_TABLE.items():
            counted = {
                "places-of-power": [f"set out {places} of them", "at random", "back in the box"],
                "monuments": [f"deal {monuments} of them", "turn 2 monuments", "without looking"],
            }
            out.append(("res-arcana", expansions, players, PERLAE_ORDER, {**PERLAE_COMMON, **counted}))
    for players in (2, 3, 4, 5):
        out.append(("portals-of-molthar", (), players, list(MOLTHAR), MOLTHAR))
    for expansions in [(), ("immortality",), ("rise-of-ix",), ("immortality", "rise-of-ix")]:
        for players in (1, 2, 3, 4):
            hagal = "rise-of-ix" in expansions and players in (1, 2)
            out.append(("dune-imperium", expansions, players, ["house-hagal-deck"] if hagal else [], {"house-hagal-deck": HAGAL} if hagal else {}))
    return out


def with_args(expansions: tuple[str, ...]) -> list[str]:
    return [arg for slug in expansions for arg in ("--with", slug)] or ["--with", "base"]


def checklist(run_cli, game: str, players: int, expansions: tuple[str, ...] = ()) -> dict:
    result = run_cli("setup", game, "--players", str(players), *with_args(expansions), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "game, expansions, players, order, states", cases(), ids=lambda v: "+".join(v) if isinstance(v, tuple) else None
)
def test_checklist_states_the_sources_numbers(run_cli, game, expansions, players, order, states):
    """The steps, in order, state the numbers of the sources for that count and those expansions; an open step has none."""
    printed = checklist(run_cli, game, players, expansions)
    assert printed["players"] == players
    assert [e["slug"] for e in printed["expansions"]] == sorted(expansions)
    assert [step["id"] for step in printed["steps"]] == order
    assert [step["number"] for step in printed["steps"]] == list(range(1, len(order) + 1))
    for step in printed["steps"]:
        for phrase in states[step["id"]]:
            assert phrase in step["text"], (step["id"], phrase)
        if step["open"]:
            assert not re.search(r"\d", step["text"]), step["text"]  # nothing invented
        assert step["entry"]["id"] and step["entry"]["source"]["section"]


@pytest.mark.parametrize("expansions", [("perlae-imperii",), ("lux-et-tenebrae", "perlae-imperii")])
@pytest.mark.parametrize("players", sorted(PERLAE_TABLE))
def test_perlae_imperii_gives_only_the_numbers_for_the_count(run_cli, expansions, players):
    """Each count has its own row of the table: no other row's numbers are printed, and no total of magic items."""
    steps = {step["id"]: step["text"] for step in checklist(run_cli, "res-arcana", players, expansions)["steps"]}
    for other, (places, monuments) in PERLAE_TABLE.items():
        if other != players:
            assert f"set out {places} of" not in steps["places-of-power"]
            assert f"deal {monuments} of" not in steps["monuments"]
    assert "9" not in steps["supply"]  # the sources never state a total of magic items


@pytest.mark.parametrize("players", [2, 3, 4])
def test_catalyst_starting_coins_are_left_open(run_cli, players):
    """The starting coins' table is missing from the source: the step says so and gives no amount."""
    steps = {step["id"]: step for step in checklist(run_cli, "catalyst", players)["steps"]}
    coins = steps["starting-coins"]
    assert coins["open"] and "missing" in coins["open"]
    assert not re.search(r"\d", coins["text"] + coins["open"])
    text = run_cli("setup", "catalyst", "--players", str(players)).stdout
    assert "Not in the sources: The rulebook gives the amounts in a table that is missing" in " ".join(text.split())


def test_arcana_open_steps(run_cli):
    """The base summary's gaps (starting hand, first player) are open steps, in every combination."""
    for expansions in [(), ("perlae-imperii",)]:
        steps = checklist(run_cli, "res-arcana", 3, expansions)["steps"]
        assert {step["id"] for step in steps if step["open"]} == ARCANA_OPEN


def test_molthar_counts_are_inferred_and_change_nothing(run_cli):
    """Molthar's counts are said to be inferred, and no step differs by count."""
    printed = [checklist(run_cli, "portals-of-molthar", players) for players in (2, 3, 4, 5)]
    assert "inferred" in printed[0]["note"]
    assert all(p["steps"] == printed[0]["steps"] for p in printed)


def test_dune_says_the_full_setup_is_in_the_rulebook(run_cli):
    """Dune's checklist is marked incomplete and says plainly where the full setup is."""
    printed = checklist(run_cli, "dune-imperium", 3)
    assert printed["complete"] is False and printed["steps"] == []
    assert "full setup of Dune: Imperium is in the game's rulebook" in printed["note"]
    text = " ".join(run_cli("setup", "dune-imperium", "--players", "2", "--with", "rise-of-ix").stdout.split())
    assert "Not the whole setup: The full setup of Dune: Imperium is in the game's rulebook" in text
    assert "1. Take 4 of the original cards out of the House Hagal deck" in text


def test_text_checklist_is_numbered_and_cites(run_cli):
    """The terminal checklist numbers the steps, states the count's numbers and cites each step's entry."""
    text = run_cli("setup", "res-arcana", "--players", "4", "--with", "perlae-imperii").stdout
    assert text.startswith("Res Arcana with Perlae Imperii: setup for 4 players")
    flat = " ".join(text.split())
    assert "4. Shuffle all the places of power out of sight, under the table, and set out 6 of them" in flat
    assert "deal 12 of them" in flat
    assert "arcana-pi-setup-monuments, arcana-pi-setup-table" in flat


UNSUPPORTED = [
    ("catalyst", (), 1, "Catalyst is played by 2 to 4 players, not 1"),
    ("catalyst", (), 5, "Catalyst is played by 2 to 4 players, not 5"),
    ("res-arcana", (), 5, "Res Arcana is played by 2 to 4 players, not 5 (with Perlae Imperii: 2 to 5)"),
    ("res-arcana", ("perlae-imperii",), 6, "Res Arcana with Perlae Imperii is played by 2 to 5 players, not 6"),
    ("res-arcana", ("perlae-imperii",), 1, "Res Arcana with Perlae Imperii is played by 2 to 5 players, not 1"),
    ("portals-of-molthar", (), 1, "Die Portale von Molthar is played by 2 to 5 players, not 1"),
    ("portals-of-molthar", (), 6, "Die Portale von Molthar is played by 2 to 5 players, not 6"),
    ("dune-imperium", ("rise-of-ix",), 5, "Dune: Imperium with Rise of Ix is played by 1 to 4 players, not 5"),
]


@pytest.mark.parametrize("game, expansions, players, message", UNSUPPORTED)
def test_unsupported_count_is_refused(run_cli, game, expansions, players, message):
    """A count the game is not played by (with those expansions) is a one-line error naming the counts it is, exit 2."""
    result = run_cli("setup", game, "--players", str(players), *with_args(expansions))
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"


@pytest.mark.parametrize("expansions", [("lux-et-tenebrae",), ("lux-et-tenebrae", "perlae-imperii")])
def test_an_expansion_no_source_covers_takes_the_covered_counts_and_says_so(expansions):
    """`setup res-arcana --players 5 --with lux-et-tenebrae`, as typed: no source in the corpus covers Lux et
    Tenebrae, so its counts are those of the setups the sources cover (2 to 5, with or without Perlae Imperii);
    the checklist says what is not covered, and the magic items of the supply get no total (the base game's 8,
    or 8 + 1, would leave out Lux et Tenebrae's)."""
    args = ("setup", "res-arcana", "--players", "5", *with_args(expansions))
    done = rulebot_process(*args)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Not the whole setup:" in text and "No source in the corpus covers Lux et Tenebrae" in text
    printed = json.loads(rulebot_process(*args, "--json").stdout)
    assert (printed["players"], printed["supported"]) == (5, [2, 3, 4, 5])
    assert printed["complete"] is False and "No source in the corpus covers Lux et Tenebrae" in printed["note"]
    supply = next(step for step in printed["steps"] if step["id"] == "supply")
    assert not re.search(r"\d", supply["text"]) and "Lux et Tenebrae" in supply["open"]
    assert "every magic item" in supply["text"]


@pytest.mark.parametrize("players", [1, 6, 9])
@pytest.mark.parametrize("expansions", [("lux-et-tenebrae",), ("lux-et-tenebrae", "perlae-imperii")])
def test_an_expansion_no_source_covers_allows_no_other_count(run_cli, expansions, players):
    """`setup res-arcana --players 9 --with lux-et-tenebrae`: refused as any count no covered setup is played by,
    the error saying that the sources do not give Lux et Tenebrae's own counts."""
    result = run_cli("setup", "res-arcana", "--players", str(players), *with_args(expansions))
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: {'Res Arcana with Lux et Tenebrae' + (' and Perlae Imperii' if len(expansions) > 1 else '')} is played by"
        f" 2 to 5 players (the sources do not give Lux et Tenebrae's own player counts: these are those of the setups"
        f" they cover), not {players}"
    )


def test_a_count_only_an_uncovered_expansion_lets_in_says_whose_steps_they_are(run_cli):
    """With Lux et Tenebrae alone at 5 players, the base game's steps are the sources' for 2 to 4: each says so."""
    printed = json.loads(run_cli("setup", "res-arcana", "--players", "5", "--with", "lux-et-tenebrae", "--json").stdout)
    assert all("the sources give this step for 2 to 4 players" in step["open"] for step in printed["steps"])
    at_four = json.loads(run_cli("setup", "res-arcana", "--players", "4", "--with", "lux-et-tenebrae", "--json").stdout)
    assert not any("give this step for" in (step["open"] or "") for step in at_four["steps"])


@pytest.mark.parametrize(
    "question, starts",
    [
        ("how many places of power with 9 players", "For 9 players: Res Arcana is played by 2 to 4 players; with Perlae Imperii, 2 to 5; the sources do not give Lux et Tenebrae's."),
        ("how many places of power with 1 player", "For 1 player: Res Arcana is played by 2 to 4 players; with Perlae Imperii, 2 to 5; the sources do not give Lux et Tenebrae's."),
        # 5 is a count of Perlae Imperii's: the base game's step is not labelled as the base game's at 5.
        ("how many places of power with 5 players", "For 5 players: Lay out 5 places of power, whatever the player count. (the sources give this step for 2 to 4 players)"),
    ],
)
def test_a_question_with_an_uncovered_expansion_gets_no_count_it_does_not_have(run_cli, question, starts):
    """`ask --with lux-et-tenebrae "how many places of power with 9 players"`: the counts, not a base game step."""
    result = run_cli("ask", "--with", "lux-et-tenebrae", question)
    assert first_lines(result.stdout).startswith(starts), result.stdout
    assert "base game:" not in first_lines(result.stdout)


def test_the_setup_page_and_the_checklist_use_one_rule():
    """The site's setup page shows each set of expansions at the counts `rulebot setup` allows for it."""
    from rulebot.corpus import load
    from rulebot.places import shipped_corpus_dir
    from rulebot.site.setup_page import Words, _combination

    corpus = load.load([shipped_corpus_dir()])
    for slug, setup in corpus.setups.items():
        names = {e.slug: e.name for e in corpus.games[slug].expansions}
        for combination in setup.combinations():
            view = _combination(corpus, setup, combination, names, "x/setup.html", lambda entry_id, page: None, Words("en"))
            assert view.players == setup.players_with(combination)
            assert [count for count in range(1, 10) if setup.allows(count, combination)] == list(view.players)


def test_unsupported_count_in_a_process():
    """As a real process: the error on standard error, nothing on standard output, exit 2."""
    done = rulebot_process("setup", "catalyst", "--players", "7")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "Error: Catalyst is played by 2 to 4 players, not 7\n"


def test_no_count_asks_for_one(run_cli):
    """Without --players the error says which counts the game is played by."""
    result = run_cli("setup", "catalyst")
    assert result.exit_code == 2
    assert "Error: how many players? Catalyst is played by 2 to 4 players; say how many with --players N" in result.output


@pytest.mark.parametrize("words", [("catalyst", "3"), ("Res", "Arcana", "3"), ("res arcana", "3")])
def test_the_count_after_the_game(run_cli, words: tuple[str, ...]):
    """`setup GAME N` as `setup GAME --players N`, the game by any name, of several words unquoted too."""
    given = run_cli("setup", *words)
    by_option = run_cli("setup", " ".join(words[:-1]), "--players", words[-1])
    assert given.exit_code == by_option.exit_code == 0 and given.stdout == by_option.stdout, given.output


def test_a_count_after_the_game_and_another_by_option_are_refused(run_cli):
    result = run_cli("setup", "catalyst", "3", "--players", "4")
    assert result.exit_code == 2 and "Error: 3 players after the game and --players 4: give one count" in result.output


@pytest.mark.parametrize("words", [("3",), ("3", "4")])
def test_a_count_without_a_game_asks_for_the_game(run_cli, words: tuple[str, ...]):
    """`setup 3`: the count is taken for no game's name, and the error says where the game goes."""
    result = run_cli("setup", *words)
    assert result.exit_code == 2 and "no game '" not in result.output, result.output
    assert f"Error: {' '.join(words)} is no game: give the game, then the number of players (setup GAME N)" in result.output


@pytest.mark.parametrize(("words", "count"), [(("catalyst", "two"), "two"), (("res", "arcana", "--", "-1"), "-1")])
def test_a_count_not_in_digits_after_a_game_is_said_so(run_cli, words: tuple[str, ...], count: str):
    """A game, then a count that is no number: the error says which word is no count, not that the game is unknown."""
    result = run_cli("setup", *words)
    assert result.exit_code == 2 and f"Error: {count!r} is no number of players: give it in digits" in result.stderr, result.output


def test_a_typo_in_a_games_name_is_an_unknown_game_not_a_count(run_cli):
    """"res arcanna": its last word is a typo of the name, no count: the game is unknown, with the one meant."""
    result = run_cli("setup", "res", "arcanna")
    assert result.exit_code == 2 and "no game 'res arcanna'; did you mean: res-arcana" in result.stderr, result.output


def test_a_game_named_by_a_number_takes_a_count_after_it(run_cli, tmp_path: Path):
    """A game called "1830", then 3: that game for 3 players, not a count alone."""
    from conftest import skyrail_toml, write_corpus

    toml = skyrail_toml().replace('slug = "skyrail"', 'slug = "r1830"').replace('name = "Skyrail Express"', 'name = "1830"')
    root = write_corpus(tmp_path, {"games/r1830/game.toml": toml, "games/r1830/rules.md": "# 1830 rules\n"})
    result = run_cli("--no-shipped", "--corpus", str(root / "games"), "setup", "1830", "3")
    assert result.exit_code == 2 and "no setup checklist for 1830 (r1830)" in result.stderr, result.output


def test_a_game_whose_name_ends_with_a_number_keeps_it(run_cli, tmp_path: Path):
    """A game named "Skyrail 2" is that game, not Skyrail for two players."""
    from conftest import skyrail_toml, write_corpus

    second = skyrail_toml().replace('slug = "skyrail"', 'slug = "skyrail-2"').replace("Express", "2").replace('"skyrail"\n', '"skyrail2"\n')
    root = write_corpus(tmp_path, {"games/skyrail/game.toml": skyrail_toml(), "games/skyrail/rules.md": "# Skyrail rules\n",
                                   "games/skyrail-2/game.toml": second, "games/skyrail-2/rules.md": "# Skyrail 2 rules\n"})
    result = run_cli("--no-shipped", "--corpus", str(root / "games"), "setup", "skyrail", "2")
    assert result.exit_code == 2 and "(skyrail-2)" in result.output and "no setup checklist" in result.output, result.output
    # a count that only begins another game's slug is the count: skyrail for 3, not a game "skyrail-3..."
    third = second.replace("skyrail-2", "skyrail-3-4-players").replace('"Skyrail 2"', '"Skyrail for 3 and 4"')
    write_corpus(root, {"games/skyrail-3-4-players/game.toml": third, "games/skyrail-3-4-players/rules.md": "# Skyrail rules\n"})
    counted = run_cli("--no-shipped", "--corpus", str(root / "games"), "setup", "skyrail", "3")
    assert counted.exit_code == 2 and "(skyrail)" in counted.output, counted.output


def test_game_without_setup_data(run_cli):
    """A game whose folder has no setup.toml: a clear error."""
    from conftest import MINIMAL

    result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "setup", "lantern-harbor", "--players", "2")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: the corpus has no setup checklist for Lantern Harbor (lantern-harbor): a setup.toml in its folder gives one"
    )


def test_expansions_default_to_config(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The expansions in play come from `rulebot config`, as for ask; --with base sets them aside."""
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
    assert run_cli("config", "set", "res-arcana.with", "perlae-imperii").exit_code == 0
    result = run_cli("setup", "res-arcana", "--players", "5", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert [e["slug"] for e in printed["expansions"]] == ["perlae-imperii"]
    assert "deal 14 of them" in " ".join(step["text"] for step in printed["steps"])
    assert run_cli("setup", "res-arcana", "--players", "5", "--with", "base").exit_code == 2


# -- the JSON Schema ----------------------------------------------------------------------------

SCHEMA = json.loads((package_dir() / "schemas" / "setup.schema.json").read_text(encoding="utf-8"))


def test_every_checklist_follows_the_schema(run_cli):
    """The checklists of every game, count and expansion set are valid against rulebot/schemas/setup.schema.json."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for game, expansions, players, _order, _states in cases():
        printed = checklist(run_cli, game, players, expansions)
        errors = [e.message for e in validator.iter_errors(printed)]
        assert not errors, (game, expansions, players, errors)


def test_ask_schema_has_the_same_step():
    """ask.schema.json carries the setup step of setup.schema.json unchanged, so that each reads alone."""
    ask = json.loads((package_dir() / "schemas" / "ask.schema.json").read_text(encoding="utf-8"))
    step = json.loads(json.dumps(SCHEMA["$defs"]["step"]).replace("#/$defs/citation", "#/$defs/setup_citation"))
    assert ask["$defs"]["setup_step"] == step
    assert ask["$defs"]["setup_citation"] == SCHEMA["$defs"]["citation"]


def test_docs_setup_examples_run(run_cli):
    """Every `rulebot setup` example of the README and docs/ prints a checklist."""
    found = [line.split() for line in sh_lines(docs_text()) if line.startswith("rulebot setup ")]
    assert len(found) >= 4
    for words in found:
        result = run_cli(*words[1:])
        assert result.exit_code == 0, (words, result.output)
        assert "setup for" in result.output or "mise en place à" in result.output or '"steps"' in result.output


# -- in the question path ----------------------------------------------------------------------


def first_lines(text: str, count: int = 4) -> str:
    return " ".join(" ".join(text.splitlines()[:count]).split())


@pytest.mark.parametrize(
    "args, question, starts, status",
    [
        (("-g", "res-arcana", "--with", "perlae-imperii"), "how many monuments with 3 players", "For 3 players, Perlae Imperii: Shuffle all the monuments together and deal 10 of them", 0),
        # No expansion in play nor named: the base game's number first, each line naming its expansion.
        ((), "how many monuments with 3 players", "For 3 players, base game: Shuffle the monuments into a deck and turn 2 of them face up. For 3 players, Perlae Imperii: Shuffle all the monuments together and deal 10 of them", 0),
        ((), "how many places of power with 4 players", "For 4 players, base game: Lay out 5 places of power, whatever the player count. For 4 players, Perlae Imperii: Shuffle all the places of power out of sight, under the table, and set out 6 of them", 0),
        ((), "how many monuments with 5 players", "For 5 players, Perlae Imperii: Shuffle all the monuments together and deal 14 of them", 0),
        ((), "how many monuments with 3 players with perlae imperii", "For 3 players, Perlae Imperii: Shuffle all the monuments together and deal 10 of them", 0),
        ((), "how many buildings with 3 players", "For 3 players: In each colour, keep only the Buildings numbered 1, 2 and 3", 0),
        (("-g", "res-arcana", "--with", "base"), "how many places of power with 3 players", "For 3 players, base game: Lay out 5 places of power", 0),
        # A count the game in play is not played by: the base game's counts, then each expansion's.
        (("-g", "res-arcana", "--with", "base"), "how many places of power with 5 players", "For 5 players: Res Arcana is played by 2 to 4 players; with Perlae Imperii, 2 to 5.", 0),
        (("-g", "res-arcana"), "how many places of power with 9 players", "For 9 players: Res Arcana is played by 2 to 4 players; with Perlae Imperii, 2 to 5.", 0),
    ],
)
def test_question_with_a_count_is_answered_by_its_step_first(run_cli, args, question, starts, status):
    """A question asked for a player count starts with the setup step for that count, from the setup data, sure (0)
    or not (3) as the ranking model's probability says (rulebot.search.features): the step comes first either way."""
    result = run_cli("ask", *args, question)
    assert result.exit_code == status
    assert first_lines(result.stdout, 8).removeprefix("No entry answers this clearly. The closest ones: ").startswith(starts), result.stdout


def test_a_supported_count_no_step_answers_says_no_range(run_cli):
    """`ask -g dune-imperium "how many troops with 3 players"`: 3 is a count of the game; no step of its setup
    answers at 3, so no "played by" line (it named Rise of Ix, not in play)."""
    result = run_cli("ask", "-g", "dune-imperium", "how many troops with 3 players")
    assert "played by" not in result.stdout and "For 3 players: Dune" not in result.stdout
    assert json.loads(run_cli("ask", "-g", "dune-imperium", "--json", "how many troops with 3 players").stdout)["setup"] is None


def test_french_question_with_a_count(run_cli):
    """"combien de cartes à 2 joueurs": several games answer; the first game's answer starts with its step for 2 players
    (with the French labels of a French answer; the step's text is English, as the setup data is)."""
    text = run_cli("ask", "combien de cartes à 2 joueurs").stdout
    lines = text.splitlines()
    assert lines[2] == "Dans Catalyst :"
    assert first_lines("\n".join(lines[3:])).startswith(
        "À 2 joueurs : Catalyst deck: look at the number in the lower left corner of each Catalyst card; put the cards marked 3 and the cards marked 4 back in the box."
    )
    alone = run_cli("ask", "-g", "catalyst", "combien de cartes à 2 joueurs").stdout
    assert "À 2 joueurs : Catalyst deck" in first_lines(alone, 6)


def test_a_step_is_in_the_answers_language_where_the_setup_gives_it(run_cli):
    """A French question for a player count of Molthar (whose setup gives its steps in French too) answers with the
    French step texts; asked in English, or `--lang en`, with the English ones."""
    french = first_lines(run_cli("ask", "-g", "molthar", "mise en place à 3 joueurs").stdout, 4)
    assert "À 3 joueurs : Mélangez les cartes Perle" in french
    for args in (("mise en place à 3 joueurs", "--lang", "en"), ("setup with 3 players",)):
        english = first_lines(run_cli("ask", "-g", "molthar", *args).stdout, 4)
        assert "For 3 players: Shuffle the pearl cards" in english, args
    found = json.loads(run_cli("ask", "--json", "-g", "molthar", "mise en place à 3 joueurs").stdout)
    assert found["setup"]["steps"][0]["text"].startswith("Mélangez les cartes Perle")


def test_question_with_a_count_as_json(run_cli):
    """ask --json gives the steps for the count as `setup`, and null for a question without a count."""
    printed = json.loads(run_cli("ask", "--json", "how many monuments with 4 players").stdout)
    assert printed["setup"]["players"] == 4
    assert [e["slug"] for e in printed["setup"]["expansions"]] == ["perlae-imperii"]
    assert printed["setup"]["has_expansions"] is True
    assert [step["expansion"] for step in printed["setup"]["steps"]] == [None, "perlae-imperii"]
    assert "deal 12 of them" in printed["setup"]["steps"][1]["text"]
    assert json.loads(run_cli("ask", "--json", "chaumurky tie").stdout)["setup"] is None


def test_question_with_a_count_in_a_process():
    """As a real process (the quick path of a plain ask), the step for the count comes first."""
    done = rulebot_process("ask", "combien de cartes à 2 joueurs", env={"COLUMNS": "200"})
    assert done.returncode == 3, done.stderr  # several games answer: not stood by
    assert "Dans Catalyst :\nÀ 2 joueurs : Catalyst deck: look at the number in the lower left corner" in done.stdout
    done = rulebot_process("ask", "how many monuments with 3 players", env={"COLUMNS": "200"})
    assert done.returncode == 0
    assert done.stdout.startswith("For 3 players, base game: Shuffle the monuments into a deck and turn 2 of them face up.\n"
                                  "For 3 players, Perlae Imperii: Shuffle all the monuments together and deal 10 of them")


# -- in rulebot play ----------------------------------------------------------------------------


def test_play_setup_command(run_cli):
    """:setup N prints the checklist of the session's game, with its expansions in play; a count it is not played by is said."""
    lines = [":setup 3", ":game res-arcana", ":setup 5", ":setup 6", ":with -", ":setup 5", ":setup 4", ":game catalyst", ":setup 2"]
    result = run_cli("play", "--with", "perlae-imperii", input="\n".join(lines) + "\n")
    assert result.exit_code == 2  # (two of the lines were errors: told on standard error)
    flat = " ".join(result.output.split())
    assert "Which game? Choose it with :game SLUG, then :setup N." in flat
    assert "Res Arcana with Perlae Imperii: setup for 5 players" in flat and "set out 7 of them" in flat and "deal 14 of them" in flat
    assert "Error: Res Arcana with Perlae Imperii is played by 2 to 5 players, not 6" in flat
    assert "Error: Res Arcana is played by 2 to 4 players, not 5" in flat
    assert "Res Arcana: setup for 4 players" in flat and "Lay out 5 places of power" in flat
    assert "Catalyst: setup for 2 players" in flat and "keep only the Buildings numbered 1 and 3;" in flat


def test_a_step_in_another_language_is_its_own_text_only():
    """A step's text in another language (`text-fr`) is given for its own text, values filled in; where an expansion
    no source covers says the step otherwise (its `open` text), that text is said, in every language: the
    translation would state numbers it withholds."""
    from rulebot.corpus.setup import ExpansionSetup, GameSetup, SetupStep

    docks = SetupStep(id="docks", order=10, entry="e", text="Lay out {d} docks.", values={"d": {2: "3", 3: "4"}}, translations={"fr": "Disposez {d} quais."})
    setup = GameSetup(
        game="toy", players=(2, 3), steps=(docks,),
        expansions=(ExpansionSetup(expansion="tides", uncovered="Its setup is in no source.", opens=(("docks", "Lay out the docks.", "how many"),)),),
    )
    assert [step.text for step in setup.checklist(2, (), "fr").steps] == ["Disposez 3 quais."]
    assert [step.text for step in setup.checklist(2, (), "en").steps] == ["Lay out 3 docks."]
    assert [step.text for step in setup.checklist(2, ("tides",), "fr").steps] == ["Lay out the docks."]
    assert GameSetup.from_json(setup.to_json()) == setup


def test_setup_in_french(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`setup --lang fr` (or `config set lang fr`) prints the checklist in French: its words, and the steps and note
    where the setup gives them in French (Molthar's); another game's steps stay as the setup gives them."""
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
    french = run_cli("setup", "molthar", "3", "--lang", "FR").stdout.splitlines()
    assert french[0] == "Die Portale von Molthar : mise en place à 3 joueurs" and french[1].startswith("Note : Les règles ne disent pas")
    assert any(line.startswith("1. Mélangez les cartes Perle") for line in french)
    assert json.loads(run_cli("setup", "molthar", "3", "--lang", "fr", "--json").stdout)["steps"][0]["text"].startswith("Mélangez")
    assert run_cli("setup", "molthar", "3").stdout.startswith("Die Portale von Molthar: setup for 3 players\nNote: The rules")
    assert run_cli("config", "set", "lang", "fr").exit_code == 0
    arcana = run_cli("setup", "res-arcana", "3").stdout.splitlines()
    assert arcana[0] == "Res Arcana : mise en place à 3 joueurs" and arcana[1].startswith("Note : The base rules summary")
