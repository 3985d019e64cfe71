"""Curators never lose or break anything: `rulebot new --append` writes to a corpus folder of the
user's, house rules to a house-rules folder, and no command writes inside the installed package."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import MINIMAL, write_corpus

from rulebot import places
from rulebot.corpus.files import chosen_dirs, own_dir, user_corpus_dir
from rulebot.places import shipped_corpus_dir


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, by relative path, with its content."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed rulebot, as far as the corpus goes: a package folder whose shipped corpus is the minimal one."""
    folder = tmp_path / "site-packages" / "rulebot"
    shutil.copytree(MINIMAL, folder / "data" / "corpus")
    monkeypatch.setattr(places, "package_dir", lambda: folder)
    assert shipped_corpus_dir() == folder / "data" / "corpus"
    return folder


class TestNewAppend:
    def test_entry_of_an_installed_game_is_refused(self, run_cli, package: Path):
        """An entry of a game in the installed corpus is refused, with what to do instead; nothing is written."""
        before = tree(package)
        result = run_cli("new", "-g", "lantern-harbor", "-k", "faq", "-t", "Do gulls swim?", "--append")
        assert result.exit_code == 2
        assert result.stderr.startswith(
            f"Error: lantern-harbor comes with rulebot, and the corpus installed with it ({package / 'data' / 'corpus'}) is never changed:"
            " add a house rule (rulebot new --game lantern-harbor --kind house-rule --append),"
            " or copy that corpus folder and curate the copy (rulebot --no-shipped --corpus COPY ...)"
        )
        assert tree(package) == before

    def test_house_rule_goes_to_the_user_corpus(self, run_cli, package: Path):
        """A house rule goes to a house-rules folder made in the user corpus folder, read from then on."""
        before = tree(package)
        result = run_cli("new", "-g", "lantern-harbor", "-k", "house-rule", "-t", "Double Gull", "--append")
        assert result.exit_code == 0, result.output
        folder = user_corpus_dir() / "lantern-harbor"
        assert result.stderr == f"lh-double-gull appended to {folder / 'house.md'}\n"
        assert 'extends = "lantern-harbor"' in (folder / "game.toml").read_text(encoding="utf-8")
        assert tree(package) == before
        assert user_corpus_dir() in chosen_dirs()
        written = (folder / "house.md").read_text(encoding="utf-8").replace("section:", "section: Our table") + "\nGulls fly twice.\n"
        (folder / "house.md").write_text(written, encoding="utf-8")
        found = run_cli("list", "--json", "--kind", "house-rule")
        assert [e["id"] for e in json.loads(found.stdout)["results"]] == ["lh-double-gull"]
        assert found.stderr.startswith("Building") and "Warning" not in found.stderr

    def test_second_house_rule_joins_the_first(self, run_cli, package: Path):
        """The next house rule of the game goes to the same file."""
        run_cli("new", "-g", "lantern-harbor", "-k", "house-rule", "-t", "Double Gull", "--append")
        run_cli("new", "-g", "lantern-harbor", "-k", "house-rule", "-t", "Triple Gull", "--append")
        folder = user_corpus_dir() / "lantern-harbor"
        assert sorted(p.name for p in folder.iterdir()) == ["game.toml", "house.md"]
        assert (folder / "house.md").read_text(encoding="utf-8").count("kind: house-rule") == 2

    def test_house_rule_goes_to_the_corpus_named(self, run_cli, tmp_path: Path):
        """With --corpus, a house rule goes to a house-rules folder there, never to an official source's file."""
        official = tree(MINIMAL)
        table = tmp_path / "my-table"
        result = run_cli(*("--no-shipped", "--corpus", str(MINIMAL), "--corpus", str(table)), "new", "-g", "lantern-harbor", "-k", "house-rule", "--append")
        assert result.exit_code == 0, result.output
        assert sorted(tree(table)) == ["lantern-harbor/game.toml", "lantern-harbor/house.md"]
        assert tree(MINIMAL) == official
        check = run_cli("--no-shipped", "--corpus", str(MINIMAL), "--corpus", str(table), "check")
        problems = check.stdout.splitlines()
        assert problems and all(line.startswith(f"{table / 'lantern-harbor' / 'house.md'}:") for line in problems)

    def test_house_rule_beside_a_game_of_the_same_folder(self, run_cli, minimal_copy: Path):
        """A house rule of a game that lives in the folder named goes to a house-rules folder beside the game's."""
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "new", "-g", "lantern-harbor", "-k", "house-rule", "--append")
        assert result.exit_code == 0, result.output
        assert (minimal_copy / "lantern-harbor-house-rules" / "house.md").is_file()
        assert "house-rule" not in (minimal_copy / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8")

    def test_house_rule_never_goes_to_an_official_source(self, run_cli, minimal_copy: Path):
        """--source naming an official source of a house rule is refused."""
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "new", "-g", "lantern-harbor", "-k", "house-rule", "-s", "rulebook", "--append")
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: 'rulebook' is an official source of lantern-harbor: a house rule goes to a house source")

    def test_source_checkout_is_curated(self, run_cli, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """A source checkout's corpus (beside the package, not in it) takes new entries as before."""
        monkeypatch.setattr(places, "package_dir", lambda: minimal_copy.parent / "rulebot")
        assert shipped_corpus_dir() == minimal_copy  # the checkout's corpus/
        result = run_cli("new", "-g", "lantern-harbor", "-k", "faq", "-t", "Do gulls swim?", "--append")
        assert result.exit_code == 0, result.output
        assert "## lh-do-gulls-swim" in (minimal_copy / "lantern-harbor" / "rulebook.md").read_text(encoding="utf-8")


class TestNothingInsideThePackage:
    def test_import_out(self, run_cli, package: Path, tmp_path: Path):
        """import --out refuses a file inside the package."""
        document = write_corpus(tmp_path, {"doc.md": "# Rules\n\n**Gull** — it flies.\n"}) / "doc.md"
        result = run_cli("import", str(document), "-g", "lantern-harbor", "-s", "rulebook", "--out", str(package / "data" / "corpus" / "drafts.md"))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"Error: the file {package / 'data' / 'corpus' / 'drafts.md'} is inside the installed rulebot package")

    def test_import_append(self, run_cli, package: Path, tmp_path: Path):
        """import --append of a game of the installed corpus is refused, with what to do instead."""
        document = write_corpus(tmp_path, {"doc.md": "# Rules\n\n**Gull** — it flies.\n"}) / "doc.md"
        before = tree(package)
        result = run_cli("import", str(document), "-g", "lantern-harbor", "-s", "rulebook", "--append")
        assert result.exit_code == 2
        assert "write the drafts elsewhere (--out FILE)" in result.stderr
        assert tree(package) == before

    def test_site_build(self, run_cli, package: Path):
        """site build refuses a folder inside the package."""
        result = run_cli("site", "build", str(package / "site"))
        assert result.exit_code == 2 and "is inside the installed rulebot package" in result.stderr
        assert not (package / "site").exists()

    @pytest.mark.parametrize("kind", ["cache", "config", "data"])
    def test_user_folders(self, run_cli, package: Path, monkeypatch: pytest.MonkeyPatch, kind: str):
        """A user folder set inside the package ($RULEBOT_CACHE_DIR, ...) is refused, not written in."""
        monkeypatch.setenv(f"RULEBOT_{kind.upper()}_DIR", str(package / f"user-{kind}"))
        result = run_cli("config", "set", "lantern-harbor.with", "deep-tides")
        assert result.exit_code == 2
        assert f"Error: $RULEBOT_{kind.upper()}_DIR {package / ('user-' + kind)} is inside the installed rulebot package" in result.stderr
        assert not (package / f"user-{kind}").exists()


class TestCorpusFolders:
    def test_user_corpus_comes_after_the_shipped_one(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """The user corpus folder, once it exists, comes after the shipped one and before $RULEBOT_CORPUS and --corpus."""
        assert chosen_dirs([tmp_path / "x"]) == [shipped_corpus_dir(), tmp_path / "x"]
        user_corpus_dir().mkdir(parents=True)
        monkeypatch.setenv("RULEBOT_CORPUS", str(tmp_path / "env"))
        assert chosen_dirs([tmp_path / "x"]) == [shipped_corpus_dir(), user_corpus_dir(), tmp_path / "env", tmp_path / "x"]
        assert chosen_dirs([tmp_path / "x"], shipped=False) == [user_corpus_dir(), tmp_path / "env", tmp_path / "x"]

    def test_a_folder_named_twice_counts_once(self, tmp_path: Path):
        """Naming the shipped corpus again (a curator of a checkout naming corpus/) does not load it twice."""
        assert chosen_dirs([shipped_corpus_dir(), tmp_path / "x", tmp_path / "x" / "."]) == [shipped_corpus_dir(), tmp_path / "x"]

    def test_additions_go_to_the_last_folder_named(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """The last --corpus, else the last of $RULEBOT_CORPUS, else the user corpus folder."""
        assert own_dir() == user_corpus_dir()
        monkeypatch.setenv("RULEBOT_CORPUS", str(tmp_path / "env"))
        assert own_dir() == tmp_path / "env"
        assert own_dir([tmp_path / "a", tmp_path / "b"]) == tmp_path / "b"
