"""Curator workflow: drafts, house rules over a shipped game, what changed, verified citations, `rulebot new`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MINIMAL, game_toml, rulebot_process, write_corpus

from rulebot.corpus import changes, citations, scaffold
from rulebot.corpus import load as corpus
from rulebot.index.payload import entry_payload
from rulebot.places import shipped_corpus_dir

TOY = ("--no-shipped", "--corpus", str(MINIMAL))

HOUSE_TOML = """\
extends = "lantern-harbor"

[[sources]]
id = "our-table"
title = "House rules of our table"
date = 2024-09-01
"""

HOUSE_RULE = """\
## lh-house-double-gull
title: Double Gull
kind: house-rule
section: Our table
modifies: lh-ferry-gull

At our table the Ferry Gull moves two ferries.
"""


def house_corpus(tmp_path: Path, toml: str = HOUSE_TOML, entries: str = HOUSE_RULE, folder: str = "lantern-harbor") -> Path:
    """A corpus folder holding house rules for the minimal corpus's game."""
    return write_corpus(tmp_path / "house", {f"{folder}/game.toml": toml, f"{folder}/our-table.md": entries})


def messages(problems) -> list[str]:
    """Problems as 'FILE:LINE: message' with the file's name only."""
    return [f"{Path(p.path).name}:{p.line}: {p.message}" for p in problems]


class TestDrafts:
    @pytest.fixture
    def drafted(self, minimal_copy: Path) -> Path:
        """The minimal corpus with one entry marked as a draft."""
        path = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = path.read_text(encoding="utf-8").replace("section: Setup\n", "section: Setup\ndraft: true\n", 1)
        path.write_text(text, encoding="utf-8")
        return minimal_copy

    def test_draft_is_read(self, drafted: Path):
        """`draft: true` marks the entry; entries without it are not drafts."""
        loaded = corpus.load([drafted])
        assert loaded.entry("lh-setup").draft is True
        assert loaded.entry("lh-winning").draft is False

    def test_draft_value_is_checked(self, tmp_path: Path, minimal_copy: Path):
        """A draft value other than true or false is a problem at its line."""
        path = minimal_copy / "lantern-harbor" / "rulebook.md"
        path.write_text(path.read_text(encoding="utf-8").replace("section: Setup\n", "section: Setup\ndraft: maybe\n", 1), encoding="utf-8")
        _, problems = corpus.check([minimal_copy])
        assert messages(problems) == ["rulebook.md:7: draft must be true or false, not 'maybe'"]

    @pytest.mark.parametrize(("added", "message"), [
        ("revised: 2024-01-01\nnew: maybe\n", "rulebook.md:8: new must be true or false, not 'maybe'"),
        ("new: true\n", "rulebook.md:7: new goes with revised: the date of the edition that adds the entry"),
    ])
    def test_new_value_is_checked(self, minimal_copy: Path, added: str, message: str):
        """`new` is true or false, and says which edition adds the entry only beside a `revised` date."""
        path = minimal_copy / "lantern-harbor" / "rulebook.md"
        path.write_text(path.read_text(encoding="utf-8").replace("section: Setup\n", "section: Setup\n" + added, 1), encoding="utf-8")
        _, problems = corpus.check([minimal_copy])
        assert messages(problems) == [message]

    def test_payload_has_draft(self, drafted: Path):
        """The entry payload (ask, list, the site) carries draft."""
        loaded = corpus.load([drafted])
        assert entry_payload(loaded, loaded.entry("lh-setup"))["draft"] is True

    def test_check_warns(self, run_cli, drafted: Path):
        """Plain check counts the drafts in a warning and passes."""
        result = run_cli("--no-shipped", "check", str(drafted))
        assert result.exit_code == 0
        assert "Warning: 1 draft entry, whose text" in result.stderr
        assert result.stderr.endswith("OK: 6 entries in 1 game (lantern-harbor 6)\n") and result.stdout == ""

    def test_an_empty_entries_file_is_a_warning(self, run_cli, minimal_copy: Path):
        """A declared source's entries file that holds no entry (emptied by mistake) is a warning at the file; with
        --strict a problem. A file whose entries all have problems is reported for those, not as empty."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        kept = rules.read_text(encoding="utf-8")
        rules.write_text("", encoding="utf-8")
        result = run_cli("--no-shipped", "check", str(minimal_copy))  # (fails: the FAQ links to rules now gone)
        assert f"{rules}:0: warning: no entries of source 'rulebook' of lantern-harbor" in result.stdout, result.output
        strict = run_cli("--no-shipped", "check", "--strict", str(minimal_copy))
        assert f"{rules}:0: no entries of source 'rulebook' of lantern-harbor" in strict.stdout, strict.output
        rules.write_text(kept.replace("kind: rule", "kind: law"), encoding="utf-8")
        result = run_cli("--no-shipped", "check", str(minimal_copy))
        assert result.exit_code == 1 and "unknown kind 'law'" in result.stdout and "no entries of source" not in result.output

    def test_strict_check_fails(self, run_cli, drafted: Path):
        """check --strict lists each draft at its file and line and fails."""
        result = run_cli("--no-shipped", "check", "--strict", str(drafted))
        assert result.exit_code == 1
        assert f"{drafted / 'lantern-harbor' / 'rulebook.md'}:3: entry 'lh-setup' is a draft" in result.stdout
        assert "Error: 1 problem found" in result.stderr

    def test_strict_passes_without_drafts(self, run_cli):
        """check --strict passes a corpus without drafts."""
        assert run_cli(*TOY, "check", "--strict").exit_code == 0


class TestHouseRules:
    def test_overlay_adds_house_rules_to_a_game(self, tmp_path: Path):
        """A folder whose game.toml extends a game adds its house sources and entries to it."""
        loaded = corpus.load([MINIMAL, house_corpus(tmp_path)])
        game = loaded.game("lantern-harbor")
        assert [s.id for s in game.sources] == ["rulebook", "tides-faq", "our-table"]
        assert game.source("our-table").trust == "house"
        entry = loaded.entry("lh-house-double-gull")
        assert (entry.game, entry.source, entry.kind) == ("lantern-harbor", "our-table", "house-rule")
        assert loaded.modified_by()["lh-ferry-gull"] == ["lh-house-double-gull"]

    def test_overlay_may_come_first(self, tmp_path: Path):
        """The folders may be given in any order."""
        loaded = corpus.load([house_corpus(tmp_path), MINIMAL])
        assert "lh-house-double-gull" in loaded.entries

    def test_payload_flags_house_rules(self, tmp_path: Path):
        """The payload says house_rule, and the source's trust is house."""
        loaded = corpus.load([MINIMAL, house_corpus(tmp_path)])
        payload = entry_payload(loaded, loaded.entry("lh-house-double-gull"))
        assert payload["house_rule"] is True and payload["source"]["trust"] == "house"
        assert entry_payload(loaded, loaded.entry("lh-ferry-gull"))["house_rule"] is False

    def test_list_json_shows_house_rules(self, run_cli, tmp_path: Path):
        """`--corpus HOUSE` adds the house rules to what rulebot lists, flagged."""
        result = run_cli(*TOY, "--corpus", str(house_corpus(tmp_path)), "list", "--json", "--kind", "house-rule")
        assert result.exit_code == 0
        [entry] = json.loads(result.stdout)["results"]
        assert entry["id"] == "lh-house-double-gull" and entry["house_rule"] is True

    CONFLICTS = (
        ("non-house entry", HOUSE_TOML, HOUSE_RULE.replace("kind: house-rule", "kind: rule"),
         "our-table.md:3: entry 'lh-house-double-gull' is kind 'rule': a house-rules folder holds only kind: house-rule entries"),
        ("official source", HOUSE_TOML.replace('date = 2024-09-01', 'trust = "official"'), HOUSE_RULE,
         "game.toml:6: source 'our-table' of a house-rules folder must have trust \"house\", not 'official'"),
        ("same id twice", HOUSE_TOML, HOUSE_RULE.replace("lh-house-double-gull", "lh-ferry-gull"),
         "our-table.md:1: duplicate id 'lh-ferry-gull'"),
        ("alias claimed twice", HOUSE_TOML, HOUSE_RULE.replace("section: Our table", "section: Our table\naliases: victory"),
         "our-table.md:5: alias 'victory' is also claimed by 'lh-winning'"),
        ("source declared twice", HOUSE_TOML.replace('id = "our-table"', 'id = "rulebook"'), HOUSE_RULE,
         "game.toml:4: source 'rulebook' is already declared by 'lantern-harbor'"),
        ("unknown game", HOUSE_TOML.replace('extends = "lantern-harbor"', 'extends = "chess"'), HOUSE_RULE,
         "game.toml:1: extends unknown game 'chess' (known: lantern-harbor)"),
        ("game keys", 'name = "Other"\n' + HOUSE_TOML, HOUSE_RULE,
         "game.toml:1: unknown key 'name' (known: extends, sources)"),
    )

    @pytest.mark.parametrize(("toml", "entries", "expected"), [c[1:] for c in CONFLICTS], ids=[c[0] for c in CONFLICTS])
    def test_conflicts_are_reported(self, tmp_path: Path, toml: str, entries: str, expected: str):
        """Each conflict between a house-rules folder and the game it extends is reported at its line."""
        _, problems = corpus.check([MINIMAL, house_corpus(tmp_path, toml, entries)])
        found = messages(problems)
        assert any(p.startswith(expected) for p in found), found

    def test_a_shipped_game_left_out_by_no_shipped_is_said_so(self, run_cli, tmp_path: Path):
        """House rules for a game of the shipped corpus, checked with --no-shipped: the problem says that the shipped
        corpus is not read (the folder itself is right); a game that is nowhere is only unknown."""
        house = house_corpus(tmp_path, HOUSE_TOML.replace('extends = "lantern-harbor"', 'extends = "catalyst"'), HOUSE_RULE)
        result = run_cli("--no-shipped", "check", str(house))
        assert result.exit_code == 1
        assert "extends unknown game 'catalyst' (known: none): a game of the corpus shipped with rulebot, which is not read here (--no-shipped?)" in result.stdout
        assert run_cli("check", str(house)).stdout.count("extends unknown game") == 0
        _, problems = corpus.check([MINIMAL, house_corpus(tmp_path / "other", HOUSE_TOML.replace('extends = "lantern-harbor"', 'extends = "chess"'))])
        assert not any("--no-shipped" in p.message for p in problems)

    def test_second_game_folder_without_extends(self, tmp_path: Path):
        """A second folder for a game, without `extends`, is refused with a hint."""
        toml = (MINIMAL / "lantern-harbor" / "game.toml").read_text(encoding="utf-8")
        _, problems = corpus.check([MINIMAL, house_corpus(tmp_path, toml.replace('id = "tides-faq"', 'id = "our-table"'))])
        assert any("already defined" in p.message and "extends = 'lantern-harbor'" in p.message for p in problems)

    def test_check_reports_conflicts_across_corpora(self, run_cli, tmp_path: Path):
        """`rulebot check` with --corpus reports a conflict with the corpus below it."""
        house = house_corpus(tmp_path, entries=HOUSE_RULE.replace("lh-house-double-gull", "lh-setup"))
        result = run_cli(*TOY, "--corpus", str(house), "check")
        assert result.exit_code == 1
        assert "duplicate id 'lh-setup'" in result.stdout

    def test_official_only_hides_house_rules(self, run_cli, tmp_path: Path):
        """ask --official-only leaves house rules out."""
        house = house_corpus(tmp_path)
        found = json.loads(run_cli(*TOY, "--corpus", str(house), "ask", "--json", "double gull").stdout)
        assert "lh-house-double-gull" in [r["id"] for r in found["results"]]
        result = run_cli(*TOY, "--corpus", str(house), "ask", "--json", "--official-only", "double gull")
        assert "lh-house-double-gull" not in [r["id"] for r in json.loads(result.stdout)["results"]]

    def test_official_only_finds_official_rulings_past_many_house_ones(self, run_cli, minimal_copy: Path):
        """Entries of a house source (of any kind) are left out before the best are picked, not after:
        many of them matching better leave room for the official ruling."""
        folder = minimal_copy
        game = folder / "lantern-harbor" / "game.toml"
        toml = game.read_text(encoding="utf-8")
        game.write_text(toml.replace("[vocabulary]", '[[sources]]\nid = "club-notes"\ntitle = "Our club\'s notes"\ntrust = "house"\n\n[vocabulary]'), encoding="utf-8")
        notes = "".join(
            f"## lh-club-gull-{n}\ntitle: Gull {n}\nkind: rule\nsection: Club\n\nGull, gull, gull: note {n}.\n\n"
            for n in range(60)
        )
        (folder / "lantern-harbor" / "club-notes.md").write_text(notes, encoding="utf-8")
        every = json.loads(run_cli("--no-shipped", "--corpus", str(folder), "ask", "--json", "gull").stdout)["results"]
        assert any(r["id"].startswith("lh-club-gull-") for r in every)
        result = run_cli("--no-shipped", "--corpus", str(folder), "ask", "--json", "--official-only", "gull")
        ids = [r["id"] for r in json.loads(result.stdout)["results"]]
        assert "lh-ferry-gull" in ids and not any(i.startswith("lh-club-") for i in ids)

    def test_official_only_shows_no_house_rule_as_a_change(self, run_cli, tmp_path: Path):
        """A house rule of an expansion in play, modifying a ruling found, is not shown before it with --official-only."""
        house = house_corpus(tmp_path, entries=HOUSE_RULE.replace("section: Our table", "section: Our table\nexpansion: deep-tides"))
        asked = ("--corpus", str(house), "ask", "--json", "--with", "deep-tides", "ferry gull moves")
        found = [r["id"] for r in json.loads(run_cli(*TOY, *asked).stdout)["results"]]
        assert found.index("lh-house-double-gull") < found.index("lh-ferry-gull")
        found = [r["id"] for r in json.loads(run_cli(*TOY, *asked[:-1], "--official-only", asked[-1]).stdout)["results"]]
        assert "lh-ferry-gull" in found and "lh-house-double-gull" not in found

    def test_official_only_shows_no_house_rule_anywhere(self, run_cli, tmp_path: Path):
        """With --official-only, an official ruling's "Changed by", modified_by, see_also and referenced_by leave house rules out."""
        house = house_corpus(tmp_path, entries=HOUSE_RULE.replace("section: Our table", "section: Our table\nsee_also: lh-ferry-gull"))
        asked = (*TOY, "--corpus", str(house), "ask")
        every = json.loads(run_cli(*asked, "--json", "ferry gull").stdout)["results"][0]
        assert every["id"] == "lh-ferry-gull"
        assert [r["id"] for r in every["modified_by"]] == every["referenced_by"] == ["lh-house-double-gull"]
        assert every["modified_by"][0]["house_rule"] is True
        assert "Changed by: Double Gull" in run_cli(*asked, "ferry gull").stdout
        official = json.loads(run_cli(*asked, "--json", "--official-only", "ferry gull").stdout)["results"][0]
        assert official["id"] == "lh-ferry-gull"
        assert (official["modified_by"], official["referenced_by"]) == ([], [])
        assert "Changed by" not in run_cli(*asked, "--official-only", "ferry gull").stdout

    def test_official_only_drops_links_to_house_rules(self, run_cli, tmp_path: Path):
        """An official ruling that links to a house rule (a folder of house rules may change an official game's files)
        shows neither its see_also nor its modifies with --official-only."""
        folder = tmp_path / "corpus"
        write_corpus(folder, {
            "lantern-harbor/game.toml": (MINIMAL / "lantern-harbor" / "game.toml").read_text(encoding="utf-8"),
            "lantern-harbor/rulebook.md": (MINIMAL / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8").replace(
                "aliases-fr: Mouette du Bac", "aliases-fr: Mouette du Bac\nsee_also: lh-house-double-gull; lh-setup"),
            "lantern-harbor/tides-faq.md": (MINIMAL / "lantern-harbor" / "tides-faq.md").read_text(encoding="utf-8"),
        })
        asked = ("--no-shipped", "--corpus", str(folder), "--corpus", str(house_corpus(tmp_path)), "ask", "--json")
        every = json.loads(run_cli(*asked, "ferry gull").stdout)["results"][0]
        assert every["see_also"] == ["lh-house-double-gull", "lh-setup"]
        official = json.loads(run_cli(*asked, "--official-only", "ferry gull").stdout)["results"][0]
        assert official["see_also"] == [r["id"] for r in official["see_also_refs"]] == ["lh-setup"]


class TestChanges:
    def test_since_a_date(self):
        """Entries revised on or after the date, or whose source is dated then, newest first."""
        loaded = corpus.load([MINIMAL])
        found = changes.changes(loaded, "lantern-harbor", "2024-03-01")
        assert [(c.entry.id, c.date, c.because) for c in found][:2] == [
            ("lh-tides-whirlpool", "2024-06-01", "revised"),
            ("lh-setup", "2024-03-01", "source"),
        ]
        assert [c.entry.id for c in changes.changes(loaded, "lantern-harbor", "2024-04-01")] == ["lh-tides-whirlpool"]

    def test_undated_entries_are_never_listed(self):
        """An entry without revised date whose source has no date is not listed."""
        ids = [c.entry.id for c in changes.changes(corpus.load([MINIMAL]), "lantern-harbor")]
        assert "lh-tides-winning" not in ids and len(ids) == 5

    def test_bad_date(self):
        """A date that is not YYYY-MM-DD is refused."""
        from rulebot.errors import CurationError

        with pytest.raises(CurationError):
            changes.changes(corpus.load([MINIMAL]), "lantern-harbor", "June")

    def test_command(self, run_cli):
        """`rulebot changes GAME --since DATE` prints one line per entry."""
        result = run_cli(*TOY, "changes", "lantern-harbor", "--since", "2024-04-01")
        assert result.exit_code == 0
        assert result.stdout == (
            "Lantern Harbor: 1 entry new or revised since 2024-04-01\n"
            "2024-06-01  lh-tides-whirlpool  Whirlpool [fine-point, new or revised]\n"
        )

    def test_command_json(self, run_cli):
        """`changes --json` prints entry objects with the date that counted."""
        data = json.loads(run_cli(*TOY, "changes", "lantern-harbor", "--since", "2024-01-01", "--json").stdout)
        assert data["since"] == "2024-01-01"
        assert data["results"][0]["id"] == "lh-tides-whirlpool"
        assert data["results"][1]["changed"] == "2024-03-01" and data["results"][1]["because"] == "source"

    def test_undated_entries_are_said(self, run_cli, tmp_path: Path):
        """A game whose source has no date lists none of its entries: it says how many, and how to date them."""
        from conftest import skyrail_toml, write_corpus

        root = write_corpus(tmp_path, {
            "games/skyrail/game.toml": skyrail_toml(),
            "games/skyrail/rules.md": "## skyrail-one\ntitle: One\nkind: rule\nsection: S\n\nA train runs.\n",
        })
        result = run_cli("--no-shipped", "--corpus", str(root / "games"), "changes", "skyrail")
        assert result.exit_code == 0, result.output
        assert "Skyrail" in result.stdout and "0 entries new or revised" in result.stdout
        assert "1 entry of source 'rules' has no date: give the source its `date` in" in result.stderr
        dated = run_cli(*TOY, "changes", "lantern-harbor").stderr  # (its rulebook is dated, its FAQ is not)
        assert "source 'rulebook'" not in dated and "of source 'tides-faq' has no date" in dated

    def test_undated_entries_of_an_installed_game_send_nobody_to_its_game_toml(self, run_cli, tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch):
        """A game of the corpus installed with rulebot, whose game.toml is never changed: the note says its source
        has no date, and names no file to edit."""
        from conftest import skyrail_toml, write_corpus

        from rulebot import places

        root = write_corpus(tmp_path, {
            "games/skyrail/game.toml": skyrail_toml(),
            "games/skyrail/rules.md": "## skyrail-one\ntitle: One\nkind: rule\nsection: S\n\nA train runs.\n",
        })
        monkeypatch.setattr(places, "package_dir", lambda: tmp_path)  # (as if the corpus were the package's)
        result = run_cli("--no-shipped", "--corpus", str(root / "games"), "changes", "skyrail")
        assert result.exit_code == 0, result.output
        assert "1 entry of source 'rules' has no date: the corpus installed with rulebot gives that source none" in result.stderr
        assert "game.toml" not in result.stderr

    def test_command_bad_date_is_usage_error(self, run_cli):
        """A bad --since is a usage error (exit 2)."""
        result = run_cli(*TOY, "changes", "lantern-harbor", "--since", "2024-02-30")
        assert result.exit_code == 2
        assert "not a date YYYY-MM-DD: '2024-02-30'" in result.output

    def test_unknown_game(self, run_cli):
        """An unknown game is a one-line error."""
        assert "Error: no game 'chess'" in run_cli(*TOY, "changes", "chess").output

    def test_shipped_faq_marks_date_the_changes_by_their_edition(self, run_cli):
        """The Dune FAQ of 2022-12-14 marks entries new or revised since its edition of 2021-02-14: `changes --since`
        a date after that edition lists exactly the marked ones, changed after 2021-02-14, by 2022-12-14; the rest
        date from 2021-02-14 or before."""
        marked = [e.id for e in corpus.load([shipped_corpus_dir()]).entries_of("dune-imperium") if e.revised]
        assert len(marked) == 18
        for since in ("2021-02-15", "2022-01-01"):
            data = json.loads(run_cli("changes", "dune-imperium", "--since", since, "--json").stdout)
            assert [r["id"] for r in data["results"]] == marked
            assert {(r["changed"], r["after"], r["because"]) for r in data["results"]} == {("2022-12-14", "2021-02-14", "revised")}
        assert json.loads(run_cli("changes", "dune-imperium", "--since", "2023-01-01", "--json").stdout)["results"] == []
        every = json.loads(run_cli("changes", "dune-imperium", "--json").stdout)["results"]
        assert [r["id"] for r in every][: len(marked)] == marked  # the changed ones first
        assert {r["changed"] for r in every[len(marked):]} == {"2021-02-14"}
        text = run_cli("changes", "dune-imperium", "--since", "2021-02-15").output
        assert text.startswith("Dune: Imperium: 18 entries new or revised since 2021-02-15\n")
        assert "Beguiling Pheromones [fine-point, new or revised since 2021-02-14]" in text

    def test_an_unmarked_entry_is_dated_by_the_oldest_edition_and_says_so(self, run_cli):
        """`rulebot changes dune-imperium`: an entry the FAQ does not mark is dated by the FAQ's oldest edition
        (2021-02-14), labelled so, not as the source's date (the FAQ's own date is 2022-12-14)."""
        text = run_cli("changes", "dune-imperium").output
        unmarked = [line for line in text.splitlines() if line.startswith("2021-02-14")]
        assert unmarked and all(line.endswith(", oldest edition]") for line in unmarked), unmarked[:2]
        assert "source date" not in text
        every = json.loads(run_cli("changes", "dune-imperium", "--json").stdout)["results"]
        assert {r["because"] for r in every if r["changed"] == "2021-02-14"} == {"oldest-edition"}
        # A source that lists no editions: its own date, "source date" as before.
        assert "2024-03-01  lh-setup  Setup [setup, source date]" in run_cli(*TOY, "changes", "lantern-harbor").output

    @pytest.mark.parametrize(
        "editions, revised, warned",
        [
            ('editions = [{ date = 2023-05-01, edition = "first" }]', "2023-05-01", "2023-05-01"),  # the oldest edition
            ('editions = [{ date = 2023-05-01, edition = "first" }]', "2024-03-01", None),  # the edition after it
            ("", "2023-01-01", "2024-03-01"),  # before the document, which lists no editions
            ("", "2024-03-01", None),  # the document itself
        ],
    )
    def test_check_warns_of_an_old_style_revised(self, tmp_path: Path, run_cli, editions, revised, warned):
        """`revised` names the edition that marks an entry changed: one that is the source's oldest edition (when
        it lists earlier ones), or before it, is most likely an old "revised since DATE" mark: `check` warns (exit 0)."""
        toml = (MINIMAL / "lantern-harbor" / "game.toml").read_text(encoding="utf-8")
        rules = (MINIMAL / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8")
        dated = toml.replace("date = 2024-03-01\n", f"date = 2024-03-01\n{editions}\n", 1)
        marked = rules.replace("section: Setup\n", f"section: Setup\nrevised: {revised}\n", 1)
        folder = write_corpus(tmp_path / "c", {"lantern-harbor/game.toml": dated, "lantern-harbor/rulebook.md": marked})
        result = run_cli("--no-shipped", "check", str(folder))
        assert result.exit_code == 0, result.output
        line = next(n for n, text in enumerate(marked.splitlines(), 1) if text.startswith("revised:"))
        if warned is None:
            assert "warning: revised" not in result.output
        else:
            assert (
                f"rulebook.md:{line}: warning: revised {revised} is no later than the oldest edition of source 'rulebook'"
                f" ({warned}): `revised` is the date of the edition that marks the entry changed" in result.output
            ), result.output

    def test_ask_tags_the_edition_that_revised_it(self, run_cli):
        """`ask` tags an entry with the edition that marks it revised, as `changes` dates it."""
        result = run_cli("ask", "--game", "dune-imperium", "beguiling pheromones")
        assert "revised in the edition of 2022-12-14" in " ".join(result.output.split())

    def test_editions_are_checked(self, tmp_path: Path, run_cli):
        """`check` reports, at FILE:LINE, an entry's `revised` that is none of its source's editions, and editions
        out of order."""
        toml = (MINIMAL / "lantern-harbor" / "game.toml").read_text(encoding="utf-8")
        rules = (MINIMAL / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8")
        assert 'id = "rulebook"' in toml and "date = 2024-03-01" in toml
        dated = toml.replace("date = 2024-03-01\n", "date = 2024-03-01\neditions = [{ date = 2023-05-01, edition = \"first\" }]\n", 1)
        folder = write_corpus(tmp_path / "c", {"lantern-harbor/game.toml": dated,
                                               "lantern-harbor/rulebook.md": rules.replace("section: Setup\n", "section: Setup\nrevised: 2023-06-01\n", 1)})
        result = run_cli("--no-shipped", "check", str(folder))
        line = next(n for n, text in enumerate((folder / "lantern-harbor/rulebook.md").read_text().splitlines(), 1) if text.startswith("revised:"))
        assert f"rulebook.md:{line}: revised 2023-06-01 is no edition of source 'rulebook' (its editions: 2023-05-01, 2024-03-01)" in result.output
        assert result.exit_code == 1
        late = toml.replace("date = 2024-03-01\n", "date = 2024-03-01\neditions = [{ date = 2024-05-01 }]\n", 1)
        write_corpus(folder, {"lantern-harbor/game.toml": late, "lantern-harbor/rulebook.md": rules})
        result = run_cli("--no-shipped", "check", str(folder))
        assert "game.toml:" in result.output and "must be oldest first" in result.output


RULEBOOK_COPY = """\
# Lantern Harbor

## Contents

Setup
End of the game
Cards

## Setup

Everyone takes shells and a ferry.

## End of the Game

Whoever has most glory wins.

## Cards

**Ferry Gull** — Moves a ferry.
"""


class TestCitations:
    @pytest.fixture
    def sources(self, tmp_path: Path) -> Path:
        """A folder with a copy of the rulebook (but not of the FAQ)."""
        folder = tmp_path / "sources"
        folder.mkdir()
        (folder / "rulebook.md").write_text(RULEBOOK_COPY, encoding="utf-8")
        return folder

    def test_dangling_citation(self, sources: Path):
        """A section found nowhere in its document is dangling, at the entry's section line."""
        found = citations.verify(corpus.load([MINIMAL]), sources)
        assert messages(found.dangling) == [
            (
                "rulebook.md:31: dangling citation: 'lh-lantern-keeper' cites section 'Cards > Lantern Keeper', "
                "not found in rulebook.md (looked for 'Lantern Keeper')"
            )
        ]
        assert found.verified == 3
        assert found.missing == {"lantern-harbor/tides-faq": 2}

    def test_summary(self, sources: Path):
        """The summary counts verified, dangling, ambiguous and unchecked citations."""
        found = citations.verify(corpus.load([MINIMAL]), sources)
        assert found.summary() == "citations: 3 verified, 1 dangling, 0 ambiguous; 2 not checked (no document for lantern-harbor/tides-faq)"

    def test_summary_names_the_file_game_toml_names(self, sources: Path, minimal_copy: Path):
        """A source whose document game.toml names (`document`) and the folder lacks: the summary says which file was
        looked for, so that a copy of another name is seen to be why."""
        toml = minimal_copy / "lantern-harbor" / "game.toml"
        text = toml.read_text(encoding="utf-8")
        toml.write_text(text.replace('id = "tides-faq"', 'id = "tides-faq"\ndocument = "tides v2.md"', 1), encoding="utf-8")
        found = citations.verify(corpus.load([minimal_copy]), sources)
        assert "(no document for lantern-harbor/tides-faq (tides v2.md))" in found.summary(), found.summary()

    @pytest.mark.parametrize(
        ("section", "document", "line"),
        [
            ("Setup", "## Setup\n\nText.", 1),
            ("End of the game", "END OF THE GAME\n\nText.", 1),
            ("Égalité", "## EGALITE\n\nTexte.", 1),
            ("Cards > Ferry Gull", "Intro.\n\n\\* **Ferry Gull** – moves.", 3),
            ("Scoring (the table)", "Intro.\n\nScoring:\n\nText.", 3),
            ("Phase 2, bullet 3", "Phase 2\n\n- one\n- two\n- three", 1),
            ("702.19b", "702.19a First.\n\n702.19b Second.", 3),
            ("Victory check", "### Phase 3: Victory check\n\nText.", 1),
            ("Rules > Ferry Gull", "Mid sentence. **Ferry Gull** — a card.", 1),
        ],
    )
    def test_found(self, section: str, document: str, line: int):
        """A section is found case- and accent-insensitively, as heading, lead-in, rule number or title."""
        components = section.split(" > ")
        places = citations.Document(document).locate(components[-1], components[:-1])
        assert [p.line for p in places] == [line]

    def test_not_found(self):
        """A name that is only mentioned in running text is not found."""
        assert citations.Document("The Ferry Gull is a card.\n").locate("Ferry Gull") == []

    def test_table_of_contents_does_not_compete(self):
        """A title listed in a table of contents is no ambiguity with the heading in the text."""
        text = "Contents\nSetup\nPlay\nScoring\n\nSetup\nEveryone takes three shells.\n"
        assert [p.line for p in citations.Document(text).locate("Setup")] == [6]

    def test_context_decides(self):
        """The earlier components of the section choose between two places."""
        text = "## Cards\n\n**Gull** — a card.\n\n## Promo cards\n\n**Gull** — the promo card.\n"
        document = citations.Document(text)
        assert [p.line for p in document.locate("Gull", ["Promo cards"])] == [7]
        assert [p.line for p in document.locate("Gull")] == [3, 7]

    def test_find_document(self, tmp_path: Path):
        """A source's copy is <id>.md or .txt, in a game subfolder, or a file named with the id as prefix."""
        write_corpus(tmp_path, {"rulebook.txt": "x", "lantern-harbor/tides-faq.md": "x", "other-faq-v2.md": "x", "lantern-harbor-notes-2024.txt": "x"})
        assert citations.find_document(tmp_path, "lantern-harbor", "rulebook") == tmp_path / "rulebook.txt"
        assert citations.find_document(tmp_path, "lantern-harbor", "tides-faq") == tmp_path / "lantern-harbor" / "tides-faq.md"
        assert citations.find_document(tmp_path, "lantern-harbor", "other-faq") == tmp_path / "other-faq-v2.md"
        assert citations.find_document(tmp_path, "lantern-harbor", "notes") == tmp_path / "lantern-harbor-notes-2024.txt"
        assert citations.find_document(tmp_path, "lantern-harbor", "missing") is None

    def test_check_sources(self, run_cli, sources: Path):
        """check --sources reports dangling citations as problems and exits 1."""
        result = run_cli(*TOY, "check", "--sources", str(sources))
        assert result.exit_code == 1
        assert "lantern-harbor/rulebook.md:31: dangling citation: 'lh-lantern-keeper'" in result.stdout
        assert "citations: 3 verified, 1 dangling" in result.stderr

    def test_ambiguous_is_a_warning(self, run_cli, sources: Path):
        """An ambiguous citation is a warning; --strict makes it a problem."""
        text = RULEBOOK_COPY + "\n**Lantern Keeper** — wins ties.\n\n## Promo\n\n**Lantern Keeper** — a promo.\n"
        (sources / "rulebook.md").write_text(text.replace("## Cards\n", "## Cards\n\nSee below.\n"), encoding="utf-8")
        keeper_free = run_cli(*TOY, "check", "--sources", str(sources))
        assert keeper_free.exit_code == 0, keeper_free.output
        assert "warning: " not in keeper_free.stdout
        (sources / "rulebook.md").write_text(text.replace("## Promo", "## Cards"), encoding="utf-8")
        result = run_cli(*TOY, "check", "--sources", str(sources))
        assert result.exit_code == 0
        assert ":31: warning: ambiguous citation: 'lh-lantern-keeper' cites section 'Cards > Lantern Keeper', found in rulebook.md at lines" in result.stdout
        assert run_cli(*TOY, "check", "--strict", "--sources", str(sources)).exit_code == 1

    def test_missing_folder_is_usage_error(self, run_cli, tmp_path: Path):
        """--sources naming no folder is a usage error."""
        assert run_cli(*TOY, "check", "--sources", str(tmp_path / "nowhere")).exit_code == 2


class TestNew:
    def test_block_with_fresh_id(self):
        """The block has a fresh id from the title, the kind, and empty values to fill."""
        made = scaffold.scaffold(corpus.load([MINIMAL]), "lantern-harbor", "faq", title="Setup")
        assert made.id == "lh-setup-2"
        assert made.block == "## lh-setup-2\ntitle: Setup\nkind: faq\nsection:\naliases:\nsee_also:\n"
        assert made.path == Path(corpus.load([MINIMAL]).entry("lh-setup").path)

    def test_id_without_title(self):
        """Without a title the id is the kind and a number."""
        assert scaffold.scaffold(corpus.load([MINIMAL]), "lantern-harbor", "errata").id == "lh-errata-1"

    def test_command_prints(self, run_cli):
        """`rulebot new` prints the block."""
        result = run_cli(*TOY, "new", "--game", "lantern-harbor", "--kind", "faq", "--source", "tides-faq", "--title", "Do gulls swim?")
        assert result.exit_code == 0
        assert result.output.startswith("## lh-do-gulls-swim\ntitle: Do gulls swim?\nkind: faq\n")

    def test_append(self, run_cli, minimal_copy: Path):
        """--append adds the block to the source's file; check then points at what is left to write."""
        args = ("--no-shipped", "--corpus", str(minimal_copy))
        result = run_cli(*args, "new", "-g", "lantern-harbor", "-k", "faq", "-s", "tides-faq", "-t", "Do gulls swim?", "--append")
        assert result.exit_code == 0
        faq = minimal_copy / "lantern-harbor" / "tides-faq.md"
        assert faq.read_text(encoding="utf-8").endswith("shells.\n\n## lh-do-gulls-swim\ntitle: Do gulls swim?\nkind: faq\nsection:\naliases:\nsee_also:\n")
        check = run_cli(*args, "check")
        assert check.exit_code == 1
        assert "entry 'lh-do-gulls-swim' has no section" in check.stdout and "entry 'lh-do-gulls-swim' has no text" in check.stdout

    @pytest.mark.parametrize("title", [(), ("-t", "Can gulls swim")], ids=["numbered", "titled"])
    def test_append_twice(self, run_cli, minimal_copy: Path, title: tuple[str, ...]):
        """A second `new --append` in a row gets the next free id: the first entry, not yet filled in
        (so not a valid entry), still has its id."""
        args = ("--no-shipped", "--corpus", str(minimal_copy), "new", "-g", "lantern-harbor", "-k", "faq", *title, "--append")
        first, second = run_cli(*args), run_cli(*args)
        assert (first.exit_code, second.exit_code) == (0, 0), second.output
        ids = ["lh-faq-1", "lh-faq-2"] if not title else ["lh-can-gulls-swim", "lh-can-gulls-swim-2"]
        assert first.stderr.startswith(f"{ids[0]} appended to ") and second.stderr.startswith(f"{ids[1]} appended to ")
        rules = (minimal_copy / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8")
        assert [line for line in rules.splitlines() if line.startswith(f"## {ids[0][:6]}")] == [f"## {i}" for i in ids]

    def test_append_twice_as_processes(self, minimal_copy: Path):
        """The same, as real commands: every one after the first takes the next number."""
        args = ("--no-shipped", "--corpus", str(minimal_copy), "new", "-g", "lantern-harbor", "-k", "faq", "--append")
        results = [rulebot_process(*args) for _ in range(3)]
        assert [r.returncode for r in results] == [0, 0, 0], results[-1].stderr
        assert [r.stderr.split()[0] for r in results] == ["lh-faq-1", "lh-faq-2", "lh-faq-3"]

    def test_new_sees_unfinished_entries(self, minimal_copy: Path):
        """A printed block's id is free among the headings of the game's files, unfinished entries included."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8") + "\n## lh-errata-1\ntitle:\nkind: errata\n", encoding="utf-8")
        loaded, _ = corpus.check([minimal_copy])
        assert "lh-errata-1" not in loaded.entries
        assert scaffold.scaffold(loaded, "lantern-harbor", "errata").id == "lh-errata-2"

    def test_unknown_kind_is_usage_error(self, run_cli):
        """An unknown kind is a usage error (exit 2)."""
        assert run_cli(*TOY, "new", "-g", "lantern-harbor", "-k", "law").exit_code == 2

    def test_unknown_source(self, run_cli):
        """An unknown source is a one-line error (exit 2)."""
        result = run_cli(*TOY, "new", "-g", "lantern-harbor", "-k", "faq", "-s", "nope")
        assert result.exit_code == 2
        assert "Error: no source 'nope' in lantern-harbor (declared: rulebook, tides-faq)" in result.output


def test_house_rule_is_flagged_in_human_output(run_cli, tmp_path: Path):
    """A house rule is flagged as such whenever `ask` prints it."""
    house = house_corpus(tmp_path)
    result = run_cli(*TOY, "--corpus", str(house), "ask", "double gull")
    assert "HOUSE RULE, not an official ruling" in result.output
    assert "[house source]" in result.output


class TestCheckReportsWhatTheCuratorOwns:
    """`check` reports on the curator's folders only; the shipped corpus is context (extends, links)."""

    def test_house_rules_over_a_shipped_game(self, run_cli, tmp_path: Path):
        """`check DIR` on house rules extending a shipped game finds that game, and reports on DIR alone."""
        house = write_corpus(tmp_path / "house", {
            "dune-house/game.toml": 'extends = "dune-imperium"\n\n[[sources]]\nid = "our-table"\ntitle = "Our table"\n',
            "dune-house/our-table.md": "## dune-our-spice\ntitle: Our spice\nkind: house-rule\nsection: Table\n\nWe start with one more spice.\n",
        })
        result = run_cli("check", str(house))
        assert result.exit_code == 0, result.output
        # as a linter: no finding on standard output, the summary on standard error
        assert result.stdout == ""
        assert result.stderr == "OK: 1 entry in 1 game (dune-imperium 1)\n"

    def test_shipped_warnings_are_not_the_curators(self, run_cli, tmp_path: Path):
        """A new game whose titles meet a shipped game's synonyms: no warning about the shipped game.toml,
        one line for the drafts, and the summary counts the curator's games only."""
        games = write_corpus(tmp_path / "games", {
            "skyrail/game.toml": game_toml("skyrail", "Skyrail", "sky"),
            "skyrail/rules.md": "## sky-units\ntitle: Units\nkind: rule\nsection: Units\ndraft: true\n\nTrains and carriages.\n",
        })
        result = run_cli("--corpus", str(games), "check")
        assert result.exit_code == 0, result.output
        assert "corpus/dune-imperium/game.toml" not in result.output
        assert result.stderr.count("1 draft entry") == 1
        assert result.stderr.endswith("OK: 1 entry in 1 game (skyrail 1)\n")

    def test_the_shipped_corpus_alone_is_checked(self, run_cli):
        """With no folder of the curator's, check reports on the shipped corpus (its four games)."""
        result = run_cli("check")
        assert result.exit_code == 0, result.output
        assert "in 4 games" in result.stderr


class TestSourcesByName:
    def test_document_named_in_game_toml(self, run_cli, tmp_path: Path, minimal_copy: Path):
        """A source's `document` names its copy, whatever the file's name."""
        toml = minimal_copy / "lantern-harbor" / "game.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace('id = "rulebook"\n', 'id = "rulebook"\ndocument = "LH rules v2 (2019).md"\n'), encoding="utf-8")
        folder = write_corpus(tmp_path / "sources", {"LH rules v2 (2019).md": RULEBOOK_COPY})
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "check", "--sources", str(folder))
        assert "citations: 3 verified, 1 dangling" in result.stderr

    def test_the_shipped_corpus_against_its_documents(self, run_cli, tmp_path: Path):
        """Every source of the shipped corpus names its document, and each citation is found in a copy
        of it: here documents written from the corpus's own sections, one heading per cited part."""
        from rulebot.places import shipped_corpus_dir

        loaded = corpus.load([shipped_corpus_dir()])
        folder = tmp_path / "sources"
        folder.mkdir()
        for game in loaded.games.values():
            for source in game.sources:
                assert source.document, f"{game.slug}/{source.id} names no document"
                lines = []
                for entry in loaded.entries.values():
                    if (entry.game, entry.source) == (game.slug, source.id):
                        for component in entry.section.split(">"):
                            lines.extend(f"## {part.strip()}\n\nText.\n" for part in component.split(";"))
                (folder / source.document).write_text("\n".join(lines), encoding="utf-8")
        result = run_cli("check", "--sources", str(folder))
        assert result.exit_code == 0, result.output
        assert "not checked (no document" not in result.stderr
        assert "0 dangling" in result.stderr


class TestGarbledAndUnnamedPlaces:
    def test_garbled_heading(self):
        """A heading garbled by a PDF's extraction is the section it nearly spells."""
        text = "Intro text.\n\nTHE END OF THE GRNE\nThe game ends when the deck runs out.\n"
        assert [p.line for p in citations.Document(text).locate("The end of the game")] == [3]

    def test_introduction(self):
        """`Introduction` is the opening text, before the first section (past a table of contents)."""
        text = "# Title\n\n## Table of Contents\n\nWelcome to the game, which is fun.\n\n## Setup\n\nText.\n"
        assert [p.line for p in citations.Document(text).locate("Introduction")] == [5]

    def test_unheaded_is_not_checked(self, tmp_path: Path, minimal_copy: Path):
        """A section saying its place has no heading is counted apart, not dangling."""
        path = minimal_copy / "lantern-harbor" / "rulebook.md"
        path.write_text(path.read_text(encoding="utf-8").replace("section: Cards > Lantern Keeper", "section: Cards (closing list, unheaded), bullet 2"), encoding="utf-8")
        folder = write_corpus(tmp_path / "sources", {"rulebook.md": RULEBOOK_COPY})
        found = citations.verify(corpus.load([minimal_copy]), folder)
        assert (len(found.dangling), found.unheaded) == (0, 1)
