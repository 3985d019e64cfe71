"""Output fitted to the terminal by the columns it shows: emphasis and colour take none, a wide character
two; a French colon's space never breaks; and no printed line is wider than the terminal."""

from __future__ import annotations

import itertools
import re
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TOY_GAME_TOML, rulebot_process, write_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebot.cli import messages, output
from rulebot.cli.main import cli
from rulebot.markdown import STRONG_OFF, STRONG_ON

BOLD_TEXT = " ".join(f"**{word}**" if n % 2 else word for n, word in enumerate(
    "When a ship docks at the harbour its captain takes two lantern tokens and may trade one of them for a gull"
    " card from the market row before the tide turns and every other captain checks their hand limit again".split()
))
"""A paragraph with every other word in bold: wrapped by the letters it shows, not the markers around them."""
FRENCH_TEXT = (
    "Pendant votre tour, choisissez une action parmi celles de la liste. Action : placer une carte devant vous ;"
    " Action : piocher deux cartes ; Action : défausser une perle ! Pourquoi ? Parce que « le port » se ferme."
)
"""French with a space before its colons, semicolons, ! and ?, and inside « »."""

ESCAPE = re.compile(r"\x1b\[[;?0-9]*[a-zA-Z]")


def shown(line: str) -> str:
    """A printed line as the terminal shows it: without its escape sequences."""
    return ESCAPE.sub("", line)


def entry_corpus(root: Path, text: str) -> list[str]:
    """A one-entry corpus whose text is `text`; the options naming it."""
    entry = f"## toy-long\ntitle: A long rule\nkind: rule\nsection: Part 1\n\n{text}\n"
    write_corpus(root, {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": entry})
    return ["--no-shipped", "--corpus", str(root)]


def paragraph_lines(printed: str) -> list[str]:
    """The lines of the entry's text in `show`'s output: after the heading, before `Source`."""
    lines = printed.splitlines()
    return lines[1 : next(n for n, line in enumerate(lines) if shown(line).startswith("  Source"))]


def assert_greedy(lines: list[str], width: int) -> None:
    """Each line is as full as it can be: none wider than `width`, and the next line's first word would not
    have fitted after it."""
    for line, after in itertools.pairwise(lines):
        assert output.display_width(line) <= width, line
        assert output.display_width(line) + 1 + output.display_width(after.split()[0]) > width, (line, after)
    assert output.display_width(lines[-1]) <= width


class TestDisplayWidth:
    def test_markers_and_escapes_take_no_room(self):
        assert output.display_width(f"{STRONG_ON}bold{STRONG_OFF} \x1b[1;36mtitle\x1b[0m") == len("bold title")

    def test_wide_and_combining_characters(self):
        assert output.display_width("漢字") == 4 and output.display_width(unicodedata.normalize("NFD", "été")) == 3
        assert output.display_width("a\u200bb") == 2


class TestWrap:
    @pytest.mark.parametrize("width", [40, 63, 100])
    def test_bold_words_are_wrapped_by_what_they_show(self, width: int):
        """Bold markers take no room: every line is as full as the width lets it be (at 100 columns, one line
        broke at 87 and the next ran to 98)."""
        lines = output.wrap(BOLD_TEXT, width)
        assert_greedy([line.replace(STRONG_ON, "").replace(STRONG_OFF, "") for line in lines], width)
        assert " ".join(lines) == BOLD_TEXT

    @pytest.mark.parametrize("width", range(30, 61))
    def test_never_before_a_french_colon(self, width: int):
        """"Action : placer" never leaves a line starting with ": placer"; « and its word stay together."""
        lines = output.wrap(FRENCH_TEXT, width)
        assert not [line for line in lines[1:] if line[:1] in ":;!?»"]
        assert not [line for line in lines if line.endswith("«")]
        assert " ".join(lines) == FRENCH_TEXT and all(output.display_width(line) <= width for line in lines)

    def test_wide_characters_count_twice(self):
        lines = output.wrap(" ".join(["漢字漢字"] * 10), 20)
        assert lines == ["漢字漢字 漢字漢字", "漢字漢字 漢字漢字", "漢字漢字 漢字漢字", "漢字漢字 漢字漢字", "漢字漢字 漢字漢字"]

    def test_a_word_wider_than_a_line_is_cut(self):
        lines = output.wrap("a " + "x" * 50, 20, hang="  ")
        assert lines == ["a", "  " + "x" * 18, "  " + "x" * 18, "  " + "x" * 14]


WORDS = st.one_of(
    st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Mn")), min_size=1, max_size=12),
    st.sampled_from([":", ";", "!", "?", "«", "»", "漢字", "e\u0301té", "Action", "\u200b"]),
    st.builds(lambda w: f"{STRONG_ON}{w}{STRONG_OFF}", st.text(st.characters(codec="ascii", categories=("L",)), min_size=1, max_size=12)),
)
"""Words without spaces: any letters, digits, punctuation and symbols (wide ones too), accents, French punctuation, bold."""


class TestProperties:
    @settings(max_examples=300, deadline=None)
    @given(words=st.lists(WORDS, min_size=1, max_size=60), width=st.integers(20, 100), lead=st.integers(0, 4))
    def test_no_line_exceeds_the_width(self, words: list[str], width: int, lead: int):
        """Whatever the words (wide, accented, bold, French punctuation), no line is wider than the width,
        no French punctuation mark starts a line after the first, and every character is kept, in order."""
        text = " ".join(words)
        lines = output.wrap(text, width, first=" " * lead, hang=" " * (lead + 2))
        assert all(output.display_width(line) <= width for line in lines), lines
        assert "".join(text.split()) == "".join("".join(lines).split())
        if all(output.display_width(unit) <= width - lead - 2 for unit in output._units(text)):  # no word had to be cut
            assert not [line for line in lines[1:] if output._visible(line).strip()[:1] in ":;!?»"], lines

    @settings(max_examples=100, deadline=None)
    @given(words=st.lists(WORDS, min_size=1, max_size=40), width=st.integers(40, 100))
    def test_entry_text_fits(self, words: list[str], width: int):
        """An entry's text as `show` and `ask` wrap it (rulebot.cli.output.wrap_text) fits the terminal, with its indent."""
        import os
        from unittest import mock

        with mock.patch.dict(os.environ, {"COLUMNS": str(width)}):
            lines = output.wrap_text(" ".join(words), output.Style(True))
        assert all(output.display_width(line) <= width for line in lines), lines


class TestTabs:
    def test_wrap_expands_tabs(self):
        """A tab is printed as the spaces to the next tab stop (counted from the line's start), and wrapped as them."""
        assert output.wrap("a\tb", 40) == ["a       b"]
        assert output.wrap("a\tb", 40, first="  ") == ["  a     b"]
        lines = output.wrap("\t".join(["gull"] * 20), 30, hang="  ")
        assert all("\t" not in line and output.display_width(line) <= 30 for line in lines), lines

    def test_fit_expands_tabs(self):
        """A line whose tabs make it wider than the width is wrapped, not printed as it is."""
        lines = output.fit(["Rounds\t\t\t\tTurns\t\t\t\tPhases"], 40)
        assert all("\t" not in line and output.display_width(line) <= 40 for line in lines), lines

    def test_show_prints_no_tab(self, tmp_path: Path):
        """An entry's text with tabs (a table typed with tabs, say): no printed line wider than COLUMNS, no tab left."""
        toy = entry_corpus(tmp_path / "c", "Round\t\tDocks\t\tGulls\t\tLanterns " * 4)
        printed = CliRunner(env={"COLUMNS": "40"}).invoke(cli, [*toy, "show", "toy-long"]).stdout
        assert "Docks" in printed and "\t" not in printed
        assert all(output.display_width(line) <= 40 for line in printed.splitlines()), printed


class TestCommands:
    @pytest.mark.parametrize("color", ["always", "never"])
    def test_show_at_100_columns(self, tmp_path: Path, color: str):
        """`rulebot show` at COLUMNS=100 fills each line of a text in bold as far as it goes, coloured or not."""
        toy = entry_corpus(tmp_path / "c", BOLD_TEXT + " " + BOLD_TEXT)
        printed = CliRunner(env={"COLUMNS": "100"}).invoke(cli, ["--color", color, *toy, "show", "toy-long"]).stdout
        lines = [shown(line) for line in paragraph_lines(printed)]
        assert len(lines) > 2 and all(line.startswith("  ") for line in lines)
        assert_greedy(lines, 100)

    def test_ask_at_100_columns_as_a_process(self, tmp_path: Path):
        """The quick path (`rulebot ask` as a process) wraps the same way, and as click's `ask`."""
        toy = entry_corpus(tmp_path / "c", BOLD_TEXT)
        process = rulebot_process(*toy, "ask", "--color", "always", "long", "rule", env={"COLUMNS": "100"})
        assert process.returncode == 0, process.stderr
        assert_greedy([shown(line) for line in paragraph_lines(process.stdout)], 100)
        by_click = CliRunner(env={"COLUMNS": "100"}).invoke(cli, [*toy, "ask", "--color", "always", "long", "rule"])
        assert process.stdout == by_click.stdout

    @pytest.mark.parametrize("columns", [40, 57, 71])
    def test_french_labels_and_text_keep_their_colons(self, tmp_path: Path, columns: int):
        """A French answer never starts a line with the colon of a label or of its text."""
        toy = entry_corpus(tmp_path / "c", FRENCH_TEXT)
        printed = CliRunner(env={"COLUMNS": str(columns)}).invoke(cli, [*toy, "ask", "--lang", "fr", "long", "rule"]).stdout
        messages.use("en")
        assert "Action" in printed
        assert not [line for line in printed.splitlines() if line.strip() and line.strip()[0] in ":;!?»"], printed
        assert all(output.display_width(line) <= columns for line in printed.splitlines())

    @pytest.mark.parametrize("columns", [40, 100])
    def test_no_shipped_entry_is_wider_than_the_terminal(self, columns: int):
        """No line `show` prints of a shipped entry, in colour, is wider than COLUMNS."""
        runner = CliRunner(env={"COLUMNS": str(columns)})
        ids = [line.split()[0] for line in runner.invoke(cli, ["list"]).stdout.splitlines()]
        wide = []
        for entry_id in ids:
            printed = runner.invoke(cli, ["--color", "always", "show", entry_id]).stdout
            wide += [line for line in printed.splitlines() if output.display_width(line) > columns]
        assert len(ids) > 200 and wide == []


class TestTables:
    TABLE = (
        "The counts by player count:\n\n| Players | Places of power | Monuments (initial deck) |\n|---|---|---|\n"
        "| 2 players | 4 | 7 |\n| 3 players | 5 | 10 |\n"
    )

    def test_a_table_that_fits_is_in_columns(self, tmp_path: Path):
        """At 100 columns, a table is its header, a rule of dashes and its rows, each cell under its column's header."""
        toy = entry_corpus(tmp_path / "c", self.TABLE)
        lines = paragraph_lines(CliRunner(env={"COLUMNS": "100"}).invoke(cli, [*toy, "show", "toy-long"]).stdout)
        at = lines.index("  Players    Places of power  Monuments (initial deck)")
        assert lines[at + 1 : at + 4] == [
            "  ---------  ---------------  ------------------------", "  2 players  4                7", "  3 players  5                10",
        ]

    @pytest.mark.parametrize("columns", [40, 50])
    def test_a_table_too_wide_is_row_by_row(self, tmp_path: Path, columns: int):
        """A table wider than the terminal is no columns cut in two: each row on lines of its own, every cell named by
        its column's header, none wider than the terminal."""
        toy = entry_corpus(tmp_path / "c", self.TABLE)
        printed = CliRunner(env={"COLUMNS": str(columns)}).invoke(cli, [*toy, "show", "toy-long"]).stdout
        assert all(output.display_width(line) <= columns for line in printed.splitlines()), printed
        text = " ".join(line.strip() for line in paragraph_lines(printed))
        assert "• Players: 2 players; Places of power: 4; Monuments (initial deck): 7" in text, printed
        assert "• Players: 3 players; Places of power: 5; Monuments (initial deck): 10" in text and "---" not in printed
