"""Answers as players need them: French questions, vocabularies kept to their game, answers made of
several entries, several games, expansions that say which game, and a confidence flag that means it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MINIMAL, SHIPPED_GAMES, game_toml, rulebot_process, write_corpus

from rulebot import answering
from rulebot.cli import output
from rulebot.index.cache import open_index
from rulebot.search import features
from rulebot.search.ranking import Searcher

HARBOR_TOML = """\
slug = "harbor"
name = "Lantern Harbor"
id_prefix = "lh"

[[expansions]]
slug = "tides"
name = "Deep Tides"

[[sources]]
id = "rules"
title = "Harbor rules"

[[sources]]
id = "tides"
title = "Deep Tides rules"
expansion = "tides"

[vocabulary]
synonyms = [["shells", "money"]]
french = [["coquillage", "coquillages", "shell", "shells"], ["bateau", "bateaux", "ferry", "ferries"], ["garde", "garder", "keep"]]
"""
ORCHARD_TOML = """\
slug = "orchard"
name = "Orchard"
id_prefix = "or"

[[sources]]
id = "rules"
title = "Orchard rules"

[vocabulary]
synonyms = [["apples", "gold"]]
"""
HARBOR_RULES = """\
## lh-shells
title: Shells
kind: rule
section: Shells
see_also: lh-shell-limit

Shells pay for ferries and for the harbour master's favours.

## lh-shell-limit
title: Keeping shells
kind: rule
section: End of turn

At the end of your turn you keep at most 8 shells.

## lh-winning
title: Winning
kind: rule
section: End of the game

The first captain with 10 glory wins.

## lh-ferry-table
title: Ferries by player count
kind: setup
section: Setup

| Players | Ferries | Docks |
|:---:|:---:|:---:|
| 2 players | 3 | 4 |
| 3 players | 5 | 6 |

## lh-cargo
title: Cargo
kind: rule
section: Ferries

Ferries carry barrels of apples between the docks.

## lh-tie
title: Ties
kind: rule
section: End of the game

When captains tie for glory, the one with more shells wins.
"""
TIDES_RULES = """\
## lh-tides-winning
title: Winning with Deep Tides
kind: rule
section: End of the game
modifies: lh-winning

With Deep Tides, a captain needs 14 glory to win.
"""
ORCHARD_RULES = """\
## or-buying
title: Buying a tree
kind: rule
section: Trees

A grower pays for a tree with apples.

## or-tie
title: Ties
kind: rule
section: End of the game

When growers tie, the one with more trees wins.

## or-painting
title: Painting a tree
kind: rule
section: Trees

A grower paints a tree with gold.
"""


@pytest.fixture
def two_games(tmp_path: Path):
    root = write_corpus(
        tmp_path / "corpus",
        {
            "harbor/game.toml": HARBOR_TOML,
            "harbor/rules.md": HARBOR_RULES,
            "harbor/tides.md": TIDES_RULES,
            "orchard/game.toml": ORCHARD_TOML,
            "orchard/rules.md": ORCHARD_RULES,
        },
    )
    with Searcher(open_index([root])) as searcher:
        yield searcher


class TestFrench:
    def test_a_french_question_is_recognised(self, two_games: Searcher):
        """Grammar words and accents make a question French; an English one stays English."""
        assert two_games.ask("combien de coquillages je garde ?").language == "fr"
        assert two_games.ask("how many shells can i keep").language == "en"

    def test_french_words_of_the_vocabulary_answer_french_questions(self, two_games: Searcher):
        """A French question finds the English ruling through the vocabulary's French words."""
        assert two_games.ask("combien de coquillages je garde à la fin du tour ?").results[0].id == "lh-shell-limit"

    def test_everyday_french_words_reach_any_games_english_rules(self, two_games: Searcher):
        """A game of a curator's own folder, with no French word of its own for it, answers a French question through
        the everyday words every game has (rulebot/language/everyday.toml): "égalité" for tie, "gagne" for wins."""
        answer = two_games.ask("en cas d'égalité qui gagne ?", game="orchard")
        assert answer.language == "fr" and answer.results[0].id == "or-tie"

    def test_everyday_synonyms_reach_any_game(self, two_games: Searcher):
        """Everyday English words too, in games whose vocabulary lacks them: "tiebreaker" for a tie, "maximum" for a
        rule's "at most", "winner" for "wins"."""
        assert two_games.ask("tiebreaker", game="orchard").results[0].id == "or-tie"
        assert two_games.ask("shell maximum", game="harbor").results[0].id == "lh-shell-limit"
        assert two_games.ask("who is the winner", game="harbor").results[0].id == "lh-winning"

    def test_table_talk_reaches_the_rules_words(self, tmp_path: Path):
        """Card players' table talk for the words rules use, in a game whose vocabulary has none of it: a unit
        "killed" is defeated, "dmg" is damage, an "opp" an opponent, a "tapped" card an exhausted one, "hp" its
        health."""
        root = write_corpus(tmp_path / "talk-corpus", {
            "talk/game.toml": game_toml("talk"),
            "talk/rules.md": "## talk-defeated\ntitle: Leaving the arena\nkind: rule\nsection: Units\n\n"
                             "A unit with no hit points left is defeated and goes to the pit.\n\n"
                             "## talk-damage\ntitle: Wounds\nkind: rule\nsection: Units\n\n"
                             "Damage dealt to a unit stays on it until the end of the round.\n\n"
                             "## talk-rivals\ntitle: Rivals\nkind: rule\nsection: Players\n\n"
                             "Each opponent keeps their reserve face down.\n\n"
                             "## talk-resting\ntitle: Resting units\nkind: rule\nsection: Units\n\n"
                             "An exhausted unit cannot guard a gate.\n",
        })
        with Searcher(open_index([root])) as searcher:
            for question, expected in (("my unit got killed, where does it go", "talk-defeated"), ("does dmg stay", "talk-damage"),
                                       ("can i see my opp's reserve", "talk-rivals"), ("can a tapped unit guard", "talk-resting")):
                assert searcher.ask(question).results[0].id == expected, question
            assert searcher.ask("unit with 0 hp").results[0].id == "talk-defeated"

    def test_a_past_form_reaches_the_rules_present(self, tmp_path: Path, two_games: Searcher):
        """Players tell what happened ("we ran out"), rules say what happens ("runs out"): no stem joins the two, the
        everyday words do: "won" is a win, and the "won" of "won't" none."""
        root = write_corpus(tmp_path / "toy-corpus", {
            "toy/game.toml": game_toml("toy"),
            "toy/rules.md": "## toy-purse\ntitle: Starting purse\nkind: rule\nsection: Setup\n\nEach captain starts with 3 shells from the supply.\n\n"
                            "## toy-supply\ntitle: Components\nkind: rule\nsection: Components\n\nIf the supply runs out of shells, use any substitute.\n",
        })
        with Searcher(open_index([root])) as searcher:
            assert [hit.id for hit in searcher.ask("we ran out of shells").results] == ["toy-supply", "toy-purse"]
            assert [hit.id for hit in searcher.ask("the shells ran out").results] == ["toy-supply", "toy-purse"]
        assert two_games.ask("who won", game="harbor").results[0].id == "lh-winning"
        ids = [[hit.id for hit in two_games.ask(q, game="harbor").results] for q in ("i won't keep shells", "i keep shells")]
        assert ids[0] == ids[1]

    def test_an_english_negation_is_one_word(self, tmp_path: Path):
        """"doesn't" is read as players type it without the apostrophe, "doesnt" (question filler): the question
        is answered as without it, and no "doesn" is offered a close spelling ("does t the spy ..."); a question
        an entry answers, asked word for word, is still that question, and a game named with one still named. A
        French "t'" stays a word of its own."""
        from rulebot.language import analysis
        from rulebot.places import shipped_corpus_dir

        assert analysis.words("Doesn't it? Won't we? combien t'en") == ["doesnt", "it", "wont", "we", "combien", "t", "en"]
        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            for negated, plain in (("doesn't the spy need a free space", "does the spy need a free space"),
                                   ("i haven't got enough spice, can i still buy", "i have got enough spice, can i still buy")):
                answer = searcher.ask(negated, game="dune-imperium")
                assert answer.suggestions == ()
                assert [hit.id for hit in answer.results] == [hit.id for hit in searcher.ask(plain, game="dune-imperium").results]
        root = write_corpus(tmp_path / "stop-corpus", {
            "stop/game.toml": 'slug = "stop"\nname = "Can\'t Stop"\nid_prefix = "cs"\n\n[[sources]]\nid = "rules"\ntitle = "Rules"\n',
            "stop/rules.md": "## cs-bust\ntitle: Going bust\nkind: rule\nsection: Turn\nasked: what if i can't place a runner\n\n"
                             "A player who can place no runner loses the progress of the turn.\n",
        })
        with Searcher(open_index([root, MINIMAL])) as searcher:
            answer = searcher.ask("what if i can't place a runner")
            assert answer.results[0].features[features.FEATURES.index("exact")] == 1.0
            named = searcher.ask("can't stop: who wins").results  # asked of Can't Stop: not Lantern Harbor's "Winning the game"
            assert [hit.game for hit in named if hit.game != "stop"] == []
            assert [hit.game for hit in searcher.ask("who wins").results][:1] == ["lantern-harbor"]

    def test_chat_around_a_question_changes_nothing(self, two_games: Searcher):
        """"hey, quick question lol" is no part of what is asked: the answer and how sure it is are the question's."""
        chatty = two_games.ask("hey, question lol: how many shells can u keep tho? thanks", game="harbor")
        plain = two_games.ask("how many shells can i keep", game="harbor")
        assert [hit.id for hit in chatty.results] == [hit.id for hit in plain.results]
        assert (chatty.probability, chatty.confident) == (plain.probability, plain.confident)
        guys = two_games.ask("guys, roughly how many shells can somebody keep, that stuff", game="harbor")
        assert [hit.id for hit in guys.results] == [hit.id for hit in plain.results]
        assert (guys.probability, guys.confident) == (plain.probability, plain.confident)

    def test_french_words_are_not_used_for_english_questions(self, two_games: Searcher):
        """The French list is for French questions only: in English, "bateau" is just an unknown word."""
        answer = two_games.ask("bateau", game="harbor")
        assert not answer.confident


class TestVocabularyStaysInItsGame:
    def test_a_synonym_never_brings_in_another_games_entries(self, two_games: Searcher):
        """Asked with no game, Orchard's gold = apples finds Orchard's apples, never Harbor's."""
        ids = [hit.id for hit in two_games.ask("gold", limit=10).results]
        assert "or-buying" in ids and "lh-cargo" not in ids

    def test_a_synonym_counts_less_than_the_word(self, two_games: Searcher):
        """Of two entries alike but for the word, the one with the word asked comes before the one with its synonym."""
        assert [hit.id for hit in two_games.ask("gold", limit=2).results] == ["or-painting", "or-buying"]


class TestComposedAnswers:
    def test_the_rule_an_expansion_changes_is_part_of_the_answer(self, two_games: Searcher):
        """The expansion's rule comes first and the base rule it changes completes the answer; JSON marks both."""
        answer = two_games.ask("how much glory to win", game="harbor", expansions={"harbor": {"tides"}})
        assert [hit.id for hit in answer.results[:2]] == ["lh-tides-winning", "lh-winning"]
        assert answer.parts == 2
        marked = [r["answer"] for r in json.loads(output.to_json(answer.to_json()))["results"]]
        assert marked[:2] == [True, True] and not any(marked[2:])

    def test_both_parts_are_shown_in_full(self, two_games: Searcher):
        """Both entries of the answer print their text; the other matches are a title line each."""
        answer = two_games.ask("how much glory to win", game="harbor", expansions={"harbor": {"tides"}})
        text = output.answer_text(answer, output.Style(False))
        assert "14 glory" in text and "10 glory" in text


class TestSeveralGames:
    def test_close_answers_from_two_games_are_given_per_game(self, two_games: Searcher):
        """With no game, two games' rulings that score alike are both answered, under their names, and not stood by."""
        answer = two_games.ask("what happens on a tie")
        assert not answer.confident
        assert {answer.results[0].game, *(hit.game for hit in answer.other_games)} == {"harbor", "orchard"}
        data = answer.to_json()
        assert sorted(data["games"]) == ["harbor", "orchard"] and data["confident"] is False
        text = output.answer_text(answer, output.Style(False))
        assert "In Lantern Harbor:" in text and "In Orchard:" in text

    def test_another_games_answer_is_the_expansions_rule_in_play(self, tmp_path: Path):
        """A game answering beside the first one, with an expansion in play that changes its rule: the expansion's entry
        is the one shown for that game, as it would be first were that game's answer the first."""
        orchard = ORCHARD_RULES + "\n## or-end\ntitle: Winning\nkind: rule\nsection: End of the game\n\nThe first player with 10 glory wins the game.\n"
        root = write_corpus(tmp_path / "corpus", {"harbor/game.toml": HARBOR_TOML, "harbor/rules.md": HARBOR_RULES, "harbor/tides.md": TIDES_RULES,
                                                  "orchard/game.toml": ORCHARD_TOML, "orchard/rules.md": orchard})
        with Searcher(open_index([root])) as searcher:
            played = searcher.ask("winning the game", expansions={"harbor": {"tides"}})
            assert played.results[0].id == "or-end" and [hit.id for hit in played.runners_up] == ["lh-tides-winning"]
            base = searcher.ask("winning the game", expansions={"harbor": set()})
            assert [hit.id for hit in base.runners_up] == ["lh-winning"]

    def test_an_expansion_given_says_the_game(self, two_games: Searcher):
        """`--with tides` alone asks Lantern Harbor, whatever the question's words say."""
        answer = answering.answer(two_games, "tie", with_=["tides"])
        assert answer.game == "harbor" and {hit.game for hit in answer.results} == {"harbor"}


class TestPlayerCounts:
    def test_the_row_for_the_player_count_comes_first(self, two_games: Searcher):
        """"with 3 players" prints that row of the table before the entry."""
        answer = two_games.ask("how many ferries with 3 players", game="harbor")
        text = output.answer_text(answer, output.Style(False))
        assert text.splitlines()[0] == "For 3 players: Ferries 5 · Docks 6"
        assert answer.to_json()["players"] == 3


class TestConfidence:
    def test_a_linked_runner_up_does_not_make_an_answer_unsure(self, two_games: Searcher):
        """An entry linked to the best one (See also) is part of the same ruling, not a rival."""
        answer = two_games.ask("keeping shells at the end of your turn", game="harbor")
        assert answer.results[0].id == "lh-shell-limit" and answer.confident

    def test_a_question_mostly_unmatched_is_unsure(self, two_games: Searcher):
        """An entry that matches little of the question is shown, but not stood by."""
        assert not two_games.ask("can the harbour master sail a submarine during a storm", game="harbor").confident


def _flat(text: str) -> str:
    """Output with its line wrapping undone."""
    return " ".join(text.split())


class TestAnotherGamesEntry:
    """A question that names an entry of another game than the one asked of gets that entry, said to be of its game."""

    def test_an_expansion_in_play_does_not_hide_another_games_card(self, run_cli):
        """`ask --with perlae-imperii chaumurky`: Chaumurky is a Dune: Imperium tech tile, answered as one."""
        result = run_cli("ask", "--with", "perlae-imperii", "chaumurky")
        assert result.exit_code == 0
        assert "Not in Res Arcana: Chaumurky is in Dune: Imperium.\n" in result.output
        assert "Chaumurky [fine-point · Dune: Imperium" in _flat(result.output)

    def test_an_expansion_in_play_puts_its_game_first(self, run_cli):
        """What the expansion's game answers stays its answer."""
        data = json.loads(run_cli("ask", "--with", "perlae-imperii", "--json", "how many points to win").stdout)
        assert data["game"] == "res-arcana" and data["instead_of"] is None

    def test_a_card_of_another_game_under_game(self):
        """`ask --game res-arcana "dune assassination mission"`, as typed: the Dune card, said to be of Dune."""
        result = rulebot_process("ask", "--game", "res-arcana", "dune assassination mission")
        assert result.returncode == 0, result.stderr
        first = result.stdout.splitlines()[0]
        assert first == "Not in Res Arcana: Assassination Mission is in Dune: Imperium."
        assert "Did you mean" not in result.stdout and "Assassination Mission [fine-point · Dune: Imperium]" in _flat(result.stdout)
        data = json.loads(rulebot_process("ask", "--game", "res-arcana", "--json", "dune assassination mission").stdout)
        assert data["instead_of"] == {"slug": "res-arcana", "name": "Res Arcana"} and data["game"] == "dune-imperium"
        assert data["results"][0]["id"] == "dune-assassination-mission"

    def test_a_question_naming_no_entry_stays_in_its_game(self, run_cli):
        """A question that names no entry of another game is answered by the game asked of, sure or not."""
        data = json.loads(run_cli("ask", "--game", "res-arcana", "--json", "how many coins can i keep").stdout)
        assert data["instead_of"] is None and {r["game"] for r in data["results"]} == {"res-arcana"}

    def test_play_says_it_too(self, run_cli):
        """`:game res-arcana` then the Dune card, in `play`: the same answer."""
        result = run_cli("play", input=":game res-arcana\ndune assassination mission\n")
        assert "Not in Res Arcana: Assassination Mission is in Dune: Imperium." in result.output
        assert "Did you mean" not in result.output

    @pytest.mark.parametrize(
        "option, game, question",
        [
            ("--game", "res-arcana", "setup"),
            ("--game", "res-arcana", "how do i set up"),
            ("--game", "res-arcana", "dragon"),
            ("--game", "portals-of-molthar", "how does game end work"),
            ("--game", "catalyst", "how does income work"),
            ("--game", "catalyst", "is there a solo mode"),
            ("--game", "res-arcana", "can i play solo"),
            ("--game", "res-arcana", "alliance"),
            ("--game", "catalyst", "display"),
            ("--with", "perlae-imperii", "setup"),
            ("--with", "perlae-imperii", "dragon"),
        ],
    )
    def test_a_question_of_the_game_asked_of_stays_in_it(self, run_cli, option, game, question):
        """Generic words that another game has an entry for ("setup", "solo mode", "alliance") are a question of
        the game asked of: answered from it (stood by or not) or not at all, never from another game's entry."""
        assert run_cli("ask", option, game, question).exit_code in (0, 1, 3)
        data = json.loads(run_cli("ask", option, game, "--json", question).stdout)
        asked = game if option == "--game" else "res-arcana"
        assert data["instead_of"] is None and {r["game"] for r in data["results"]} <= {asked}, data["results"][:1]

    @pytest.mark.parametrize("question", ["chamurky", "chaumurky", "chaumurkey"])
    def test_a_misspelt_card_of_another_game(self, run_cli, question):
        """A close spelling of a name no word of the game asked of resembles is still that card."""
        data = json.loads(run_cli("ask", "--with", "perlae-imperii", "--json", question).stdout)
        assert data["instead_of"] == {"slug": "res-arcana", "name": "Res Arcana"} and data["results"][0]["id"] == "dune-chaumurky"

    @pytest.mark.slow
    @pytest.mark.parametrize("slug", SHIPPED_GAMES)
    def test_no_word_of_a_games_vocabulary_leaves_it(self, slug: str):
        """Every word of a game's vocabulary (synonyms in English and French, terms), asked of that game, is
        answered in it; and no other game's entry that it would find is named by it as a name foreign to the game
        (the rule for a game come first through an expansion)."""
        from rulebot.corpus import load
        from rulebot.places import shipped_corpus_dir

        game = load.load([shipped_corpus_dir()]).games[slug]
        switched = []
        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            for word in sorted({w for group in (*game.synonyms, *game.french) for w in group} | set(game.terms)):
                found = answering.answer(searcher, word, game=slug)
                if found.instead_of:
                    switched.append((word, found.results[0].id))
                wider = searcher.ask(word, limit=1)
                best = wider.results[0] if wider.results else None
                if best and best.game != slug and answering.names_entry(searcher, word, best.data, foreign_to=slug):
                    switched.append((word, best.id))
        assert switched == []


class TestBaseGameOnly:
    """A question that says it is about the base game alone says so in its answer, in text and in JSON."""

    def test_the_answer_says_the_expansions_are_left_out(self, run_cli):
        result = run_cli("ask", "--game", "res-arcana", "how many places of power with 2 players, base game only")
        assert result.exit_code in (0, 3)
        assert "Base game only: the expansions of Res Arcana are left out." in _flat(result.output)
        assert "· Perlae Imperii]" not in _flat(result.output)

    def test_nothing_found_says_it_too(self, run_cli):
        """Pearls are the expansion's: the base game alone has nothing for them, and the answer says why."""
        result = run_cli("ask", "--game", "res-arcana", "can i use pearls without the expansion")
        assert result.exit_code == 1
        assert "Nothing in Res Arcana matches 'can i use pearls without the expansion'.\nBase game only: the expansions are left out." in result.output

    def test_in_french(self, run_cli):
        result = run_cli("ask", "--game", "res-arcana", "combien de lieux de pouvoir à 2 joueurs sans extension")
        assert "Jeu de base seul : les extensions de Res Arcana sont laissées de côté." in _flat(result.output)

    def test_json_names_the_games(self, run_cli):
        said = json.loads(run_cli("ask", "--game", "res-arcana", "--json", "places of power at 2 players without expansions").stdout)
        plain = json.loads(run_cli("ask", "--game", "res-arcana", "--json", "places of power at 2 players").stdout)
        assert said["base_game_only"] == ["res-arcana"] and plain["base_game_only"] == []
        assert all(r["expansion"] in (None, "base") for r in said["results"])


class TestNothingFound:
    def test_nothing_found_names_the_game_by_its_name(self, two_games: Searcher):
        """With the index's games, "nothing in" says the game's name; without them, its slug (all that is known)."""
        answer = two_games.ask("zqxv wkjp", game="harbor")
        assert not answer.results and answer.game == "harbor"
        named = output.answer_text(answer, output.Style(False), games=two_games.games)
        assert named.splitlines()[0] == "Nothing in Lantern Harbor matches 'zqxv wkjp'."
        assert output.answer_text(answer, output.Style(False)).splitlines()[0] == "Nothing in harbor matches 'zqxv wkjp'."
