"""The ranking model: one feature vector per candidate, one scoring function, fitted weights read from one file,
a calibrated probability; and answers that do not depend on how many are asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import game_toml, write_numbered_game

from rulebot.corpus import glossary
from rulebot.corpus.load import load
from rulebot.index.cache import open_index
from rulebot.places import shipped_corpus_dir
from rulebot.search import features
from rulebot.search.ranking import Searcher

QUESTIONS = Path(__file__).parent / "questions.jsonl"


@pytest.fixture(scope="module")
def shipped() -> Searcher:
    with Searcher(open_index([shipped_corpus_dir()])) as searcher:
        yield searcher


def _questions() -> list[dict]:
    return [row for row in map(json.loads, QUESTIONS.read_text(encoding="utf-8").splitlines()) if "q" in row]


def test_first_answers_are_the_same_whatever_the_limit(shipped: Searcher):
    """The first k answers of a question are the first k of a longer list: the answer's parts are chosen from the
    whole ranking, not from the list already cut to the limit; its sureness and parts alike."""
    differ = []
    for row in _questions():
        whole = shipped.ask(row["q"], game=row["game"], limit=40)
        for limit in (1, 2, 3, 5):
            cut = shipped.ask(row["q"], game=row["game"], limit=limit)
            if [h.id for h in cut.results] != [h.id for h in whole.results[:limit]] or cut.confident != whole.confident:
                differ.append((row["q"], limit))
            elif cut.parts != min(whole.parts, limit):
                differ.append((row["q"], limit, "parts"))
    assert differ == []


def test_limit_does_not_change_the_json_answer(run_cli):  # type: ignore[no-untyped-def]
    """Through the command: `--limit 1` prints the first result `--limit 10` prints, as sure and as likely."""
    question = ("--json", "--game", "dune-imperium", "what do i do when the conflict deck runs out")
    one = json.loads(run_cli("ask", "--limit", "1", *question).stdout)
    ten = json.loads(run_cli("ask", "--limit", "10", *question).stdout)
    assert [r["id"] for r in one["results"]] == [r["id"] for r in ten["results"][:1]]
    assert (one["confident"], one["probability"]) == (ten["confident"], ten["probability"])


def test_json_gives_the_probability_that_decides_confidence(run_cli):  # type: ignore[no-untyped-def]
    """`ask --json` gives the probability that the first answer is right; a confident answer's is at or above the
    model's threshold, and these questions' answers (no count asked, one game, no phrase kept apart) are confident
    exactly then."""
    for question in ("Spice Must Flow", "can the harbour master sail a submarine during a storm"):
        found = json.loads(run_cli("ask", "--json", question).stdout)
        assert 0.0 <= found["probability"] <= 1.0
        threshold = features.MODEL["threshold"]
        # (the JSON rounds the probability to 3 places)
        assert found["probability"] >= threshold - 0.0005 if found["confident"] else found["probability"] <= threshold + 0.0005


def test_score_is_the_model_of_the_features(shipped: Searcher):
    """Every result's score is exp(weights · features) of its own feature vector: nothing else reorders them."""
    answer = shipped.ask("how many cards do i draw at the start of the round", game="dune-imperium", limit=10)
    for hit in answer.results:
        assert len(hit.features) == len(features.FEATURES)
        assert hit.score == pytest.approx(features.score(hit.features))
    assert answer.probability == pytest.approx(features.probability(answer.evidence))
    assert answer.confident == features.confident(answer.probability, answer.evidence)


def test_weights_file_holds_a_weight_for_each_feature():
    """The shipped weights are the features' (in their order), with the threshold and how they were fitted."""
    model = json.loads(features.WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert tuple(model["rank"]) == features.FEATURES
    assert tuple(model["confidence"]) == features.CONFIDENCE
    assert tuple(model["draft_confidence"]) == features.CONFIDENCE
    assert 0.0 < model["threshold"] < 1.0 and 0.0 < model["draft_threshold"]
    assert model["fitted"]["by"] == "bench/fit_ranking.py"


def _confidence_vector(**given: float) -> list[float]:
    return [given.get(name, 0.0) for name in features.CONFIDENCE]


def test_a_draft_is_judged_by_the_drafts_logistic_and_threshold(monkeypatch):
    """The probability of an answer whose first entry is an imported draft is the drafts' logistic, and it is stood
    by from the drafts' threshold; a curated first entry's, from the other two: the same evidence, apart from being
    a draft, is as sure as each logistic says."""
    weights = dict.fromkeys(features.CONFIDENCE, 0.0)
    monkeypatch.setitem(features.MODEL, "confidence", {**weights, "margin": 1.0})
    monkeypatch.setitem(features.MODEL, "draft_confidence", {**weights, "margin": -1.0})
    monkeypatch.setitem(features.MODEL, "threshold", 0.7)
    monkeypatch.setitem(features.MODEL, "draft_threshold", 0.2)
    monkeypatch.setitem(features.MODEL, "min_coverage", 0.5)
    curated = _confidence_vector(bias=1.0, margin=2.0, coverage=1.0)
    draft = _confidence_vector(bias=1.0, margin=2.0, coverage=1.0, draft=1.0)
    assert features.probability(curated) == pytest.approx(1 / (1 + 2.718281828459045**-2))
    assert features.probability(draft) == pytest.approx(1 / (1 + 2.718281828459045**2))
    assert features.confident(features.probability(curated), curated)  # 0.88
    assert not features.confident(features.probability(draft), draft)  # 0.12: below even the drafts' 0.2
    assert not features.confident(0.5, curated) and features.confident(0.5, draft)
    monkeypatch.setitem(features.MODEL, "draft_threshold", 2.0)  # none reached the targets: no draft is stood by
    assert not features.confident(1.0, draft)


def test_a_name_asked_alone_is_stood_by_whatever_its_probability(monkeypatch, tmp_path):
    """A question word for word the first entry's name, with no unrelated entry within NAMED_MARGIN, is stood by
    however unlikely the logistic finds it (a corpus of one entry, where every word is common, gives its words a
    low score); not with an entry close to it, not when vetoed (another game answers as well), not past the
    coverage floor."""
    monkeypatch.setitem(features.MODEL, "min_coverage", 0.5)
    named = _confidence_vector(bias=1.0, exact=1.0, margin=features.NAMED_MARGIN, coverage=1.0)
    assert features.confident(0.01, named)
    assert not features.confident(0.01, [*named[:1], features.NAMED_MARGIN - 0.01, *named[2:]])
    assert not features.confident(0.01, _confidence_vector(bias=1.0, exact=1.0, margin=3.0, coverage=1.0, other_games=1.0))
    assert not features.confident(0.01, _confidence_vector(bias=1.0, exact=1.0, margin=3.0, coverage=0.5))
    root = tmp_path / "corpus"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "game.toml").write_text(game_toml("toy"), encoding="utf-8")
    (root / "toy" / "rules.md").write_text("## toy-lantern\ntitle: Lantern\nkind: rule\nsection: 1\n\nIt lights the way.\n", encoding="utf-8")
    with Searcher(open_index([root])) as alone:
        answer = alone.ask("lantern")
    assert answer.results[0].id == "toy-lantern" and answer.confident


def test_weights_file_of_one_logistic_judges_drafts_by_it(tmp_path):
    """A weights file fitted before drafts had their own logistic (no draft_confidence, no draft_threshold) judges
    a draft's answer as it did, by the one logistic and threshold, and is no stale file for `check`."""
    model = json.loads(features.WEIGHTS_FILE.read_text(encoding="utf-8"))
    del model["draft_confidence"], model["draft_threshold"]
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    loaded, stale = features._load(path)
    assert loaded["draft_confidence"] == loaded["confidence"] == model["confidence"]
    assert loaded["draft_threshold"] == loaded["threshold"] == model["threshold"]
    assert (stale.missing, stale.unknown) == ([], [])
    del model["confidence"]["margin"]  # told once, not for the drafts' copy too
    path.write_text(json.dumps(model), encoding="utf-8")
    assert features._load(path)[1].missing == ["confidence.margin"]


def test_reading_the_weights_imports_no_numerical_library():
    """The model is plain JSON and arithmetic: answering never imports numpy or scipy (the fit script does)."""
    code = "import sys, rulebot.search.ranking; print(sorted(m for m in ('numpy', 'scipy') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


def test_question_word_for_word_in_asked_lifts_that_entry(shipped: Searcher):
    """A question said word for word as one the entry answers (its `asked`) has the exact feature; a question
    sharing only a word with it does not."""
    entry = next(e for e in shipped.entries(game="catalyst") if e["asked"])
    line = entry["asked"][0]["text"]
    answer = shipped.ask(line, game="catalyst", limit=40)
    hit = next(h for h in answer.results if h.id == entry["id"])
    assert hit.features[features.FEATURES.index("exact")] == 1.0
    assert hit.features[features.FEATURES.index("asked")] == 1.0
    other = next((h for h in answer.results if h.id != entry["id"] and not h.data["asked"]), None)
    if other is not None:
        assert other.features[features.FEATURES.index("asked")] == 0.0


def test_weights_file_older_than_the_features_still_answers(tmp_path, monkeypatch, run_cli):
    """A weights file missing a feature's weight (or with one of a feature no longer computed, in another order)
    is read by name: the missing weight is its prior, the unknown one is ignored, every command still works,
    and `check` warns that the weights are older than the features."""
    model = json.loads(features.WEIGHTS_FILE.read_text(encoding="utf-8"))
    del model["rank"]["words"]
    model["rank"] = {"retired": 2.0, **dict(reversed(list(model["rank"].items())))}
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    loaded, stale = features._load(path)
    assert list(loaded["rank"]) == list(features.FEATURES)
    assert loaded["rank"]["words"] == features.PRIOR["words"]
    assert loaded["rank"]["coverage"] == model["rank"]["coverage"]
    assert (stale.missing, stale.unknown) == (["rank.words"], ["rank.retired"])
    monkeypatch.setattr(features, "MODEL", loaded)
    monkeypatch.setattr(features, "STALE", stale)
    assert run_cli("list").exit_code == 0
    assert run_cli("ask", "how many cards do i draw", "--game", "dune-imperium").exit_code in (0, 3)
    checked = run_cli("check")
    assert checked.exit_code == 0
    assert "weights.json is older than the ranking features: no weight for rank.words" in checked.stderr
    assert "rank.retired" in checked.stderr


def test_shipped_weights_are_not_stale(run_cli):
    """The shipped weights were fitted on the features computed: `check` says nothing of them."""
    assert not features.STALE.missing and not features.STALE.unknown
    assert "weights.json" not in run_cli("check").stderr


def test_a_drafted_glossary_summary_gives_way_to_the_rule_it_sends_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A drafted glossary item that sums a rule up and sends to it by number ("See rule 701.14") ranks below the
    rules that match as much of the question: the fitted weight of draft_defers is what puts them ahead. Asked by
    its name alone, it gives way to the rule named alike ("701.14a Fight")."""
    root = write_numbered_game(tmp_path / "corpus")
    with Searcher(open_index([root])) as searcher:
        assert searcher.ask("how does fight work").results[0].id.startswith("skirmish-701-14")
        assert searcher.ask("fight").results[0].id == "skirmish-701-14a-fight"
        monkeypatch.setitem(features.MODEL["rank"], "draft_defers", 0.0)
        assert searcher.ask("how does fight work").results[0].id == "skirmish-fight"


def test_a_numbered_rule_is_named_by_its_words(tmp_path: Path):
    """A numbered heading is named by its words, not its section number, which no player types: "crew" names
    "702.12a Crew" whole. Of several headed alike ("701.14a Fight", "701.14b Fight"), the first, which introduces
    the term, is the one named; the next is known by its number."""
    from rulebot.language import analysis

    assert analysis.entry_name_stems("702.12a Crew") == ["crew"]
    assert analysis.entry_name_stems("1.2.3. Deck Building") == ["deck", "build"]
    assert analysis.entry_name_stems("702.12a Crew", repeated=True) == ["702.12a", "crew"]
    assert analysis.entry_name_stems("Rule 5: Combat") == analysis.name_stems("Rule 5: Combat")  # no section number
    assert analysis.entry_name_stems("1.2") == ["1.2"]  # a number alone is all the name there is
    assert analysis.entry_name_stems("7.5.5.A Ambush") == ["ambush"]
    assert analysis.entry_name_stems("5. Combat") == ["combat"]
    assert analysis.entry_name_stems("7 Wonders") == analysis.name_stems("7 Wonders")  # a count, no section
    root = write_numbered_game(tmp_path / "corpus")
    with Searcher(open_index([root])) as searcher:
        stems = {hit.id: hit.data["name_stems"] for hit in searcher.ask("fight", limit=10).results}
        assert stems["skirmish-701-14a-fight"] == [["fight"]]
        assert stems["skirmish-701-14b-fight"] == [["701.14b", "fight"]]
        crew = searcher.ask("crew rules", limit=10).results
        name = features.FEATURES.index("name")
        assert {hit.id: hit.features[name] > 0 for hit in crew}["skirmish-702-12a-crew"]


def test_a_topic_numbered_alone_is_named_by_its_words(tmp_path: Path):
    """In a document that numbers its topics with a number alone, as a rules reference does ("3 Action Phase",
    three titles at least), a topic is named by its words and its number counts nothing; the title stays the same
    once a curator has restated it. One such title alone in a document is a name ("2 Player Game")."""
    from conftest import write_corpus

    from rulebot.language import analysis

    assert analysis.entry_name_stems("5 Combat Phase", topics=True) == ["combat", "phase"]
    assert analysis.entry_name_stems("5 Combat Phase") == ["5", "combat", "phase"]

    def entry(entry_id: str, title: str, text: str, *headers: str) -> str:
        return "\n".join([f"## {entry_id}", f"title: {title}", "kind: rule", f"section: {title}", *headers, "", text, "", ""])

    root = write_corpus(tmp_path / "corpus", {
        "sk/game.toml": 'slug = "sk"\nname = "Sk"\nid_prefix = "sk"\n\n[[sources]]\nid = "rules"\ntitle = "Reference"\n\n'
                        '[[sources]]\nid = "variants"\ntitle = "Variants"\n',
        "sk/rules.md": "".join([
            entry("sk-3-action-phase", "3 Action Phase", "Each player takes one action in turn order.", "draft: true"),
            entry("sk-4-combat-phase", "4 Combat Phase", "Ships in the same system fight until one side is gone."),
            entry("sk-98-victory-points", "98 Victory Points", "The first player to reach the goal wins.", "draft: true"),
        ]),
        "sk/variants.md": entry("sk-2-player-game", "2 Player Game", "With two players, each controls two fleets."),
    })
    name = features.FEATURES.index("name")
    with Searcher(open_index([root])) as searcher:
        def found(question: str) -> dict[str, Any]:
            return {hit.id: hit for hit in searcher.ask(question, limit=10).results}

        assert found("combat phase")["sk-4-combat-phase"].data["name_stems"] == [["combat", "phase"]]  # restated
        assert found("action phase")["sk-3-action-phase"].features[name] > 0
        assert found("victory points")["sk-98-victory-points"].data["counted"] == []
        assert found("player game")["sk-2-player-game"].data["name_stems"] == [["2", "player", "game"]]


def test_what_sends_to_a_rule(tmp_path: Path):
    """Only a draft glossary item (`term`) with a link, whose text sends to a rule by number, is a summary."""
    import dataclasses

    corpus = load([write_numbered_game(tmp_path / "corpus")])
    summary = corpus.entries["skirmish-fight"]
    assert glossary.sends_to_rule(summary)
    assert not glossary.sends_to_rule(corpus.entries["skirmish-701-14a-fight"])  # a rule
    assert not glossary.sends_to_rule(dataclasses.replace(summary, draft=False))  # restated by a curator
    assert not glossary.sends_to_rule(dataclasses.replace(summary, see_also=()))  # the rule is not there
    assert not glossary.sends_to_rule(dataclasses.replace(summary, text="Two creatures fight. See Combat."))  # by name
    assert glossary.sends_to_rule(dataclasses.replace(summary, text="A keyword. [See 7.5.5. Ambush](#755-ambush)"))



@pytest.mark.parametrize(("text", "stood_by"), [("Each captain takes 3 shells.", True), ("Each captain takes shells from the bank.", False)])
def test_an_answer_to_a_count_that_states_no_number_is_never_stood_by(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, stood_by: bool):
    """"how many shells do we begin with", word for word a question the entry answers, is stood by when the entry
    states a number of shells, and never when it states none, however likely the model finds it (the threshold is
    set low, whatever the fit chose). Asked in French, the shells an English rule counts are the "coquillages" of
    the game's vocabulary."""
    monkeypatch.setitem(features.MODEL, "threshold", 0.5)
    from conftest import write_corpus

    corpus = write_corpus(tmp_path / "corpus", {
        "toy/game.toml": game_toml("toy") + '\n'
                         '[vocabulary]\nfrench = [["coquillages", "shells"]]\n',
        "toy/rules.md": (
            "## toy-purse\ntitle: Shells at the start\nkind: setup\nsection: Setup\nasked: how many shells do we begin with\n"
            "asked-fr: combien de coquillages au début\n\n"
            f"{text}\n\n## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\n\nA ferry may dock where a captain begins a turn.\n"
        ),
    })
    with Searcher(open_index([corpus])) as searcher:
        for question in ("how many shells do we begin with", "combien de coquillages au début"):
            answer = searcher.ask(question)
            assert answer.results[0].id == "toy-purse"
            assert answer.probability >= 0.5
            assert answer.confident is stood_by, question


def test_a_word_only_one_entry_mentions_in_passing_is_no_sure_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """"bounty", which one entry's text alone mentions, finds that entry first, and nothing else: however likely the
    model finds it, it is not stood by, since being the only entry found says nothing of answering when the entry
    only mentions the word. An entry whose name or `asked` line holds the word, or that a typo names, still is."""
    from conftest import write_corpus

    monkeypatch.setitem(features.MODEL, "threshold", 0.5)
    corpus = write_corpus(tmp_path / "corpus", {
        "toy/game.toml": game_toml("toy"),
        "toy/rules.md": (
            "## toy-traits\ntitle: Traits\nkind: rule\nsection: Cards\n\nA crew card lists its traits, such as Smuggler or Bounty Hunter.\n\n"
            "## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\nasked: where may a ferry stop\n\n"
            "A ferry may dock where a captain begins a turn.\n\n"
            "## toy-gull\ntitle: Ferry Gull\nkind: rule\nsection: Cards\n\nThe gull flies over the harbour.\n"
        ),
    })
    with Searcher(open_index([corpus])) as searcher:
        passing = searcher.ask("bounty")
        assert [hit.id for hit in passing.results] == ["toy-traits"]
        assert passing.probability >= 0.5 and not passing.confident
        assert passing.evidence[features.CONFIDENCE.index("lone_mention")] == 1.0
        for question, entry in (("docking", "toy-dock"), ("stop", "toy-dock"), ("gulll", "toy-gull")):
            answer = searcher.ask(question)
            assert answer.results[0].id == entry
            assert answer.evidence[features.CONFIDENCE.index("lone_mention")] == 0.0, question


def test_a_phrase_mentioned_in_passing_is_no_sure_answer_for_a_stem_its_asked_lines_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """"tide chart", a phrase of the game's vocabulary that one entry's text alone holds, is a lone mention though
    that entry's `asked` line says "tide" too: sharing one stem of the phrase with the questions an entry answers
    does not make it an answer about the phrase. An `asked` line that holds the phrase does."""
    from conftest import write_corpus

    monkeypatch.setitem(features.MODEL, "threshold", 0.5)
    game = game_toml("toy") + '\n[vocabulary]\nsynonyms = [["tide chart", "tide table"]]\n'
    gull = "## toy-gull\ntitle: Ferry Gull\nkind: rule\nsection: Cards\nasked: {asked}\n\nThe gull flies over the harbour whatever the tide chart says.\n"
    dock = "## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\n\nA ferry may dock where a captain begins a turn.\n"
    lone = features.CONFIDENCE.index("lone_mention")
    for asked, mention in (("when does the gull fly over the tide", 1.0), ("what does the tide chart change for the gull", 0.0)):
        corpus = write_corpus(tmp_path / f"corpus-{mention}", {"toy/game.toml": game, "toy/rules.md": gull.format(asked=asked) + "\n" + dock})
        with Searcher(open_index([corpus])) as searcher:
            answer = searcher.ask("tide chart")
            assert [hit.id for hit in answer.results] == ["toy-gull"]
            assert answer.evidence[lone] == mention, asked
            assert answer.confident is (mention == 0.0), asked


def test_a_rule_and_the_change_an_expansion_makes_to_it_are_no_lone_mention(shipped: Searcher):
    """"threshold" finds the victory check and Perlae Imperii's change of it, and nothing else: two entries answer
    it together, so the answer is no lone mention."""
    answer = shipped.ask("threshold", game="res-arcana")
    assert {hit.id for hit in answer.results} == {"arcana-pi-victory-check", "arcana-victory-check"}
    assert answer.evidence[features.CONFIDENCE.index("lone_mention")] == 0.0


def test_each_document_names_its_own_first_heading(tmp_path: Path):
    """Of the headings that read alike, the first of each source document is named: a FAQ's "2.1 Setup" is named
    like the rules' "1.1a Setup", and the rules' "1.1b Setup" is known by its number."""
    from conftest import write_corpus

    def entry(entry_id: str, title: str, text: str) -> str:
        return f"## {entry_id}\ntitle: {title}\nkind: rule\nsection: Setup\ndraft: true\n\n{text}\n\n"

    corpus = write_corpus(tmp_path / "corpus", {
        "toy/game.toml": game_toml("toy") + '\n'
                         '[[sources]]\nid = "faq"\ntitle = "FAQ"\n',
        "toy/rules.md": entry("toy-1-1a-setup", "1.1a Setup", "Shuffle the deck.") + entry("toy-1-1b-setup", "1.1b Setup", "Deal five cards."),
        "toy/faq.md": entry("toy-2-1-setup", "2.1 Setup", "Setup takes a minute."),
    })
    with Searcher(open_index([corpus])) as searcher:
        stems = {hit.id: hit.data["name_stems"] for hit in searcher.ask("setup", limit=10).results}
    assert stems == {"toy-1-1a-setup": [["setup"]], "toy-1-1b-setup": [["1.1b", "setup"]], "toy-2-1-setup": [["setup"]]}


def test_one_word_that_names_nothing_is_no_sure_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A question of one word that the first entry's text holds (however far ahead of the others it is), or that a
    name holds only as a close spelling ("help" for the "Hell" of "Gate of Hell": no other typo of a name's word,
    "gulll", can be told from it), is not stood by: one word is a look-up, and the entry names nothing of it. A word
    a name holds as typed, a typo of a whole name, or a word of an `asked` line still is."""
    from conftest import write_corpus

    monkeypatch.setitem(features.MODEL, "threshold", 0.0)
    corpus = write_corpus(tmp_path / "corpus", {
        "toy/game.toml": game_toml("toy"),
        "toy/rules.md": (
            "## toy-gate\ntitle: Gate of Hell\nkind: rule\nsection: Cards\n\nThe gate opens at dusk, thanks to its keeper.\n\n"
            "## toy-dock\ntitle: Docking\nkind: rule\nsection: Turn\nasked: where may a ferry stop\n\n"
            "A ferry may dock where a captain begins a turn, thanks to the tide.\n\n"
            "## toy-gull\ntitle: Ferry Gull\nkind: rule\nsection: Cards\n\nThe gull flies over the harbour.\n\n"
            "## toy-light\ntitle: Lighthouse\nkind: rule\nsection: Cards\n\nIts lamp shows the way in.\n\n"
            "## toy-effects\ntitle: Optional effects\nkind: rule\nsection: Cards\naliases: black X\nasked: is the black x optional\n\n"
            "An effect marked with a black cross may be left out.\n"
        ),
    })
    lone = features.CONFIDENCE.index("lone_word")
    with Searcher(open_index([corpus])) as searcher:
        # (and a word too short to be named, "x", that a name and a question of the entry hold: no look-up of it)
        for question in ("help", "keeper", "dusk", "gulll", "x"):
            answer = searcher.ask(question)
            assert answer.results and answer.evidence[lone] == 1.0 and not answer.confident, question
        for question, entry in (("gull", "toy-gull"), ("ferry gul", "toy-gull"), ("stop", "toy-dock"), ("hell", "toy-gate"), ("lighthose", "toy-light")):
            answer = searcher.ask(question)
            assert answer.results[0].id == entry and answer.evidence[lone] == 0.0, question
