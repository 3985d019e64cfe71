"""Answering questions: names, typos, French, synonyms, game detection, hostile input."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL, game_toml, write_corpus
from hypothesis import given
from hypothesis import strategies as st

from rulebot.errors import QueryError, UnknownEntryError, UnknownGameError
from rulebot.index.cache import open_index
from rulebot.places import shipped_corpus_dir
from rulebot.search.question import clean_question, make_units
from rulebot.search.ranking import Searcher


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory):
    """A searcher over the shipped corpus, opened once for the module."""
    import os

    os.environ["RULEBOT_CACHE_DIR"] = str(tmp_path_factory.mktemp("search-cache"))
    with Searcher(open_index([shipped_corpus_dir()])) as searcher:
        yield searcher


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory):
    """A searcher over the minimal test corpus."""
    import os

    os.environ["RULEBOT_CACHE_DIR"] = str(tmp_path_factory.mktemp("toy-cache"))
    with Searcher(open_index([MINIMAL])) as searcher:
        yield searcher


def first(searcher: Searcher, question: str, game: str | None = None) -> str:
    return searcher.ask(question, game=game).results[0].id


class TestNames:
    def test_card_name_alone(self, shipped: Searcher):
        """A card name alone finds its entry first."""
        assert first(shipped, "assassination mission") == "dune-assassination-mission"

    def test_card_name_in_a_question(self, shipped: Searcher):
        """A card name inside a sloppy question still wins over filler words."""
        assert first(shipped, "can i trash assassination mission") == "dune-assassination-mission"

    @pytest.mark.parametrize(
        ("question", "expected"),
        [("chamurky", "dune-chaumurky"), ("ilesa ekaz", "dune-ilesa-ecaz"), ("acadamy", "catalyst-academy")],
    )
    def test_typos_in_names(self, shipped: Searcher, question: str, expected: str):
        """A misspelled card name finds the card."""
        assert first(shipped, question) == expected

    def test_redirect_alias(self, shipped: Searcher):
        """A name the source only redirects finds the entry it redirects to."""
        entry = shipped.ask("chani", game="dune-imperium").results[0]
        assert "Chani" in [a["text"] for a in entry.data["aliases"]]


class TestLanguages:
    def test_french_alias(self, toy: Searcher):
        """A French alias finds its entry."""
        assert first(toy, "mouette du bac") == "lh-ferry-gull"

    def test_accent_folding(self, toy: Searcher):
        """An unaccented French word finds the accented alias, and the reverse."""
        assert first(toy, "egalite") == "lh-lantern-keeper"
        assert first(toy, "égalité") == "lh-lantern-keeper"

    def test_french_question_on_shipped_corpus(self, shipped: Searcher):
        """A French question finds a Molthar entry without naming the game."""
        assert shipped.ask("qui peut activer le feu follet").results[0].game == "portals-of-molthar"


class TestAskedAs:
    CORPUS = {
        "toy/game.toml": game_toml("toy"),
        "toy/rules.md": (
            "## toy-purse\ntitle: Shells at the start\nkind: setup\nsection: Setup\n"
            "asked: how much money do we begin with\nasked-fr: combien d'argent au début\n\n"
            "Each captain takes 3 shells.\n\n"
            "## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\n\nA ferry may dock where a captain begins a turn.\n"
        ),
    }

    @pytest.fixture
    def asked(self, tmp_path: Path):
        with Searcher(open_index([write_corpus(tmp_path / "corpus", self.CORPUS)])) as searcher:
            yield searcher

    @pytest.mark.parametrize("question", ["money at the beginning?", "combien d'argent au debut"])
    def test_a_question_players_ask_finds_its_entry(self, asked: Searcher, question: str):
        """Words found only in an entry's `asked` questions (English or French) find that entry."""
        answer = asked.ask(question)
        assert answer.results[0].id == "toy-purse"
        assert answer.results[0].data["asked"][0] == {"text": "how much money do we begin with", "lang": "en"}


class TestVocabulary:
    def test_synonym_from_game_vocabulary(self, toy: Searcher):
        """A word of a synonym group finds entries written with another member."""
        assert first(toy, "how much money do captains start with") == "lh-setup"

    def test_units_group_synonym_phrases(self):
        """A synonym phrase becomes one unit with every alternative."""
        table = {("victori", "point"): (("victory", "points"), ("vp",)), ("vp",): (("victory", "points"), ("vp",))}
        units = make_units(["how", "many", "victory", "points"], table)
        assert [u.words for u in units] == [("victory", "points")]
        assert ("vp",) in units[0].alternatives

    @pytest.mark.parametrize("word", ["most", "only", "again", "before", "after"])
    def test_words_that_tell_rules_apart_are_searched(self, word: str):
        """"most coins" asks for a majority, "only", "again", "before", "after" for a rule's limits: no filler."""
        units = make_units(["who", "has", word, "coins"], {})
        assert [u.words for u in units] == [(word,), ("coins",)]

    @pytest.mark.parametrize(
        "words",
        [["what", "does", "mill", "mean"], ["mill", "meaning"], ["what", "is", "meant", "by", "mill"], ["que", "signifie", "mill"],
         ["que", "veut", "dire", "mill"]],
    )
    def test_asking_what_a_word_means_searches_the_word(self, words: list[str]):
        """"what does mill mean": the question asks of mill; "mean" would find the rules that say what other
        terms mean ("Dredge N means ...") before the one about mill."""
        assert [u.words for u in make_units(words, {})] == [("mill",)]

    @pytest.mark.parametrize(
        ("words", "valued"),
        [(["crew", "3"], True), (["scry", "2"], True), (["with", "3"], False), (["3", "crew"], False), (["2", "3"], False),
         (["crew", "300"], False), (["crew", "٣"], False)],
    )
    def test_a_number_after_a_term_is_its_value(self, words: list[str], valued: bool):
        """"crew 3": a number of one or two digits right after a term may match the term and what a rule writes
        for its value ("Crew N", "Crew X"); after filler, another number or nothing, or of more digits, it is only
        itself."""
        units = make_units(words, {})
        number = units[-1] if words[-1] != "crew" else units[0]
        assert ((words[0], "n") in number.alternatives and (words[0], "x") in number.alternatives) is valued
        assert ("x",) not in number.alternatives

    def test_a_value_reaches_the_terms_synonyms_and_a_number_said_in_words(self):
        """The value of "pilot 3" where pilot means crew may be "Crew N"; "piocher 2", where 2 has its French
        words, may be "piocher N"."""
        crew = {("pilot",): (("pilot",), ("crew",)), ("crew",): (("pilot",), ("crew",))}
        assert ("crew", "n") in make_units(["pilot", "3"], crew)[-1].alternatives
        two = {("2",): (("deux",), ("2",), ("two",)), ("deux",): (("deux",), ("2",), ("two",))}
        number = make_units(["piocher", "2"], two)[-1]
        assert ("deux",) in number.alternatives and ("piocher", "x") in number.alternatives
        assert make_units(["deux", "3"], two)[-1].alternatives == (("3",),)  # a number gives no number a value

    def test_a_value_matches_with_its_term_or_not_at_all(self, toy: Searcher):
        """In a field whose analysis drops the placeholder (in French, "n" is a stop word), the term and its
        placeholder are no clause at all: the term alone would count the number as found wherever the term is."""
        question = toy.reading.read("perle 1", game=None, in_play={}, official_only=False)
        unit = make_units(list(question.words), {})[-1]
        clauses = [clause for field in toy.clauses.of_unit(unit, question, False) for clause in field]
        assert not any(clause.words == ("perl",) for clause in clauses), clauses
        assert any(clause.words == ("perl", "n") for clause in clauses)

    @pytest.mark.parametrize("rule", ["Ward N means that when an opponent targets this card, they pay N more",
                                      "Ward [cost] means that when an opponent targets this card, they pay [cost] more"])
    def test_the_rule_of_a_valued_term_is_first(self, tmp_path: Path, rule: str):
        """"ward 2" finds the rule that says what "Ward N" (or "Ward [cost]") does before an entry that happens to hold
        both words."""
        import os

        root = write_corpus(tmp_path / "c", {
            "keep/game.toml": game_toml("keep"),
            "keep/rules.md": "## keep-ward\ntitle: Ward\nkind: rule\nsection: Keywords\n\n"
                             f"{rule} or the effect is cancelled.\n\n"
                             "## keep-cloak\ntitle: Cloak\nkind: rule\nsection: Keywords\n\n"
                             "A cloaked card is a 2/2 creature with ward 2 until it is turned face up.\n",
        })
        os.environ["RULEBOT_CACHE_DIR"] = str(tmp_path / "cache")
        with Searcher(open_index([root])) as searcher:
            assert first(searcher, "ward 2") == "keep-ward"

    def test_dies_is_said_of_a_piece_defeated_and_a_die_stays_a_die(self, tmp_path: Path):
        """"my unit dies" finds the rule of defeated units (everyday words); "reroll a die" still the dice rule,
        though "die" is the stem of "dies" too."""
        import os

        root = write_corpus(tmp_path / "c", {
            "keep/game.toml": game_toml("keep"),
            "keep/rules.md": "## keep-units\ntitle: Units\nkind: rule\nsection: Cards\n\n"
                             "A unit enters play ready, and may attack once each round.\n\n"
                             "## keep-defeated\ntitle: Defeated\nkind: rule\nsection: Damage\n\n"
                             "A unit with as much damage as its health is defeated and goes to its owner's discard pile.\n\n"
                             "## keep-reroll\ntitle: Rerolling\nkind: rule\nsection: Attacks\n\n"
                             "A player may reroll a die showing a blank result, once per attack.\n",
        })
        os.environ["RULEBOT_CACHE_DIR"] = str(tmp_path / "cache")
        with Searcher(open_index([root])) as searcher:
            assert first(searcher, "what happens when my unit dies") == "keep-defeated"
            assert first(searcher, "can i reroll a die twice") == "keep-reroll"

    def test_a_synonym_of_several_words_names_only_a_name_holding_it_whole(self):
        """"deck", whose synonym is "draw pile", names a "Draw pile" entry, not "Draw a pearl": none of the synonym's
        words alone is meant. A one-word synonym still names ("vp" for "Points")."""
        from rulebot.language.analysis import name_stems
        from rulebot.search.question import Unit
        from rulebot.search.signals import meaning, name_bonus

        class NoSpellings:
            def of(self, word: str) -> list[tuple[str, ...]]:
                return []

        def lift(units: list[Unit], name: str) -> float:
            entry = {"name_stems": [name_stems(name)]}  # as the index keeps a name
            return name_bonus(entry, [meaning(unit, NoSpellings()) for unit in units], 0.5)  # type: ignore[arg-type]

        pearl, deck = Unit(("pearl",), (("pearl",),)), Unit(("deck",), (("deck",), ("draw", "pile")))
        assert lift([pearl, deck], "pearl draw pile") > 1
        assert lift([pearl, deck], "draw pearl") == 1  # "pearl deck": the deck of pearls, not drawing one
        vp = Unit(("vp",), (("vp",), ("victory", "points"), ("points",)))
        assert lift([vp], "points") > 1 and lift([vp], "victory points") > 1
        # a synonym's words are a name's stems: its filler is no word the name must hold
        eot = Unit(("eot",), (("eot",), ("end", "of", "turn")))
        assert lift([eot], "end of turn") > 1
        # a number's value ("crew 3": "Crew N") names nothing: "Crew" is named by "crew" alone, not as the whole question
        crew, three = make_units(["crew", "3"], {})
        assert 1 < lift([crew, three], "crew") < lift([crew], "crew")

    def test_a_player_count_is_more_than_a_name(self):
        """"building setup 3p" asks for three players besides the words of the name "Building setup": the name is
        named, but not as the whole question (its lift is a part's, not an exact name's)."""
        from rulebot.language.analysis import stem
        from rulebot.search.constants import EXACT_NAME
        from rulebot.search.question import Unit
        from rulebot.search.signals import meaning, name_bonus

        class NoSpellings:
            def of(self, word: str) -> list[tuple[str, ...]]:
                return []

        units = [meaning(Unit((w,), ((w,),)), NoSpellings()) for w in ("building", "setup")]
        entry = {"name_stems": [[stem("building"), stem("setup")]]}
        assert name_bonus(entry, units, 0.5) == EXACT_NAME  # type: ignore[arg-type]
        assert 1 < name_bonus(entry, units, 0.5, beyond=1) < EXACT_NAME  # type: ignore[arg-type]


class TestPhraseFoundNowhere:
    """Words typed together that a synonym group holds are one phrase; when no entry holds it in any of the group's
    wordings, the words are searched apart."""

    GAME = (
        game_toml("toy") + '\n'
        '[vocabulary]\nsynonyms = [["last round", "final round"]]\n'
    )
    RULES = (
        "## toy-end\ntitle: Game end\nkind: rule\nsection: End\n\n"
        "When the bag is empty, the round being played is the last one.\n\n"
        "## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\n\nA ferry may dock where a captain begins a round.\n"
    )
    FINAL = "\n## toy-final\ntitle: Final round\nkind: rule\nsection: End\n\nIn the final round, nobody may dock.\n"

    def test_units_keep_apart_the_runs_they_are_told(self):
        """A run of words kept apart is no unit, but its words are."""
        table = {("last", "round"): (("last", "round"), ("final", "round")), ("final", "round"): (("last", "round"), ("final", "round"))}
        assert [u.words for u in make_units(["the", "last", "round"], table)] == [("last", "round")]
        units = make_units(["the", "last", "round"], table, apart={("last", "round")})
        assert [u.alternatives for u in units] == [(("last",),), (("round",),)]

    @pytest.mark.parametrize("game", ["toy", None])
    def test_a_phrase_no_entry_holds_is_searched_as_its_words(self, tmp_path: Path, game: str | None):
        """"last round", which no entry says in any wording, finds the entry holding both words (it found nothing
        when it was searched as one phrase), with the game given or not."""
        corpus = write_corpus(tmp_path / "corpus", {"toy/game.toml": self.GAME, "toy/rules.md": self.RULES})
        with Searcher(open_index([corpus])) as searcher:
            answer = searcher.ask("what happens in the last round", game=game)
        assert [hit.id for hit in answer.results][:1] == ["toy-end"]
        assert answer.results[0].coverage == 1.0

    def test_a_phrase_some_entry_holds_stays_one(self, tmp_path: Path):
        """Where an entry says the phrase (in another of its wordings), it is still searched as one: an entry with
        both words elsewhere does not match it."""
        corpus = write_corpus(tmp_path / "corpus", {"toy/game.toml": self.GAME, "toy/rules.md": self.RULES + self.FINAL})
        with Searcher(open_index([corpus])) as searcher:
            answer = searcher.ask("last round", game="toy")
        assert [hit.id for hit in answer.results] == ["toy-final"]


class TestBaseGame:
    """A question that says it is about the base game alone is read as `--with base` is."""

    @pytest.mark.parametrize(
        ("question", "saying"),
        [
            ("how many places of power with 2 players", "base game only"),
            ("how many places of power with 2 players", "in the base game"),
            ("how many places of power with 2 players", "without expansions"),
            ("combien de lieux de pouvoir à 2 joueurs", "sans extension"),
            ("combien de lieux de pouvoir à 2 joueurs", "jeu de base"),
        ],
    )
    def test_base_game_only_leaves_the_expansions_out(self, shipped: Searcher, question: str, saying: str):
        said = shipped.ask(f"{question} {saying}", game="res-arcana", limit=10)
        given = shipped.ask(question, game="res-arcana", expansions={"res-arcana": set()}, limit=10)
        assert [h.id for h in said.results] == [h.id for h in given.results]
        assert all(h.data["expansion"] in (None, "base") for h in said.results)

    def test_without_it_the_expansions_answer_too(self, shipped: Searcher):
        answer = shipped.ask("how many places of power with 2 players", game="res-arcana", limit=10)
        assert any(h.data["expansion"] not in (None, "base") for h in answer.results)

    def test_the_question_wins_over_an_expansion_in_play(self, shipped: Searcher):
        """What the question says now wins over `--with` and the saved defaults (which reach the search alike), and
        the answer says which games' expansions it left out."""
        answer = shipped.ask("how many places of power with 2 players base game only", game="res-arcana",
                             expansions={"res-arcana": {"perlae-imperii"}}, limit=10)
        assert all(h.data["expansion"] in (None, "base") for h in answer.results)
        assert answer.base_game_only == ("res-arcana",)

    @pytest.mark.parametrize(
        ("question", "game"),
        [
            ("how does perlae imperii change the base game setup", None),  # names an expansion: what it changes
            ("how do i add the expansion to the base game", None),  # speaks of expansions
            ("does rise of ix replace base game cards", "dune-imperium"),
            ("base game setup", None),  # a bare "base game" needs a game given or named
            ("base game only", None),  # nothing else is asked
            ("res arcana base game only", None),
            ("perlae imperii places of power without expansions", None),  # an expansion named, its game not
            ("rise of ix dreadnought no expansions", None),
        ],
    )
    def test_no_such_reading(self, shipped: Searcher, question: str, game: str | None):
        answer = shipped.ask(question, game=game, limit=10)
        assert answer.base_game_only == ()
        assert answer.results

    def test_nothing_left_in_the_base_game(self, shipped: Searcher):
        """A question the base game does not answer finds nothing, and its close titles are of the base game too."""
        answer = shipped.ask("can i use pearls without the expansion", game="res-arcana")
        assert answer.base_game_only == ("res-arcana",)
        assert all(shipped.get(t["id"])["expansion"] in (None, "base") for t in answer.close_titles)

    def test_a_game_whose_rules_say_base(self, tmp_path: Path):
        """Beside games that have expansions, "base game" in a question naming no game is words of a game's rules
        (a card type called a base), never a reading: its entries are found by them."""
        import os

        root = write_corpus(tmp_path / "c", {
            "outpost/game.toml": 'slug = "outpost"\nname = "Star Outpost"\nid_prefix = "outpost"\n\n[[sources]]\nid = "rules"\n'
                                 'title = "Outpost rules"\n',
            "outpost/rules.md": "## outpost-base-destroyed\ntitle: Base destroyed\nkind: rule\nsection: End\n\n"
                                "When your base takes 30 damage, the game is over and you lose.\n",
        })
        os.environ["RULEBOT_CACHE_DIR"] = str(tmp_path / "cache")
        with Searcher(open_index([shipped_corpus_dir(), root])) as searcher:
            answer = searcher.ask("30 damage on my base, game over?")
        assert answer.base_game_only == () and answer.results[0].id == "outpost-base-destroyed"


class TestGames:
    def test_game_detected_from_terms(self, shipped: Searcher):
        """Without a game, the question's terms pick the right game."""
        assert shipped.ask("how many coins can i keep at the end of my turn").results[0].game == "catalyst"

    def test_game_named_in_question(self, shipped: Searcher):
        """Naming the game restricts the answer to it."""
        answer = shipped.ask("res arcana victory")
        assert {h.game for h in answer.results} == {"res-arcana"}

    @pytest.mark.parametrize(
        ("question", "game"),
        [
            ("res arcna who wins a tie", "res-arcana"),
            ("ras arcana who wins a tie", "res-arcana"),
            ("dune imperum can i trash a card i bought", "dune-imperium"),
            ("moltar how many cards in hand", "portals-of-molthar"),
            ("portal of molthar how many cards in hand", "portals-of-molthar"),
        ],
    )
    def test_game_named_with_a_typo(self, shipped: Searcher, question: str, game: str):
        """A long enough name with a typo names its game as written, and is no word to search for."""
        answer = shipped.ask(question)
        assert answer.games == (game,) and {h.game for h in answer.results} == {game}
        def read(game: str | None) -> tuple[str, ...]:
            return shipped.reading.read(question, game=game, in_play={}, official_only=False).words

        assert read(None) == read(game) and len(read(None)) < len(question.split())

    @pytest.mark.parametrize(
        ("question", "games", "kept"),
        [("im done, whose turn is it", (), "done"), ("dune imperial spy", ("dune-imperium",), "imperial"), ("rest arcane who wins a tie", (), "rest"),
         ("can a building have two catalysts", (), "catalysts")],
    )
    def test_a_short_name_or_a_word_further_off_names_no_game(self, shipped: Searcher, question: str, games: tuple, kept: str):
        """A short name is read only as written ("done" is one edit from "dune"), and a name with more typos than its
        length allows, or two in one word ("imperial" for "imperium"), or another form of it ("catalysts", the cards),
        is no typo of it: those words are searched."""
        read = shipped.reading.read(question, game=None, in_play={}, official_only=False)
        assert read.games == games and kept in read.words

    @given(st.text("abcd", max_size=7), st.text("abcd", max_size=7))
    def test_a_names_typos_are_counted_as_close_spellings_are(self, a: str, b: str):
        """The edits by which a word of the question may be a game's name's are the close spellings' distance
        (up to the one a word allows)."""
        from rulebot.search.question import _edits
        from rulebot.search.spelling import distance

        assert _edits(a, b) == min(distance(a, b), 2)

    def test_unknown_game(self, shipped: Searcher):
        """An unknown game slug is an error naming the known ones."""
        with pytest.raises(UnknownGameError, match="catalyst"):
            shipped.ask("anything", game="chess")

    def test_every_game_answers(self, shipped: Searcher):
        """Each game of the shipped corpus answers a question about its own ending."""
        for slug in shipped.games:
            answer = shipped.ask("end of the game", game=slug)
            assert answer.results and answer.results[0].game == slug


class TestEachQuestionAlone:
    QUESTIONS = [
        ("end of the market", {"official_only": True}),
        ("end of the market", {}),
        ("mouette du bac", {}),
        ("winning the game", {"expansions": {"lantern-harbor": set()}}),
        ("winning the game", {}),
        ("harbor game whirlpool", {}),
        ("whirlpol", {"game": "lantern-harbor"}),
    ]

    @pytest.fixture
    def two_games(self):
        """A searcher over two games: one with an expansion and French aliases, one with house rules."""
        curation = Path(__file__).parent / "corpora" / "site-curation"
        with Searcher(open_index([MINIMAL, curation / "base", curation / "house"])) as searcher:
            yield searcher

    @staticmethod
    def answered(searcher: Searcher, question: str, options: dict) -> tuple:
        answer = searcher.ask(question, **options)
        return (
            [(h.id, h.score) for h in answer.results], [h.id for h in answer.other_games], answer.game,
            answer.language, answer.confident, answer.parts, answer.suggestions, answer.close_titles,
        )

    def test_a_question_is_answered_alike_after_any_other(self, two_games: Searcher):
        """Nothing of one question (its language, game, expansions, official only) is kept for the next:
        each is answered as by a searcher that never answered another."""
        alone = [self.answered(Searcher(two_games.opened), q, options) for q, options in self.QUESTIONS]
        assert [self.answered(two_games, q, options) for q, options in self.QUESTIONS] == alone
        assert [self.answered(two_games, q, options) for q, options in reversed(self.QUESTIONS)] == alone[::-1]


def test_the_ranking_constants_load_nothing_else():
    """rulebot.search.constants, for whatever shows or mirrors the ranking, loads no other module of rulebot."""
    import subprocess
    import sys

    code = (
        "import sys; before = set(sys.modules); import rulebot.search.constants;"
        " print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] == 'rulebot'))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['rulebot', 'rulebot.search', 'rulebot.search.constants', 'rulebot.version']"


class TestUnsure:
    def test_nonsense_gives_no_confident_answer(self, shipped: Searcher):
        """Words absent from the corpus give no confident answer."""
        assert not shipped.ask("xylophone quasar").confident

    def test_did_you_mean(self, toy: Searcher):
        """A misspelled word outside any name gets a corrected suggestion."""
        answer = toy.ask("whirlpoool")
        assert answer.results[0].id == "lh-tides-whirlpool"

    def test_a_suggestion_is_the_question_as_typed(self, toy: Searcher):
        """"Did you mean" is the player's question with the typo respelled: its case, its punctuation and a negation,
        one word to the search ("doesnt"), as written."""
        answer = toy.ask("Doesn't the whirlpoool sink ferries?")
        assert not answer.confident and answer.suggestions == ("Doesn't the whirlpool sink ferries?",)

    def test_a_suggestion_offers_names_words_and_keeps_the_question_whole(self, shipped: Searcher):
        """"Did you mean" respells a word as a word of an entry's name ("diamnds": Diamonds), never as a stem of
        the texts ("throwing" is no "three"), and only as one the answer's first entries are named by, in the case
        it was typed in; and shows the question whole: the game it names stays, and a typo after many words of
        filler is still read."""
        assert shipped.ask("molthar how many diamnds").suggestions == ("molthar how many diamonds",)
        assert shipped.ask("How does FOLDSPCE work?").suggestions == ("How does FOLDSPACE work?",)  # as typed: capitals
        # Each occurrence in its own case. (Asked, this one is answered for sure, Foldspace's card first: a sure
        # answer offers no other reading of the question.)
        again = "Foldspce and foldspce again?"
        respelled = shipped.spellings.suggestions(again, "en", shipped.reading.phrase_stems("en"), shipped.reading.game_words, {"foldspace"})
        assert respelled == ["Foldspace and foldspace again?"]
        answer = shipped.ask(again)
        assert answer.results[0].id == "dune-foldspace" and answer.suggestions == (() if answer.confident else tuple(respelled))
        chatty = "hey so um i was just wondering if you could tell me how it is that the thing with the cards and the stuff "
        chatty += "and all that is done when we are in a game and how foldspce works"  # (past MAX_UNITS words, not units)
        assert shipped.ask(chatty).suggestions == (chatty.replace("foldspce", "foldspace"),)
        nonsense = shipped.ask("throwing zzyzx")
        assert not nonsense.confident and nonsense.suggestions == ()
        # "slot" is one letter from a name's "shot", but no entry the answer gives first is named so: no typo
        everyday = shipped.ask("which slot is cheapest", game="catalyst")
        assert not everyday.confident and everyday.suggestions == ()

    def test_french_words_are_no_typos(self, shipped: Searcher):
        """A French question's words that the French texts use, that French leaves out as stop words ("même") or
        that a game's French vocabulary has ("militaire") are never respelled as English words ("mere", "tour",
        "military")."""
        answer = shipped.ask("c'est quoi la meme chose que le tout")
        assert answer.language == "fr" and not answer.confident and answer.suggestions == ()
        stop_words = shipped.ask("notre zzyzx, ils sont ou")  # no French text has "notre" nor "sont": French drops them
        assert stop_words.language == "fr" and not stop_words.confident and stop_words.suggestions == ()
        vocabulary = shipped.ask("la puissance militaire zzyzx", game="catalyst")  # Catalyst's French: "militaire"
        assert vocabulary.language == "fr" and not vocabulary.confident and vocabulary.suggestions == ()


class TestHostileInput:
    @pytest.mark.parametrize(
        "question",
        ['title:*', "(", '"', "*", "AND", "OR NOT", "a* b? ~2 ^3", "id:dune-*", "\x00\x07 bell", "\u202eevil", "🂡 🃏", "\ud800 lone"],
    )
    def test_query_syntax_is_plain_text(self, toy: Searcher, question: str):
        """Query syntax and odd characters are plain text: an answer, never a crash."""
        try:
            toy.ask(question)
        except QueryError:
            pass  # nothing searchable is a clean refusal

    def test_too_long_is_refused(self, toy: Searcher):
        """A 100 KB question is refused with a message."""
        with pytest.raises(QueryError, match="too long"):
            toy.ask("ferry " * 20000)

    def test_question_words_alone_are_refused(self, shipped: Searcher):
        """A question of question words alone asks nothing: refused with what it lacks, in either language. A player
        count, a game's name (alone or asked about), or a word of a game's vocabulary is still a question."""
        for question in ("what", "combien ???", "can i", "how many?", "don't", "isn't it"):
            with pytest.raises(QueryError, match="only question words and common words"):
                shipped.ask(question)
        for question in ("how many players", "3 players", "dune", "what is dune", "what is a catalyst", "combien de dés ?"):
            assert shipped.ask(question).results, question  # ("dés", dice, folds to the filler "des": no filler)
        assert shipped.ask("or", game="res-arcana").results  # (question filler, and Res Arcana's gold in French)

    def test_question_words_naming_an_entry_are_answered(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Question words that name an entry as typed ("the mine", a card called "Mine") are answered by it; a close
        spelling of a name is no such naming."""
        monkeypatch.setenv("RULEBOT_CACHE_DIR", str(tmp_path / "cache"))
        root = write_corpus(tmp_path / "c", {
            "toy/game.toml": game_toml("toy"),
            "toy/rules.md": "## toy-mine\ntitle: Mine\nkind: rule\nsection: Cards\n\nA mine gives one gold a round.\n\n"
                            "## toy-whale\ntitle: Whale\nkind: rule\nsection: Cards\n\nA whale sinks a boat.\n",
        })
        with Searcher(open_index([root])) as searcher:
            assert searcher.ask("the mine").results[0].id == "toy-mine"
            with pytest.raises(QueryError, match="only question words and common words"):
                searcher.ask("what")  # ("whale" is a close spelling of no word typed)

    def test_a_game_an_expansion_implies_gives_way_when_its_search_refuses(self):
        """`ask --with EXP` of words the game EXP implies refuses but every game's search answers (Catalyst's "either
        or" said as "either", with Rise of Ix in play): every game's answer, as without --with."""
        from rulebot import answering

        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            with pytest.raises(QueryError):
                searcher.ask("either", game="dune-imperium")
            found = answering.answer(searcher, "either", with_=["rise-of-ix"])
            assert [hit.id for hit in found.results] == [hit.id for hit in answering.answer(searcher, "either").results]

    def test_a_game_given_keeps_its_answer_when_every_games_search_refuses(self, monkeypatch: pytest.MonkeyPatch):
        """`ask --game G` of words that G's search answers unsure and the search of every game refuses (question words
        that name an entry of G's only as its answer is found there): G's answer stands, no error."""
        from rulebot import answering

        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            asked = searcher.ask

            def ask(question: str, **options: object):  # type: ignore[no-untyped-def]
                if options.get("game") is None:
                    raise QueryError("the question has only question words and common words (as every game's search found)")
                return asked(question, **options)  # type: ignore[arg-type]

            monkeypatch.setattr(searcher, "ask", ask)
            found = answering.answer(searcher, "what is dune", game="catalyst")
            assert found.results and not found.confident and found.instead_of is None

    def test_empty_is_refused(self):
        """Whitespace and control characters alone are an empty question."""
        with pytest.raises(QueryError, match="empty"):
            clean_question(" \t\x00 ")


class TestLookups:
    def test_get_unknown_suggests_close_ids(self, toy: Searcher):
        """An unknown id is an error that proposes close ids."""
        with pytest.raises(UnknownEntryError, match="lh-setup"):
            toy.get("lh-setpu")

    def test_entries_filters(self, toy: Searcher):
        """entries() filters by game, kind and expansion, in corpus order."""
        assert [e["id"] for e in toy.entries(kind="faq")] == ["lh-tides-winning"]
        assert [e["id"] for e in toy.entries(expansion="deep-tides")] == ["lh-tides-winning", "lh-tides-whirlpool"]
        assert len(toy.entries(game="lantern-harbor")) == 6

    def test_modified_by_in_payload(self, toy: Searcher):
        """An entry's payload names the entries that modify it."""
        assert [m["id"] for m in toy.get("lh-winning")["modified_by"]] == ["lh-tides-winning"]


def test_game_terms_are_counted(toy: Searcher):
    """A game's own terms (vocabulary.terms) in a question are counted, whatever their inflection."""
    from rulebot.language.analysis import stem, words

    assert toy.reading.game_terms_in([stem(w) for w in words("two shells on the docks")], "lantern-harbor") == 2
    assert toy.reading.game_terms_in([stem(w) for w in words("a wizard's tower")], "lantern-harbor") == 0


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=8), st.lists(st.sampled_from(["a", "b", "c"]), max_size=3))
def test_find_phrase_finds_the_first_occurrence(words: list[str], phrase: list[str]):
    """find_phrase gives where a word sequence first starts in a list or a tuple of words, or -1."""
    from rulebot.language.analysis import find_phrase

    size = len(phrase)
    expected = next((at for at in range(len(words) - size + 1) if words[at:at + size] == phrase), -1)
    assert find_phrase(words, tuple(phrase)) == expected == find_phrase(tuple(words), tuple(phrase))


@pytest.mark.parametrize("seed", range(40))
def test_best_is_the_exact_ranking(seed: int):
    """_best's sampled cut never changes which documents it returns, in what order: ties, skewed
    scores and scores sorted against the sample's stride included."""
    import random

    from rulebot.search.ranking import _best

    rng = random.Random(seed)
    size = rng.choice([5, 150, 2_000, 9_000, 40_000])
    shape = seed % 5
    if shape == 0:
        values = [rng.random() for _ in range(size)]
    elif shape == 1:  # a few distinct scores: many ties at the cut
        values = [float(rng.randrange(4)) for _ in range(size)]
    elif shape == 2:  # most documents share the lowest score, a few stand out
        values = [1.0 if rng.random() < 0.97 else 1.0 + rng.random() for _ in range(size)]
    elif shape == 3:  # the best documents are where the sample's stride does not look
        values = [float(i % 13 == 1) * 5.0 + rng.random() * 0.01 for i in range(size)]
    else:  # fewer best documents than asked for, every one in the sample: its cut is too high
        values = [2.0 if i % 12 == 0 and i < 1_200 else rng.random() for i in range(size)]
    docnums = rng.sample(range(size * 3), size)
    scores = dict(zip(docnums, values))
    for count in (5, 40, 200):
        expected = sorted(scores, key=lambda d: (-scores[d], d))[:count]
        assert _best(scores, count) == expected


def test_a_question_reads_only_its_languages_synonyms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The synonym tables are kept apart from the metadata, a file per question language, and a question parses only
    its own language's (the French tables, with every game's French words, are the larger)."""
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(tmp_path / "cache"))
    open_index([shipped_corpus_dir()]).index.close()
    opened = open_index([shipped_corpus_dir()])  # as a later `ask` opens it
    tables = opened.meta["synonym_tables"]
    assert sorted(tables) == ["en", "fr"] and opened.path is not None
    assert {p.name for p in opened.path.glob("rulebot-synonyms-*.json")} == {"rulebot-synonyms-en.json", "rulebot-synonyms-fr.json"}
    with Searcher(opened) as searcher:
        searcher.ask("can i trash assassination mission")
        assert set(tables._read) == {"en"}
        searcher.ask("combien de cartes en main à la fin du tour")
        assert set(tables._read) == {"en", "fr"}


def test_a_links_target_is_no_word_of_its_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A link in an entry's text is searched by its words, not by where it leads: the id an import links a heading's
    entry by (`[the bell](#toy-lantern)`) is no word of the entry that links to it."""
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(tmp_path / "cache"))
    root = write_corpus(tmp_path / "c", {
        "toy/game.toml": game_toml("toy"),
        "toy/rules.md": "## toy-horn\ntitle: Horn\nkind: rule\nsection: 1\n\nBlow it to wake [the bell](#toy-lantern) "
                        "or [the short game](#toy-2-player-variant).\n\n"
                        "## toy-lantern\ntitle: Lantern\nkind: rule\nsection: 2\n\nLight it at dusk.\n",
    })
    with Searcher(open_index([root])) as searcher:
        assert [hit.id for hit in searcher.ask("lantern", limit=5).results] == ["toy-lantern"]
        assert searcher.ask("bell", limit=5).results[0].id == "toy-horn"
        assert searcher.get("toy-horn")["player_counts"] == []  # (no "2 player" of where a link leads)


def test_a_typo_of_a_vocabulary_word_is_read_as_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A word no entry has, one edit from a word of the vocabulary, is that word: its synonyms are searched ("the
    tiebraker" finds the "Tie-break" a "tiebreaker" finds, though no text says "tiebreaker"). A word an entry has, a
    short one, one close to words that mean different things, and one further off stay as typed."""
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(tmp_path / "cache"))
    toml = game_toml("toy") + '\n[vocabulary]\nsynonyms = [["lantern", "lamplight"], ["boats", "ships"], ["boots", "shoes"], ["sailors", "crew"]]\n'
    root = write_corpus(tmp_path / "c", {
        "toy/game.toml": toml,
        "toy/rules.md": "## toy-tie\ntitle: Tie-break\nkind: rule\nsection: 1\n\nOn a tie, the player with more shells wins.\n\n"
                        "## toy-lamp\ntitle: Lamplight\nkind: rule\nsection: 2\n\nLight it at dusk, unless a tailor says no.\n",
    })
    with Searcher(open_index([root])) as searcher:
        def read(question: str) -> tuple[str, ...]:
            return searcher.reading.read(question, game="toy", in_play={}, official_only=False).words

        assert read("tiebraker rules") == ("tiebreaker", "rules")
        assert searcher.ask("the tiebraker", game="toy").results[0].id == "toy-tie"
        assert read("lantren") == ("lantern",)
        assert read("tailors") == ("tailors",)  # a tailor is in a text: "sailors" is no reading of it
        assert read("boets") == ("boets",)  # one edit from "boats" and from "boots", which differ
        assert read("tiebrkr") == ("tiebrkr",)  # three edits off
        assert read("lamo") == ("lamo",)  # too short to be sure of
        assert read("thing") == ("thing",)  # question filler, though one edit from "think" (everyday words)


@pytest.mark.parametrize(
    ("word", "meant"), [("ditching", "discard"), ("tossed", "discard"), ("dump", "discard"), ("grabbed", "take"), ("dead", "killed"), ("flyers", "fly")],
)
def test_table_talk_of_card_games(toy: Searcher, word: str, meant: str):
    """"Ditch", "toss" and "dump" a card are discarding it, "grab" is taking, a "dead" creature a killed one, "flyers"
    fly: every game's everyday words, in every game's vocabulary."""
    table = toy.reading.read("x", game="lantern-harbor", in_play={}, official_only=False).synonyms["lantern-harbor"]
    assert (meant,) in make_units([word], table)[0].alternatives
