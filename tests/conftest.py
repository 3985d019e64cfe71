"""Shared fixtures: an isolated index cache, sample corpora, and the CLI."""

from __future__ import annotations

import errno
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebot.cli.main import cli

HERE = Path(__file__).resolve().parent
CORPORA = HERE / "corpora"
MINIMAL = CORPORA / "minimal"
SHIPPED_GAMES = ("catalyst", "dune-imperium", "portals-of-molthar", "res-arcana")
"""The shipped corpus's games: tests/test_shipped_corpus.py holds the corpus to them; the slow tests run one game at a time."""
# The user documentation: the README, then the pages of docs/ it leads to, where most examples live.
DOCS = [HERE.parent / "README.md", *sorted((HERE.parent / "docs").glob("*.md"))]


def docs_text() -> str:
    """The README and every page of docs/, one text, for the tests that run or hold what they say."""
    return "\n".join(page.read_text(encoding="utf-8") for page in DOCS)


def sh_lines(text: str) -> list[str]:
    """The command lines of a text's ```sh blocks, each without its trailing comment."""
    return [
        re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
        for line in block.splitlines()
    ]


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test uses a cache of its own run, never the user's."""
    cache = tmp_path_factory.getbasetemp() / "cache"
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(cache))
    monkeypatch.delenv("RULEBOT_CORPUS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path_factory.getbasetemp() / "config"))
    # Each test's own: a user corpus folder made by one test must not join the corpora of the next.
    monkeypatch.setenv("RULEBOT_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    return cache


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache for tests about the index lifecycle."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEBOT_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def minimal_copy(tmp_path: Path) -> Path:
    """A writable copy of the minimal test corpus."""
    target = tmp_path / "corpus"
    shutil.copytree(MINIMAL, target)
    return target


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process (click's runner); returns the Result."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


def fill_disk(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    """From now on, the disk takes `room` more bytes written with os.write (as rulebot.atomic writes), then
    fails as a full one does: the write that fills it lands in part, the next raises ENOSPC."""
    real_write = os.write
    left = [room]

    def write(descriptor: int, data: bytes) -> int:
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = real_write(descriptor, bytes(data[: left[0]]))
        left[0] -= written
        return written

    monkeypatch.setattr(os, "write", write)


def rulebot_process(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run `python -m rulebot ARGS` as a real process."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rulebot", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def game_toml(slug: str, name: str | None = None, id_prefix: str | None = None) -> str:
    """The game.toml of a made-up game of one source, `rules`: what most tests' small corpora need."""
    return f'slug = "{slug}"\nname = "{name or slug.title()}"\nid_prefix = "{id_prefix or slug}"\n\n[[sources]]\nid = "rules"\ntitle = "Rules"\n'


TOY_GAME_TOML = """\
slug = "toy"
name = "Toy Game"
id_prefix = "toy"

[[sources]]
id = "rules"
title = "Toy rules"

[[expansions]]
slug = "extra"
name = "Extra"
"""
"""The game.toml of a game `toy` with a source `rules` and an expansion `extra`, for corpora written by a test."""


def skyrail_toml(date: str | None = None, editions: str = "") -> str:
    """The game.toml of skyrail, the toy game of the import and review tests: one source, `rules`, of `date`
    (none when not given), with `editions` (a TOML line) when given."""
    dated = f"date = {date}\n" if date else ""
    return (
        'slug = "skyrail"\nname = "Skyrail Express"\nid_prefix = "skyrail"\n\n'
        f'[[sources]]\nid = "rules"\ntitle = "Skyrail rulebook"\n{dated}{editions}\n'
    )


def write_corpus(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write a corpus from {relative path: content}; returns its folder."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


NUMBERED_GAME = "skirmish"
"""The slug of `write_numbered_game`'s game."""


def write_numbered_game(root: Path) -> Path:
    """A game as drafted from a numbered rules reference (as Magic's comprehensive rules are): numbered rules, and
    a glossary whose items sum a rule up and send to it by number ("See rule 701.14"); every entry a draft."""

    def entry(entry_id: str, title: str, kind: str, text: str, *headers: str) -> str:
        return "\n".join([f"## {entry_id}", f"title: {title}", f"kind: {kind}", f"section: {title}", *headers, "draft: true", "", text, "", ""])

    rules = "".join([
        entry("skirmish-701-14a-fight", "701.14a Fight", "rule",
              "A spell or ability may tell one creature to fight another. Each of the two deals damage equal to its power to the other."),
        entry("skirmish-701-14b-fight", "701.14b Fight", "rule",
              "If a creature told to fight is no longer on the battlefield, neither creature deals damage."),
        entry("skirmish-702-12a-crew", "702.12a Crew", "rule",
              "Crew is an ability of Vehicles. Crew N means: tap any number of your untapped creatures with total power N or"
              " more to make this Vehicle a creature until end of turn.", "aliases: Crewing"),
        entry("skirmish-301-7-artifacts", "301.7 Artifacts", "rule",
              "Some artifacts are Vehicles. A Vehicle such as one with crew 3 is not a creature until it is crewed."),
        entry("skirmish-fight", "Fight", "term",
              "When two creatures fight, each deals damage equal to its power to the other. See rule 701.14, “Fight.”",
              "see_also: skirmish-701-14a-fight"),
        entry("skirmish-crew", "Crew", "term",
              "A keyword ability that turns a Vehicle into a creature. See rule 702.12, “Crew.”", "see_also: skirmish-702-12a-crew"),
    ])
    return write_corpus(root, {
        f"{NUMBERED_GAME}/game.toml": f'slug = "{NUMBERED_GAME}"\nname = "Skirmish"\nid_prefix = "skirmish"\n\n'
                                      '[[sources]]\nid = "rules"\ntitle = "Comprehensive rules"\n',
        f"{NUMBERED_GAME}/rules.md": rules,
    })


LARGE_GAME = "tall-tower"
"""The slug of `write_large_game`'s game."""
_GLOSSARY_WORDS = (
    "Anchor Beacon Cellar Drawbridge Ember Falcon Gargoyle Herald Ivory Jester Keystone Lantern Mortar "
    "North Oriel Parapet Quarry Rampart Sconce Turret Umbra Vault Warden Xyst Yeoman Zenith"
).split()


def write_large_game(root: Path) -> Path:
    """A game too large for one page of the site: 475 entries (a rulebook of three sections, one of
    300 entries on twelve floors, and an FAQ), cross-referenced across what become different pages."""

    def entry(entry_id: str, title: str, section: str, text: str, **fields: str) -> str:
        lines = [f"## {entry_id}", f"title: {title}", f"kind: {fields.pop('kind', 'rule')}", f"section: {section}"]
        lines += [f"{key.replace('_fr', '-fr')}: {value}" for key, value in fields.items()]
        return "\n".join(lines) + f"\n\n{text}\n"

    rulebook = [
        entry("tower-climbing", "Climbing", "Basics > Climbing", "You climb one floor a turn, towards the Observatory Deck.", see_also="tower-room-280"),
        entry("tower-basic-1", "Basic rule 1", "Basics > Rule 1", "Basic rule number 1: the [top room](index.html#tower-room-280) is open."),
        *(entry(f"tower-basic-{n}", f"Basic rule {n}", f"Basics > Rule {n}", f"Basic rule number {n} of the tower.") for n in range(2, 5)),
        *(
            entry(
                f"tower-room-{n}",
                "Observatory Deck" if n == 280 else f"Room {n}",
                f"Rooms > Floor {n // 25 + 1}, room {n}",
                f"Room {n} is on floor {n // 25 + 1}; its door opens onto the stairs.",
                **({"aliases_fr": "Pont d'observation"} if n == 280 else {}),
                **({"see_also": "tower-climbing"} if n == 5 else {}),
            )
            for n in range(300)
        ),
        *(
            entry(f"tower-term-{n}", f"{_GLOSSARY_WORDS[n % 26]} {n}", f"Glossary > {_GLOSSARY_WORDS[n % 26]} {n}", f"The word {n} of the glossary.")
            for n in range(150)
        ),
    ]
    faq = [
        entry(
            f"tower-faq-{n}",
            f"Can I climb twice in turn {n}?",
            "FAQ > Climbing",
            f"No, not in turn {n}.",
            kind="faq",
            **({"revised": "2024-06-01"} if n < 3 else {}),
            **({"modifies": "tower-room-5"} if n == 0 else {}),
            **({"see_also": "tower-term-140"} if n == 1 else {}),
        )
        for n in range(20)
    ]
    game = (
        f'slug = "{LARGE_GAME}"\nname = "Tall Tower"\nid_prefix = "tower"\n\n'
        '[[sources]]\nid = "rulebook"\ntitle = "Tall Tower rulebook"\ntrust = "official"\ndate = 2024-01-01\n\n'
        '[[sources]]\nid = "faq"\ntitle = "Tall Tower FAQ"\ntrust = "official"\n'
    )
    return write_corpus(
        root,
        {
            f"{LARGE_GAME}/game.toml": game,
            f"{LARGE_GAME}/rulebook.md": "\n".join(rulebook),
            f"{LARGE_GAME}/faq.md": "\n".join(faq),
        },
    )


def resolves(dotted: str) -> bool:
    """Whether a dotted name is a module, or a name defined in one (`rulebot.errors.UsageError`)."""
    parts = dotted.split(".")
    for length in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:length]))
        except ModuleNotFoundError:
            continue
        for name in parts[length:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False
