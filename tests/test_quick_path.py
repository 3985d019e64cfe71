"""One front door for `ask`: the quick path (rulebot.cli.quick) and click read `ask`'s options from one table
(rulebot.cli.asking), and for every option of that table the quick path either leaves the command line
to click or answers it exactly as click does: the same output, the same exit status, the same error line.
The comparison is with the click installed, so that a release of click that reads a command line
otherwise fails here."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import MINIMAL

from rulebot.cli import answers
from rulebot.cli.asking import ASK_OPTIONS, FLAG, GROUP_OPTIONS, Option
from rulebot.cli.main import cli

TOY = ["--no-shipped", "--corpus", str(MINIMAL)]
QUESTION = ["ferry", "gull"]
A_FILE = str(MINIMAL / "lantern-harbor" / "rulebook.md")

SAMPLES: dict[str, list[tuple[str, bool]]] = {
    "corpora": [(str(MINIMAL), True), (str(MINIMAL / "nowhere"), False), (A_FILE, False)],
    "no_shipped": [],
    "color": [("always", True), ("never", True), ("auto", True), ("blue", False), ("Never", True)],
    "game": [("lantern-harbor", True), ("chess", True), ("", False), ("-x", False)],
    "limit": [("1", True), ("05", True), ("40", True), ("0", False), ("41", False), ("+3", False), ("x", False), ("٣", False)],
    "with_": [("deep-tides", True), ("base", True), ("atlantis", True), ("-", False)],
    "as_json": [],
    "official_only": [],
    "lang": [("fr", True), ("en", True), ("de", False), ("FR", True)],
}
"""Values to give each option: (value, whether the quick path answers the line itself), the first one it answers."""


def shapes(option: Option, before: list[str], after: list[str]) -> list[tuple[list[str], bool]]:
    """Command lines giving `option` in every form, between `before` and `after`, each with whether
    the quick path answers it itself: by one name or the other, with its value in the next word, after
    `=` (long names) or attached (short ones), given again after it, or missing at the end."""
    given: list[tuple[list[str], bool]] = []
    for name in option.names:
        if option.takes == FLAG:
            given += [([name], True), ([name, name], True), ([f"{name}=1"], False)]
            continue
        if not after:
            given.append(([name], False))
        first = SAMPLES[option.dest][0][0]  # one the quick path takes
        for value, taken in SAMPLES[option.dest]:
            given += [([name, value], taken), ([name, value, name, first], taken)]
            if name.startswith("--"):
                given.append(([f"{name}={value}"], taken))
            elif value:
                given.append(([name + value], False))
    return [([*before, *words, *after], taken) for words, taken in given]


def command_lines() -> list[tuple[list[str], bool]]:
    """Every option of the tables in every form: the group's before `ask` and after it, `ask`'s before and after the question."""
    corpus_for = {"corpora": ["--no-shipped"], "no_shipped": ["--corpus", str(MINIMAL)]}
    lines = []
    for option in GROUP_OPTIONS:
        before = corpus_for.get(option.dest, TOY)
        lines += shapes(option, before, ["ask", *QUESTION])
        lines += shapes(option, [*before, "ask"], QUESTION) + shapes(option, [*before, "ask", *QUESTION], [])
    for option in ASK_OPTIONS:
        lines += shapes(option, [*TOY, "ask"], QUESTION) + shapes(option, [*TOY, "ask", *QUESTION], [])
    return lines


def test_every_option_has_samples():
    """A new option of the tables needs values here, to be compared."""
    assert {o.dest for o in (*GROUP_OPTIONS, *ASK_OPTIONS)} == set(SAMPLES)


def test_click_declares_the_tables():
    """`ask` and the group have the options of the tables and no other (but --help and --version), in the same order:
    `ask` its own, then the group's."""
    for command, table in ((answers.ask, (*ASK_OPTIONS, *GROUP_OPTIONS)), (cli, GROUP_OPTIONS)):
        options = [p for p in command.params if isinstance(p, click.Option) and p.name not in ("help", "version")]
        assert [(tuple(o.opts), o.name, o.multiple, o.is_flag) for o in options] == [
            (o.names, o.dest, o.takes == "values", o.takes == FLAG) for o in table
        ]


@pytest.mark.parametrize("args, taken", command_lines(), ids=lambda value: " ".join(value).replace(str(MINIMAL), "minimal") if isinstance(value, list) else None)
def test_the_quick_path_answers_as_click(args: list[str], taken: bool, monkeypatch: pytest.MonkeyPatch, capsys):
    """The same standard output, standard error and exit status as click's; answered without click when it can be."""
    from rulebot.cli import main as click_module
    from rulebot.cli import quick

    CliRunner().invoke(cli, args)  # builds the index the line asks for, if any: neither of the two compared tells of a build
    handed_over = []
    click_main = click_module.main
    monkeypatch.setattr(click_module, "main", lambda: handed_over.append(True) or click_main())
    monkeypatch.setattr(sys, "argv", ["rulebot", *args])
    with pytest.raises(SystemExit) as ended:
        quick.main()
    out, err = capsys.readouterr()
    by_click = CliRunner().invoke(cli, args, prog_name="rulebot")
    assert (out, err, ended.value.code or 0) == (by_click.stdout, by_click.stderr, by_click.exit_code)
    assert handed_over == ([] if taken else [True])


@pytest.mark.parametrize(
    "args",
    [
        ["--color", "never", "ask", "--color", "always", *QUESTION],
        ["--color", "always", "ask", *QUESTION, "--color", "never"],
        ["ask", "--color", "always", *QUESTION, "--color", "never", "--color", "always"],
    ],
)
def test_the_last_color_wins(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys):
    """`--color` before `ask` and after it: the last one given decides, on both paths."""
    from rulebot.cli import quick

    monkeypatch.setattr(sys, "argv", ["rulebot", *TOY, *args])
    with pytest.raises(SystemExit):
        quick.main()
    by_click = CliRunner().invoke(cli, [*TOY, *args])
    assert capsys.readouterr().out == by_click.stdout
    assert ("\x1b[" in by_click.stdout) is (args[::-1][args[::-1].index("--color") - 1] == "always")


def test_a_corpus_folder_that_cannot_be_read_is_left_to_click(tmp_path: Path):
    """click refuses a folder it cannot read: the quick path leaves it to click."""
    from rulebot.cli.asking import read_line

    folder = tmp_path / "closed"
    folder.mkdir()
    folder.chmod(0)
    try:
        if os.access(folder, os.R_OK):
            pytest.skip("root reads folders whatever their mode")
        assert read_line(["--corpus", str(folder), "ask", "tie"]) is None
    finally:
        folder.chmod(0o755)


def test_output_that_cannot_be_written_is_reported_once_not_answered_again(monkeypatch: pytest.MonkeyPatch, capsys):
    """A full disk met by the quick path is reported at once (exit 2): click is not handed the line to answer it
    again and fail again."""
    import errno

    from rulebot.cli import main as click_module
    from rulebot.cli import quick

    class Full:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    handed_over = []
    monkeypatch.setattr(click_module, "main", lambda: handed_over.append(True))
    monkeypatch.setattr(sys, "argv", ["rulebot", *TOY, "ask", *QUESTION])
    CliRunner().invoke(cli, [*TOY, "ask", *QUESTION])  # the index built before
    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(SystemExit) as ended:
        quick.main()
    assert ended.value.code == 2 and handed_over == []
    assert capsys.readouterr().err == "Error: cannot write the output: No space left on device\n"
