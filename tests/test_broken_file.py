"""One malformed file never stops the table: the commands that answer go on with every valid entry,
and say in one warning what they left out and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MINIMAL, rulebot_process, write_corpus

from rulebot.corpus import load as corpus
from rulebot.errors import CorpusError

PROBLEM = "rulebook.md:11: entry 'lh-winning' has no section"
LEFT_OUT = "left out: 1 entry of lantern-harbor/rulebook.md; 3 references (see_also of lh-setup to lh-winning,"
VALID = ["lh-setup", "lh-ferry-gull", "lh-lantern-keeper", "lh-tides-winning", "lh-tides-whirlpool"]


@pytest.fixture
def broken(minimal_copy: Path) -> Path:
    """The minimal corpus whose entry lh-winning, which three references name, has lost its section."""
    rules = minimal_copy / "lantern-harbor" / "rulebook.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("section: End of the game\n", ""), encoding="utf-8")
    return minimal_copy


def corpus_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class TestCommandsGoOn:
    @pytest.mark.parametrize(
        "args",
        [("ask", "setup"), ("show", "lh-setup"), ("list",), ("games",), ("changes", "lantern-harbor"), ("index",)],
        ids=lambda args: args[0],
    )
    def test_answers_with_one_warning(self, run_cli, broken: Path, args: tuple[str, ...]):
        """The command succeeds, and one warning names the problem at its line and what was left out."""
        result = run_cli("--no-shipped", "--corpus", str(broken), *args)
        assert result.exit_code == 0, result.output
        assert result.stderr.count("Warning:") == 1
        assert PROBLEM in result.stderr
        assert f"Warning: the corpus has 1 problem; {LEFT_OUT}" in result.stderr

    def test_many_problems_are_told_in_a_few_lines(self, run_cli, minimal_copy: Path):
        """A file of eleven problems: the warning names the first three in the file, in order (a link to nothing near its
        top, found after the entries at its end are read), and sends to `check` for the rest; every answer is still given."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = rules.read_text(encoding="utf-8").replace("see_also: lh-winning", "see_also: lh-nowhere", 1)
        rules.write_text(text + "".join(f"\n## lh-unfinished-{n}\ntitle: Unfinished {n}\nkind: rule\n" for n in range(5)), encoding="utf-8")
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "ask", "ferry", "gull")
        assert result.exit_code == 0 and "Ferry Gull" in result.stdout
        told = result.stderr.split("\n")
        start = next(n for n, line in enumerate(told) if line.startswith("Warning: the corpus has"))
        lines = [int(line.split(":")[1]) for line in told[start + 1:start + 4]]
        assert lines == sorted(lines) and all("rulebook.md:" in line for line in told[start + 1:start + 4])
        assert "unknown entry id 'lh-nowhere'" in told[start + 1]
        assert told[start + 4].startswith("  and ") and "`rulebot check` lists them all" in told[start + 4]
        checked = run_cli("--no-shipped", "check", str(minimal_copy))
        assert checked.exit_code == 1 and checked.stdout.count("rulebook.md:") >= 5

    def test_play_answers_with_one_warning(self, run_cli, broken: Path):
        """play answers the questions piped in after the warning."""
        result = run_cli("--no-shipped", "--corpus", str(broken), "play", input="ferry gull\n")
        assert result.exit_code == 0
        assert "Ferry Gull" in result.stdout
        assert result.stderr.count("Warning:") == 1 and PROBLEM in result.stderr

    def test_every_valid_entry_is_there(self, run_cli, broken: Path):
        """Only the entry with the problem is left out."""
        result = run_cli("--no-shipped", "--corpus", str(broken), "list", "--json")
        assert [e["id"] for e in json.loads(result.stdout)["results"]] == VALID

    def test_references_to_it_are_dropped(self, run_cli, broken: Path):
        """References to the entry left out are dropped from the entries that made them."""
        shown = json.loads(run_cli("--no-shipped", "--corpus", str(broken), "show", "--json", "lh-tides-winning").stdout)
        assert (shown["see_also"], shown["modifies"], shown["see_also_refs"]) == ([], [], [])

    def test_warned_again_from_the_index_up_to_date(self, run_cli, broken: Path):
        """A later run, with the index built, still warns: the problems are kept with the index."""
        run_cli("--no-shipped", "--corpus", str(broken), "index")
        result = run_cli("--no-shipped", "--corpus", str(broken), "ask", "setup")
        assert "Building" not in result.stderr
        assert PROBLEM in result.stderr and LEFT_OUT in result.stderr

    def test_quick_path_warns_too(self, broken: Path):
        """A plain `rulebot ask` answered without click warns alike, built or not."""
        for _ in range(2):
            process = rulebot_process("--no-shipped", "--corpus", str(broken), "ask", "setup")
            assert process.returncode == 0, process.stderr
            assert process.stdout.startswith("Setup")
            assert process.stderr.count("Warning:") == 1 and PROBLEM in process.stderr
        assert "Building" not in process.stderr

    def test_fixing_it_ends_the_warning(self, run_cli, broken: Path):
        """Once the problem is fixed, the entry is back and the warning gone."""
        run_cli("--no-shipped", "--corpus", str(broken), "ask", "setup")
        rules = broken / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: rule\n", "kind: rule\nsection: End of the game\n", 1), encoding="utf-8")
        result = run_cli("--no-shipped", "--corpus", str(broken), "show", "lh-winning")
        assert result.exit_code == 0 and "Warning" not in result.stderr

    def test_check_still_fails(self, run_cli, broken: Path):
        """check reports the problem and exits 1."""
        result = run_cli("--no-shipped", "--corpus", str(broken), "check")
        assert result.exit_code == 1 and PROBLEM in result.stdout

    def test_nothing_is_rewritten(self, run_cli, broken: Path, tmp_path: Path):
        """No corpus file is changed by the commands that go on."""
        before = corpus_files(broken)
        for args in (("ask", "setup"), ("list",), ("site", "build", "--keep-going", str(tmp_path / "site"))):
            assert run_cli("--no-shipped", "--corpus", str(broken), *args).exit_code == 0
        assert corpus_files(broken) == before


class TestWhatIsLeftOut:
    def test_a_bad_file_in_another_folder(self, run_cli, tmp_path: Path):
        """A game whose game.toml is malformed, in another corpus folder, is left out; the others answer."""
        toml = 'slug = "copper"\nname = "Copper"\nid_prefix = "Copper Coins"\n'
        other = write_corpus(tmp_path / "other", {"copper/game.toml": toml, "copper/rules.md": "## c-x\n"})
        result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "--corpus", str(other), "ask", "ferry gull")
        assert result.exit_code == 0 and result.stdout.startswith("Ferry Gull")
        assert "Warning: the corpus has 1 problem; left out: the game folder copper/\n" in result.stderr
        assert "copper/game.toml:3: id_prefix 'Copper Coins' must be lower case letters and digits joined by single hyphens; say 'copper-coins'" in result.stderr

    def test_each_problem_is_named(self, broken: Path):
        """The usable corpus keeps every problem, and says what it left out for them."""
        rules = broken / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("## lh-lantern-keeper", "## LH Lantern"), encoding="utf-8")
        loaded = corpus.load_usable([broken])
        assert [p.message for p in loaded.problems] == [
            "entry 'lh-winning' has no section",
            "id 'LH Lantern' must be lower case letters and digits joined by single hyphens; say 'lh-lantern'",
        ]
        assert loaded.left_out[0] == "2 entries of lantern-harbor/rulebook.md"
        assert list(loaded.entries) == ["lh-setup", "lh-ferry-gull", "lh-tides-winning", "lh-tides-whirlpool"]

    def test_a_modifies_cycle_is_cut(self, minimal_copy: Path):
        """Of a cycle of modifies, the link that closes it is dropped: the entries stay."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("see_also: lh-setup\n", "see_also: lh-setup\nmodifies: lh-tides-winning\n"), encoding="utf-8")
        loaded = corpus.load_usable([minimal_copy])
        assert len(loaded.entries) == 6
        assert [p.message for p in loaded.problems] == ["modifies forms a cycle: lh-winning -> lh-tides-winning -> lh-winning"]
        assert loaded.entry("lh-tides-winning").modifies == () and loaded.entry("lh-winning").modifies == ("lh-tides-winning",)

    def test_no_valid_entry_is_an_error(self, minimal_copy: Path):
        """A corpus without a single valid entry is still an error."""
        (minimal_copy / "lantern-harbor" / "game.toml").write_text("slug = \n", encoding="utf-8")
        with pytest.raises(CorpusError):
            corpus.load_usable([minimal_copy])


class TestSite:
    def test_fails_unless_told_to_keep_going(self, run_cli, broken: Path, tmp_path: Path):
        """site build fails on a corpus with a problem, and says how to build without it."""
        result = run_cli("--no-shipped", "--corpus", str(broken), "site", "build", str(tmp_path / "site"))
        assert result.exit_code == 2 and PROBLEM in result.stderr
        assert "Error: the corpus has 1 problem: fix them, or leave out what they touch with --keep-going" in result.stderr
        assert not (tmp_path / "site").exists()

    def test_keeps_going(self, run_cli, broken: Path, tmp_path: Path):
        """With --keep-going, the site holds every valid entry and no link to the one left out."""
        result = run_cli("--no-shipped", "--corpus", str(broken), "site", "build", "--keep-going", str(tmp_path / "site"))
        assert result.exit_code == 0 and result.stderr.count("Warning:") == 1 and PROBLEM in result.stderr
        pages = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
        assert all(f'id="{entry}"' in pages for entry in VALID)
        assert "lh-winning" not in pages
