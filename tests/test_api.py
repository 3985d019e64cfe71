"""The Python API for scripts and bots: the same answers as the CLI, as typed objects."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from conftest import MINIMAL, docs_text

import rulebot
from rulebot import Answer, Library, Ruling
from rulebot.errors import (
    QueryError,
    RulebotError,
    UnknownEntryError,
    UnknownExpansionError,
    UnknownGameError,
    UnknownKindError,
    UsageError,
)


@pytest.fixture
def library():
    with Library([MINIMAL], shipped=False) as opened:
        yield opened


class TestLibrary:
    def test_ask_gives_typed_rulings(self, library: Library):
        """An answer holds Ruling objects with their citation, those that make up the answer first."""
        answer = library.ask("ferry gull")
        assert isinstance(answer, Answer) and answer.confident
        ruling = answer.rulings[0]
        assert isinstance(ruling, Ruling) and ruling.id == "lh-ferry-gull"
        assert ruling.source.document == "rulebook" and ruling.source.section == "Cards > Ferry Gull"
        assert answer.matches[0].part_of_answer and answer.matches[0].ruling == ruling

    def test_answers_match_the_cli(self, library: Library, run_cli):
        """The API answers what `rulebot ask --json` answers, in the same JSON shape."""
        printed = json.loads(run_cli("--no-shipped", "--corpus", str(MINIMAL), "ask", "--json", "who wins a tie").stdout)
        answer = library.ask("who wins a tie")
        assert [m.ruling.id for m in answer.matches] == [r["id"] for r in printed["results"]]
        assert answer.confident == printed["confident"]
        assert round(answer.probability, 3) == printed["probability"]  # the same model's, however it is asked
        first = answer.matches[0].ruling.to_json()
        assert {k: first[k] for k in ("id", "title", "text", "kind", "game")} == {k: printed["results"][0][k] for k in ("id", "title", "text", "kind", "game")}

    def test_expansions_in_play(self, library: Library):
        """with_ puts an expansion in play, as --with does: its rule comes before the one it changes."""
        answer = library.ask("how do i win", game="lantern-harbor", with_=["deep-tides"])
        assert [r.id for r in answer.rulings][:2] == ["lh-tides-winning", "lh-winning"]

    def test_the_users_config_is_left_out_when_asked(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """`Library(config=False)` answers as if nothing were configured: the expansions given alone are in play, and
        the answer is in the question's language; by default the user's `rulebot config` counts, as for `ask`."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path / "config"))  # (a config of its own: no other test reads it)
        toy = ("--no-shipped", "--corpus", str(MINIMAL))
        assert run_cli(*toy, "config", "set", "lantern-harbor.with", "base").exit_code == 0
        assert run_cli("config", "set", "lang", "fr").exit_code == 0
        with Library([MINIMAL], shipped=False) as configured, Library([MINIMAL], shipped=False, config=False) as plain:
            asked = configured.ask("how do i win", game="lantern-harbor")
            told = plain.ask("how do i win", game="lantern-harbor")
            assert "lh-tides-winning" not in [r.id for r in asked.rulings] and asked.answer_language == "fr"
            assert "lh-tides-winning" in [r.id for r in told.rulings] and told.answer_language == "en"
            assert plain.ask("how do i win", game="lantern-harbor", lang="fr").answer_language == "fr"

    def test_look_ups(self, library: Library):
        """A ruling by id (any case), the rulings of a game, and the games."""
        assert library.ruling("LH-SETUP").title == "Setup"
        assert {r.game for r in library.rulings(game="lantern-harbor")} == {"lantern-harbor"}
        (game,) = library.games()
        assert game.slug == "lantern-harbor" and game.entries == 6

    def test_errors_are_rulebot_errors(self, library: Library):
        """Mistakes raise rulebot's own errors, with one-line messages."""
        with pytest.raises(UnknownEntryError, match="no entry 'lh-nope'"):
            library.ruling("lh-nope")
        with pytest.raises(UnknownGameError):
            library.ask("setup", game="chess")
        with pytest.raises(RulebotError, match="no corpus"):
            Library(shipped=False)


class TestArguments:
    """What a program gives the library wrongly is a RulebotError naming the mistake, never a silent empty answer or a TypeError."""

    def test_rulings_is_a_list(self, library: Library):
        """rulings() is a list (len() works), in corpus order."""
        found = library.rulings(kind="faq")
        assert isinstance(found, list) and len(found) == 1 and [r.id for r in library.rulings()][:2] == ["lh-setup", "lh-winning"]

    def test_an_unknown_kind_names_the_kinds(self, library: Library):
        """kind="faqs" is an UnknownKindError naming the kind meant and the kinds, as `rulebot list --kind faqs` says."""
        with pytest.raises(UnknownKindError, match=r"^no kind 'faqs'; did you mean: faq; known kinds: rule, setup, faq, "):
            library.rulings(kind="faqs")

    def test_an_unknown_expansion_is_an_expansion_error(self, library: Library):
        """An unknown expansion is an UnknownExpansionError (a RulebotError, not an UnknownGameError), for ask and rulings."""
        with pytest.raises(UnknownExpansionError, match="no expansion 'deep'; did you mean: deep-tides") as raised:
            library.rulings(expansion="deep")
        assert isinstance(raised.value, RulebotError) and not isinstance(raised.value, UnknownGameError)
        with pytest.raises(UnknownExpansionError, match="no expansion 'atlantis'"):
            library.ask("how do i win", with_=["atlantis"])
        with pytest.raises(UnknownGameError):
            library.rulings(game="chess")
        assert len(library.rulings(expansion="base")) == 4

    def test_arguments_said_in_the_apis_words(self, library: Library):
        """An empty game, and the base game alone with no game to say which, are UsageErrors that name the arguments
        (game=, with_=), not the command's options; with a game, the base game alone answers."""
        for game in ("", "  "):
            with pytest.raises(UsageError, match=f"^game must name a game .*not {game!r}$"):
                library.ask("how do i win", game=game)
        with pytest.raises(UsageError, match=r"^with_=\['base'\] needs game=") as raised:
            library.ask("how do i win", with_=["base"])
        assert "--" not in str(raised.value)
        assert all(hit.data["expansion"] is None for hit in library.ask("winning glory", game="lantern-harbor", with_=["base"]).results)

    def test_a_missing_corpus_folder_is_an_error(self, tmp_path: Path):
        """A corpus folder that is not there (or is a file) is a UsageError, warn= or not."""
        with pytest.raises(UsageError, match=r"^no corpus folder '.*nowhere': no such folder$"):
            Library([MINIMAL, tmp_path / "nowhere"], shipped=False)
        told: list[str] = []
        (tmp_path / "a-file").write_text("", encoding="utf-8")
        with pytest.raises(UsageError, match="it is a file"):
            Library([str(tmp_path / "a-file")], shipped=False, warn=told.append)

    def test_a_closed_library_answers_nothing(self):
        """After close(), every call is a UsageError that says so (not an answer from a closed index); close() again
        does nothing, as leaving its `with` after it does."""
        with Library([MINIMAL], shipped=False) as opened:
            assert opened.ask("tie").results
            opened.close()
            for call in (lambda: opened.ask("tie"), lambda: opened.ruling("lh-tie"), lambda: opened.rulings(), lambda: opened.games()):
                with pytest.raises(UsageError, match=r"^this Library is closed: open another one$"):
                    call()

    def test_a_game_and_a_language_as_players_write_them(self, library: Library):
        """A game by its name or an alias, a language in capitals: the same answer as by slug and code."""
        assert library.ask("tie", game="Lantern Harbor", lang="EN") == library.ask("tie", game="lantern-harbor", lang="en")
        assert library.rulings(game="harbor game") == library.rulings(game="lantern-harbor")

    @pytest.mark.parametrize("limit", [0, -1, 41, 10**6])
    def test_limit_out_of_range(self, library: Library, limit: int):
        """`limit` is 1 to 40, as `ask --limit` is: no more than a search keeps, so that every limit taken is kept."""
        from rulebot.config import LIMITS
        from rulebot.search.constants import CANDIDATES

        with pytest.raises(UsageError, match=f"limit must be 1 to 40, not {limit}"):
            library.ask("ferry gull", limit=limit)
        assert library.ask("ferry gull", limit=40).matches and LIMITS[1] == CANDIDATES
        assert f"{LIMITS[0]} to {LIMITS[1]} (as `--limit`)" in " ".join((Library.ask.__doc__ or "").split())

    def test_none_is_the_default_for_with_as_for_game_and_lang(self, library: Library):
        """`with_=None`, as `game=None` and `lang=None`, means what leaving it out means."""
        assert library.ask("tie", game=None, with_=None, lang=None) == library.ask("tie")

    def test_a_usage_error_is_a_value_error(self, library: Library):
        """A bad argument is caught by `except ValueError`, as Python's own are; an unknown name in the corpus is not one."""
        with pytest.raises(ValueError, match="limit must be"):
            library.ask("tie", limit=0)
        assert not issubclass(UnknownKindError, ValueError) and not issubclass(UnknownGameError, ValueError)

    def test_one_answer_that_cannot_be_changed(self, library: Library):
        """The search, the command line and the API give one Answer, which no one can change: a changed answer is
        a new one (Answer.replace), the first left as it was."""
        from rulebot.search.answer import Answer as SearchAnswer

        assert Answer is SearchAnswer
        answer = library.ask("ferry gull")
        for name in ("confident", "results", "query", "instead_of", "answer_language", "anything"):
            with pytest.raises(AttributeError):
                setattr(answer, name, None)
        with pytest.raises(AttributeError):
            del answer.game
        assert isinstance(answer.results, tuple) and isinstance(answer.suggestions, tuple)
        changed = answer.replace(confident=False, results=answer.results[:1])
        assert not changed.confident and len(changed.results) == 1 and changed != answer
        assert answer.confident and answer == library.ask("ferry gull") and len(answer.results) > 1
        with pytest.raises(TypeError, match="no colour"):
            answer.replace(colour="red")

    def test_replace_takes_the_documented_names(self, library: Library):
        """`question` is the documented name of `query`: replace() takes either, not both; what an answer's other
        attributes make (`games`, `matches`...) is refused with what to replace instead."""
        answer = library.ask("ferry gull")
        assert answer.replace(question="other").query == "other" == answer.replace(query="other").question
        assert answer.replace(question="other") == answer.replace(query="other")
        with pytest.raises(TypeError, match="give one of them"):
            answer.replace(question="a", query="b")
        with pytest.raises(TypeError, match="replace those"):
            answer.replace(games=())

    @pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
    def test_an_answer_pickles_and_copies(self, library: Library, how: str):
        """An answer is read back from a pickle, and copied, whole: equal, with the same rulings."""
        answer = library.ask("how do i win", game="lantern-harbor", with_=["deep-tides"])
        again = {
            "pickle": lambda: pickle.loads(pickle.dumps(answer)),
            "copy": lambda: copy.copy(answer),
            "deepcopy": lambda: copy.deepcopy(answer),
        }[how]()
        assert isinstance(again, Answer) and again == answer and again.to_json() == answer.to_json()
        assert again.matches == answer.matches and again.rulings == answer.rulings
        with pytest.raises(AttributeError):
            again.confident = False  # type: ignore[misc]

    def test_an_answer_hashes_as_it_compares(self, library: Library):
        """Equal answers hash alike (a set or a dict key holds one of them); a changed one is another."""
        answer = library.ask("ferry gull")
        same = library.ask("ferry gull")
        assert answer == same and hash(answer) == hash(same) and hash(answer) == hash(copy.deepcopy(answer))
        unsure = answer.replace(confident=False)
        assert {answer, same, unsure} == {answer, unsure} and len({answer, same, unsure}) == 2
        assert {answer: "kept"}[same] == "kept"

    def test_matches_are_made_once(self, library: Library):
        """The rulings of an answer are made when first asked for, then kept (it cannot change)."""
        answer = library.ask("ferry gull")
        assert answer.matches is answer.matches
        assert answer.rulings[0] is answer.matches[0].ruling

    def test_to_json_is_what_ask_json_prints(self, library: Library, run_cli):
        """Answer.to_json() is the object `rulebot ask --json` prints, key for key, as JSON data of its own."""
        for question in ("ferry gull", "who wins a tie", "how many shells"):
            printed = json.loads(run_cli("--no-shipped", "--corpus", str(MINIMAL), "ask", "--json", question).stdout)
            assert library.ask(question).to_json() == printed
        answer = library.ask("ferry gull")
        data = answer.to_json()
        data["results"][0]["source"]["title"] = "changed"
        data["results"][0]["see_also"].append("changed")
        assert answer.to_json() != data and answer == library.ask("ferry gull")

    def test_limit_is_kept(self, library: Library):
        assert len(library.ask("tie", limit=1).matches) == 1

    @pytest.mark.parametrize(
        "call, message",
        [
            (lambda lib: lib.ask(5), "question must be a string, not int 5"),
            (lambda lib: lib.ask("tie", limit="3"), "limit must be a whole number, not str '3'"),
            (lambda lib: lib.ask("tie", limit=True), "limit must be a whole number, not bool True"),
            (lambda lib: lib.ask("tie", game=3), "game must be a game (its slug, name or an alias) or None, not int 3"),
            (lambda lib: lib.ask("tie", with_="deep-tides"), "with_ must be a list of expansion slugs, not str 'deep-tides': write ['deep-tides']"),
            (lambda lib: lib.ask("tie", with_=[None]), "with_ must be a list of expansion slugs; NoneType None is not one"),
            (lambda lib: lib.ask("tie", lang="de"), "lang must be one of en, fr"),
            (lambda lib: lib.ask("tie", official_only="yes"), "official_only must be True or False"),
            (lambda lib: lib.ruling(None), "entry_id must be an entry's id, not NoneType None"),
            (lambda lib: lib.rulings(kind=1), "kind must be a string or None, not int 1"),
            (lambda lib: Library(str(MINIMAL), shipped=False), "corpora must be a list of corpus folders"),
            (lambda lib: Library([MINIMAL], shipped="no"), "shipped must be True or False"),
            (lambda lib: Library([MINIMAL], shipped=False, warn="stderr"), "warn must be a function"),
        ],
    )
    def test_bad_arguments_are_usage_errors(self, library: Library, call, message: str):
        """Each argument of the wrong type is a UsageError saying which and what it takes."""
        with pytest.raises(UsageError) as raised:
            call(library)
        assert str(raised.value).startswith(message)


def test_the_package_exports_the_api():
    """`from rulebot import ...` gives the API; importing rulebot alone loads none of it."""
    assert set(rulebot.__all__) >= {"Library", "Answer", "Ruling", "RulebotError"}
    assert rulebot.Library is Library


def test_the_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The Python example of the docs runs as it is written."""
    example = docs_text().split("```python\n", 1)[1].split("```", 1)[0]
    assert "from rulebot import Library" in example
    printed: list[str] = []
    exec(compile(example, "docs/scripts.md", "exec"), {"print": lambda *args, **kw: printed.append(" ".join(map(str, args)))})
    assert any("Assassination Mission" in line for line in printed)


def test_a_corpus_of_nothing_valid_says_what_is_wrong(tmp_path: Path):
    """A corpus folder with not one valid entry: CorpusError whose message names the first problem (a script that
    prints the error is told what to fix), every problem in .problems."""
    from rulebot.errors import CorpusError

    with pytest.raises(CorpusError) as caught:
        Library([tmp_path], shipped=False)
    assert str(caught.value) == f"the corpus has 1 problem: {tmp_path}:0: no game folders (a game folder holds a game.toml)"
    assert [p.message for p in caught.value.problems] == ["no game folders (a game folder holds a game.toml)"]


@pytest.mark.parametrize("question", ["hello", "what?", "???", "   ", "a" * 1001])
def test_a_refused_question_is_a_query_error_saying_the_question(library: Library, question: str):
    """A question refused is a QueryError (docs/scripts.md), whose message a bot can tell by its start."""
    with pytest.raises(QueryError, match=r"^the question "):
        library.ask(question)
