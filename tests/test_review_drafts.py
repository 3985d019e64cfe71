"""`rulebot review GAME`: a curator's walk through a game's drafts, one at a time, with a scripted $EDITOR
and choices read from standard input; every choice written at once, the walk's place and an edit in
progress kept when it is killed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import skyrail_toml, write_corpus

from rulebot.corpus import load as corpus

RULES = """\
# Skyrail Rules

## Setup

Each conductor takes **4 tickets** and a locomotive of their colour.

## Coupling

A conductor may couple two carriages of the same colour at a depot.

## Derailment

A locomotive that crosses a broken rail derails and skips the next turn.

- It loses its cargo.
- It returns to its depot.
"""


def editor(folder: Path, name: str, code: str) -> str:
    """An $EDITOR: a Python script given the file to edit as sys.argv[1], which runs `code` on its text `t`
    and writes back what `t` then is."""
    script = folder / f"{name}.py"
    script.write_text(
        f"#!{sys.executable}\nimport sys, pathlib\np = pathlib.Path(sys.argv[1])\nt = p.read_text(encoding='utf-8')\n{code}\n"
        "p.write_text(t, encoding='utf-8')\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return str(script)


RESTATE = "t = t.replace('draft: true\\n', '').replace('A conductor may couple two carriages of the same colour at a depot.', " \
          "'Two carriages of one colour can be joined by a conductor at a depot.')"


@pytest.fixture
def game(tmp_path: Path, run_cli) -> Path:
    """A corpus folder with skyrail, its rules imported as three drafts."""
    root = write_corpus(tmp_path, {
        "games/skyrail/game.toml": skyrail_toml(), "games/skyrail/rules.md": "# Skyrail rulebook\n", "rules.md": RULES,
    })
    imported = run_cli("--no-shipped", "--corpus", str(root / "games"), "import", str(root / "rules.md"), "-g", "skyrail", "-s", "rules",
                       "--append")
    assert imported.exit_code == 0, imported.output
    return root


def review(run_cli, root: Path, choices: str, *more: str):
    return run_cli("--no-shipped", "--corpus", str(root / "games"), "review", "skyrail", *more, input=choices)


def loaded(root: Path) -> dict:
    found, problems = corpus.check([root / "games"])
    assert problems == []
    return {e.id: e for e in found.entries_of("skyrail")}


class TestWalk:
    def test_accept_skip_quit_and_the_place_kept(self, run_cli, game: Path):
        """Accept drops `draft: true`, and nothing else (its `drafted:` fingerprint says what text it restates); a skipped draft is not
        offered at the next walk, until --start-over; quit keeps the rest."""
        path = game / "games/skyrail/rules.md"
        before = path.read_text(encoding="utf-8")
        result = review(run_cli, game, "a\nk\nq\n")
        assert result.exit_code == 0, result.output
        assert "skyrail-setup (3 left)" in result.stdout and "skyrail-coupling (2 left)" in result.stdout
        assert "1 accepted, 1 skipped; 1 draft left to review in skyrail, 1 skipped (--start-over offers them again)" in result.stderr
        assert path.read_text(encoding="utf-8") == re.sub(r"anchor: Setup\ndraft: true\n(drafted: [0-9a-f]{12}\n)", r"anchor: Setup\n\1", before, count=1)
        assert before.count("drafted: ") == 3
        found = loaded(game)
        assert not found["skyrail-setup"].draft and found["skyrail-coupling"].draft
        again = review(run_cli, game, "q\n")
        assert "skyrail-derailment (1 left)" in again.stdout and "skyrail-coupling" not in again.stdout
        over = review(run_cli, game, "q\n", "--start-over")
        assert "skyrail-coupling (2 left)" in over.stdout

    def test_accept_drops_the_notes_for_the_curator(self, run_cli, tmp_path: Path):
        """A draft accepted as it is loses the notes the import wrote for its curator (which players would read once it
        is no draft), with the blank line before them; nothing else of the file changes."""
        root = write_corpus(tmp_path, {
            "games/skyrail/game.toml": skyrail_toml(), "games/skyrail/rules.md": "# Skyrail rulebook\n",
            "rules.md": RULES.replace("colour.\n", "colour.\n\nSee also Nowhere Yet.\n", 1),
        })
        assert run_cli("--no-shipped", "--corpus", str(root / "games"), "import", str(root / "rules.md"), "-g", "skyrail", "-s", "rules",
                       "--append").exit_code == 0
        path = root / "games/skyrail/rules.md"
        before = path.read_text(encoding="utf-8")
        assert "\n\nDraft note: “See also Nowhere Yet” names no drafted entry.\n" in before
        assert review(run_cli, root, "a\nq\n").exit_code == 0
        after = path.read_text(encoding="utf-8")
        assert after == before.replace("\n\nDraft note: “See also Nowhere Yet” names no drafted entry.", "", 1).replace("draft: true\n", "", 1)
        assert loaded(root)["skyrail-setup"].text == "Each conductor takes **4 tickets** and a locomotive of their colour."

    def test_edit_with_the_editor(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An edit saved and valid is written in place of the draft; one restating it (no draft line) ends it."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "restate", RESTATE))
        result = review(run_cli, game, "k\ne\nq\n")
        assert result.exit_code == 0, result.output
        assert "skyrail-coupling saved" in result.stderr
        coupling = loaded(game)["skyrail-coupling"]
        assert coupling.text == "Two carriages of one colour can be joined by a conductor at a depot." and not coupling.draft
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_an_editor_closed_without_a_change_changes_nothing(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Saving nothing is neither "saved" nor "edited": the draft is offered again, its file as it was."""
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        monkeypatch.setenv("EDITOR", editor(tmp_path, "keep", "pass"))
        result = review(run_cli, game, "e\nq\n")
        assert result.exit_code == 0, result.output
        assert "skyrail-setup not changed: left as it was" in result.stderr and "saved" not in result.stderr
        assert "nothing changed" in result.stderr and result.stdout.count("skyrail-setup (3 left)") == 2
        assert path.read_bytes() == before and not list((Path(os.environ["RULEBOT_DATA_DIR"]) / "review").glob("*.md"))
        # a split asked for and no split line put: said so
        split = review(run_cli, game, "s\nq\n")
        assert "skyrail-setup not split: no '>>> split TITLE' line was put in it; left as it was" in split.stderr, split.stderr
        assert path.read_bytes() == before

    def test_an_editor_that_does_not_start_is_an_error_that_says_so(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """No such editor: exit 2, told to set $EDITOR; no edit is claimed kept, and none is left behind."""
        monkeypatch.setenv("EDITOR", "no-such-editor-anywhere")
        result = review(run_cli, game, "e\n")
        assert result.exit_code == 2, result.output
        assert "set $EDITOR (or $VISUAL) to your editor's command" in result.stderr and "kept in" not in result.stderr
        assert not list((Path(os.environ["RULEBOT_DATA_DIR"]) / "review").glob("*.md"))
        monkeypatch.setenv("EDITOR", "false")  # started, and quit with an error (vim's :cq): no advice to set it
        quit_ = review(run_cli, game, "e\n")
        assert quit_.exit_code == 2 and "the edit was left, nothing changed" in quit_.stderr and "set $EDITOR" not in quit_.stderr

    def test_no_editor_set_on_a_pipe_is_an_error_not_a_wait(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """Neither $EDITOR nor $VISUAL set and choices piped in: exit 2, told to set one, nothing left behind (a default
        editor started on the script's input would wait for ever)."""
        monkeypatch.delenv("EDITOR", raising=False)
        monkeypatch.delenv("VISUAL", raising=False)
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        result = review(run_cli, game, "e\n")
        assert result.exit_code == 2 and "set $EDITOR (or $VISUAL) to your editor's command" in result.stderr, result.output
        assert path.read_bytes() == before and not list((Path(os.environ["RULEBOT_DATA_DIR"]) / "review").glob("*.md"))
        # after a choice written: the walk's account is given before the error, as when it ends
        after = review(run_cli, game, "a\ne\n")
        assert after.exit_code == 2 and "1 accepted" in after.stderr and "skyrail-coupling is left as it was" in after.stderr, after.output

    def test_an_edit_that_does_not_pass_is_kept_and_opened_again(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A bad kind: the problem said, the file untouched, the edit kept with the problem at its top; the next
        walk opens it again, and once fixed it is saved."""
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        monkeypatch.setenv("EDITOR", editor(tmp_path, "bad", "t = t.replace('kind: setup', 'kind: setupp').replace('4 tickets', 'four tickets')"))
        result = review(run_cli, game, "e\nq\n")
        assert result.exit_code == 0, result.output
        assert "skyrail-setup: line 3 of the entry: unknown kind 'setupp'" in result.stderr
        assert "your edit of skyrail-setup is kept in" in result.stderr
        assert path.read_bytes() == before
        kept = next((Path(os.environ["RULEBOT_DATA_DIR"]) / "review").glob("*.skyrail-setup.md"))
        assert "problem: line 3 of the entry: unknown kind" in kept.read_text(encoding="utf-8")
        again = review(run_cli, game, "q\n")
        assert "an edit of skyrail-setup is in progress: e opens it again" in again.stderr
        monkeypatch.setenv("EDITOR", editor(tmp_path, "fix", "t = t.replace('kind: setupp', 'kind: setup')"))
        fixed = review(run_cli, game, "e\nq\n")
        assert "skyrail-setup saved" in fixed.stderr
        assert "four tickets" in loaded(game)["skyrail-setup"].text
        assert not kept.exists()

    def test_split_chosen_while_an_edit_is_kept_keeps_it_and_says_how_to_split(self, run_cli, game: Path, tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch):
        """A failed edit kept, then split chosen: the curator's edit is opened (never lost), told where to put the
        split line, and the split is made from it."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "bad", "t = t.replace('kind: rule', 'kind: rulle').replace('loses its', 'drops its')"))
        assert "unknown kind 'rulle'" in review(run_cli, game, "k\nk\ne\nq\n").stderr
        monkeypatch.setenv("EDITOR", editor(tmp_path, "split", "assert '>>> split TITLE' in t\n"
                                            "t = t.replace('kind: rulle', 'kind: rule').replace('- It drops', '>>> split Derailed cargo\\n\\n- It drops')"))
        result = review(run_cli, game, "s\nq\n")  # (the walk goes on where it was: at the derailment)
        assert result.exit_code == 0 and "skyrail-derailment saved" in result.stderr, result.output
        found = loaded(game)
        assert found["skyrail-derailed-cargo"].text.startswith("- It drops its cargo.")

    def test_merge_with_the_next(self, run_cli, game: Path):
        """Merge: one draft, both texts, the second's title an alias; the corpus stays valid."""
        result = review(run_cli, game, "k\nm\nq\n")
        assert result.exit_code == 0, result.output
        assert "skyrail-derailment merged into skyrail-coupling" in result.stderr
        found = loaded(game)
        assert "skyrail-derailment" not in found
        coupling = found["skyrail-coupling"]
        assert "at a depot." in coupling.text and "skips the next turn" in coupling.text and coupling.draft
        assert [a.text for a in coupling.aliases] == ["Derailment"]

    def test_merge_of_the_last_is_refused(self, run_cli, game: Path):
        result = review(run_cli, game, "k\nk\nm\nq\n")
        assert result.exit_code == 0
        assert "not merged: skyrail-derailment is the last entry of" in result.stderr

    def test_split_at_a_bullet(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A `>>> split TITLE` line put before a bullet: two drafts, the second titled TITLE, under a fresh id."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "split", "t = t.replace('- It loses', '>>> split Derailed cargo\\n\\n- It loses')"))
        result = review(run_cli, game, "k\nk\ns\nq\n")
        assert result.exit_code == 0, result.output
        found = loaded(game)
        assert found["skyrail-derailment"].text == "A locomotive that crosses a broken rail derails and skips the next turn."
        second = found["skyrail-derailed-cargo"]
        assert second.title == "Derailed cargo" and second.text.startswith("- It loses its cargo.") and second.draft
        assert list(found)[-2:] == ["skyrail-derailment", "skyrail-derailed-cargo"]

    def test_split_in_three(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Two `>>> split` lines: three drafts, each part after the first under its own title (or the first's, numbered)
        and a fresh id; no mark left in any text."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "split", "t = t.replace('- It loses', '>>> split Derailed cargo\\n\\n- It loses')"
                                            ".replace('- It returns', '>>> split\\n\\n- It returns')"))
        result = review(run_cli, game, "k\nk\ns\nq\n")
        assert result.exit_code == 0, result.output
        found = loaded(game)
        assert list(found)[-3:] == ["skyrail-derailment", "skyrail-derailed-cargo", "skyrail-derailment-3"]
        assert found["skyrail-derailed-cargo"].text == "- It loses its cargo."
        assert found["skyrail-derailment-3"].title == "Derailment (3)" and found["skyrail-derailment-3"].text == "- It returns to its depot."
        assert not any(">>>" in entry.text for entry in found.values())

    def test_no_drafts_left(self, run_cli, game: Path):
        review(run_cli, game, "a\na\na\n")
        result = review(run_cli, game, "")
        assert result.exit_code == 0 and "nothing changed; 0 drafts left to review in skyrail" in result.stderr

    def test_an_entries_file_not_utf8_is_named_at_its_line(self, run_cli, game: Path):
        """A draft's file saved in Latin-1: review names the file and line of the byte as `check` does, and stops."""
        rules = game / "games/skyrail/rules.md"
        rules.write_bytes(rules.read_bytes() + b"\n## skyrail-cafe\ntitle: Caf\xe9\nkind: rule\nsection: S\ndraft: true\n\nx\n")
        line = rules.read_bytes().split(b"\n").index(b"title: Caf\xe9") + 1
        result = review(run_cli, game, "q\n")
        assert result.exit_code == 2, result.output
        assert f"{rules}:{line}: not valid UTF-8 (byte 0xe9)" in result.stderr and "codec" not in result.stderr, result.stderr

    def test_unknown_game(self, run_cli, game: Path):
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "review", "skyrale", input="q\n")
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.stderr.startswith("Error: no game 'skyrale'; did you mean: skyrail")


def start(root: Path, env: dict) -> subprocess.Popen:
    """`rulebot review skyrail` as a real process, its stdin and stdout piped."""
    full = dict(os.environ)
    full.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(root / "games"), "review", "skyrail"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full,
    )


def read_until(stream, wanted: str) -> str:  # type: ignore[no-untyped-def]
    """What a process prints, a line at a time, up to the line with `wanted` (all of it when it ends first)."""
    seen = []
    while line := stream.readline():
        seen.append(line)
        if wanted in line:
            break
    return "".join(seen)


class TestRealProcess:
    def test_a_scripted_walk(self, game: Path, tmp_path: Path):
        """A real process: stdin choices, a scripted $EDITOR; the corpus then valid, the edit and accept written."""
        full = dict(os.environ, EDITOR=editor(tmp_path, "restate", RESTATE))
        result = subprocess.run(
            [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(game / "games"), "review", "skyrail"],
            input="a\ne\nk\n", capture_output=True, text=True, env=full, timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert "1 accepted, 1 edited, 1 skipped; 0 drafts left to review in skyrail, 1 skipped" in result.stderr
        found = loaded(game)
        assert [e.draft for e in found.values()] == [False, False, True]
        assert "joined by a conductor" in found["skyrail-coupling"].text

    def test_killed_midway_keeps_what_was_done_and_the_place(self, game: Path, tmp_path: Path):
        """Killed while the curator edits the third draft: the first accepted and the second skipped are kept,
        and so is the edit made before the kill, which the next walk offers again and saves."""
        marker = tmp_path / "editing"
        slow = editor(tmp_path, "slow", f"t = t.replace('skips the next turn', 'misses a turn')\np.write_text(t, encoding='utf-8')\n"
                                        f"import os, time\npathlib.Path({str(marker)!r}).write_text(str(os.getpid()))\ntime.sleep(600)")
        process = start(game, {"EDITOR": slow})
        try:
            assert process.stdin is not None and process.stdout is not None
            read_until(process.stdout, "skyrail-setup (3 left)")
            process.stdin.write("a\nk\ne\n")
            process.stdin.flush()
            read_until(process.stdout, "skyrail-derailment (1 left)")
            while not (marker.exists() and marker.read_text()):
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                time.sleep(0.05)
            process.kill()
            process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
            if marker.exists() and marker.read_text():
                os.kill(int(marker.read_text()), signal.SIGKILL)  # the editor, left waiting by the kill
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        found = loaded(game)
        assert not found["skyrail-setup"].draft and found["skyrail-coupling"].draft and found["skyrail-derailment"].draft
        full = dict(os.environ, EDITOR=editor(tmp_path, "keep", "pass"))
        again = subprocess.run(
            [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(game / "games"), "review", "skyrail"],
            input="e\nq\n", capture_output=True, text=True, env=full, timeout=120,
        )
        assert again.returncode == 0, again.stderr
        assert "skyrail-derailment (1 left)" in again.stdout and "skyrail-coupling" not in again.stdout
        assert "an edit of skyrail-derailment is in progress" in again.stderr
        assert "misses a turn" in loaded(game)["skyrail-derailment"].text


class TestImportAfterReview:
    def test_merged_and_split_drafts_survive_an_import_again(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Drafts merged or split in a walk are the curator's: importing the document again leaves them byte for
        byte and adds nothing back."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "split", "t = t.replace('- It loses', '>>> split Derailed cargo\\n\\n- It loses')"))
        walked = review(run_cli, game, "m\nk\ns\nq\n")
        assert walked.exit_code == 0 and "1 merged, 1 skipped, 1 split" in walked.stderr, walked.output
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules",
                         "--append")
        assert result.exit_code == 0, result.output
        assert "0 updated, 0 added, 0 unchanged, 0 gone, 0 kept as restated, 3 kept as merged or split; nothing written" in result.stderr, result.stderr
        assert path.read_bytes() == before
        assert list(loaded(game)) == ["skyrail-setup", "skyrail-derailment", "skyrail-derailed-cargo"]
        # A new edition that words one of the merged drafts otherwise, and the split one: each entry made of them is
        # said to be changed in the document, and still left byte for byte.
        (game / "rules.md").write_text(
            RULES.replace("couple two carriages", "couple up to three carriages").replace("skips the next turn", "skips two turns"),
            encoding="utf-8",
        )
        newer = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules",
                        "--append")
        assert newer.exit_code == 0, newer.output
        assert "3 kept as merged or split (3 of them changed in the document)" in newer.stderr, newer.stderr
        told = [line for line in newer.stderr.splitlines() if line.startswith("  merged or split, its text changed in the document")]
        assert [line.split(": ", 1)[1].split(" ", 1)[0] for line in told] == ["skyrail-setup", "skyrail-derailment", "skyrail-derailed-cargo"]
        assert path.read_bytes() == before


    def test_two_drafts_of_one_text_merged_are_not_changed_when_imported_again(self, run_cli, game: Path):
        """Two drafts of the same words ("Yes." twice in a FAQ) merged into one entry: the same document imported again
        does not call it changed (its fingerprints are one)."""
        same = RULES.replace("A conductor may couple two carriages of the same colour at a depot.", "Each conductor takes **4 tickets** and a locomotive of their colour.")
        (game / "rules.md").write_text(same, encoding="utf-8")
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules", "--append")
        assert run_cli(*args).exit_code == 0
        walked = review(run_cli, game, "m\nq\n")
        assert "merged into skyrail-setup" in walked.stderr, walked.output
        again = run_cli(*args)
        assert again.exit_code == 0 and "1 kept as merged or split;" in again.stderr and "changed in the document" not in again.stderr, again.stderr


class TestEditChecks:
    def test_an_edit_taking_another_id_is_refused(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An edit that gives the draft the id of another entry of the file does not pass: nothing written."""
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        monkeypatch.setenv("EDITOR", editor(tmp_path, "clash", "t = t.replace('## skyrail-setup', '## skyrail-coupling')"))
        result = review(run_cli, game, "e\nd\nq\n")
        assert result.exit_code == 0
        assert "skyrail-setup: id 'skyrail-coupling' is taken by another entry of the file" in result.stderr
        assert path.read_bytes() == before


class TestEditAfterImport:
    def test_an_edit_is_not_saved_over_a_draft_changed_since(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An edit left in progress, then the document imported again with that draft changed: saving the edit is
        refused (the import's text stays); r starts the edit afresh on the current text, the earlier one kept."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "bad", "t = t.replace('kind: setup', 'kind: setupp').replace('4 tickets', 'four tickets')"))
        assert "your edit of skyrail-setup is kept in" in review(run_cli, game, "e\nq\n").stderr
        (game / "rules.md").write_text(RULES.replace("4 tickets", "6 tickets"), encoding="utf-8")
        imported = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules",
                           "--append")
        assert "1 updated" in imported.stderr, imported.output
        monkeypatch.setenv("EDITOR", editor(tmp_path, "fix", "t = t.replace('kind: setupp', 'kind: setup').replace('6 tickets', 'six tickets')"))
        refused = review(run_cli, game, "e\nq\n")
        assert refused.exit_code == 0, refused.output
        assert "skyrail-setup was changed in" in refused.stderr and "your edit was not saved over it" in refused.stderr
        assert "6 tickets" in loaded(game)["skyrail-setup"].text
        again = review(run_cli, game, "e\nr\nq\n")
        assert "skyrail-setup saved" in again.stderr, again.output
        assert "six tickets" in loaded(game)["skyrail-setup"].text
        earlier = next((Path(os.environ["RULEBOT_DATA_DIR"]) / "review").glob("*.skyrail-setup.earlier.md"))
        assert "four tickets" in earlier.read_text(encoding="utf-8")

    def test_accept_drops_an_edit_in_progress(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A draft accepted as it is, with an edit of it in progress: the curator is asked first (n, or the end of the
        input, keeps the edit and the draft as they are); the edit file goes once it is said."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "bad", "t = t.replace('kind: setup', 'kind: setupp')"))
        review(run_cli, game, "e\nq\n")
        folder = Path(os.environ["RULEBOT_DATA_DIR"]) / "review"
        edit = list(folder.glob("*.skyrail-setup.md"))
        assert edit
        kept = edit[0].read_bytes()
        for refused in ("a\nn\nq\n", "a\n"):
            result = review(run_cli, game, refused)
            assert "discard your edit of skyrail-setup in progress" in result.output and "accepted" not in result.stderr
            assert edit[0].read_bytes() == kept
        accepted = review(run_cli, game, "a\ny\nq\n")
        assert "1 accepted" in accepted.stderr
        assert not list(folder.glob("*.skyrail-setup.md"))

    def test_an_edit_dropping_the_anchor_is_warned_of(self, run_cli, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An edit that takes out the `anchor:` line is saved, with a warning: the import would no longer find it."""
        monkeypatch.setenv("EDITOR", editor(tmp_path, "unanchor", "t = t.replace('anchor: Setup\\n', '')"))
        result = review(run_cli, game, "e\nq\n")
        assert "skyrail-setup saved" in result.stderr
        assert "skyrail-setup: warning: its 'anchor: Setup' line is gone" in result.stderr
