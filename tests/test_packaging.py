"""Packaging: one Whoosh, and a wheel that carries the corpus and templates."""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from rulebot.corpus.kinds import KINDS

ROOT = Path(__file__).resolve().parent.parent


def test_exactly_one_distribution_provides_whoosh():
    """Two Whoosh distributions side by side would overwrite each other's files."""
    providers = importlib.metadata.packages_distributions().get("whoosh", [])
    assert len(set(providers)) == 1, providers
    assert providers[0].lower() == "whoosh-reloaded"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built as a wheel."""
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return next(out.glob("rulebot-*.whl"))


def test_wheel_carries_corpus_and_templates(wheel: Path):
    """The wheel holds every corpus file, the site templates, the JSON Schemas of `ask --json` and `setup --json` and
    the everyday words every game has inside the package."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (ROOT / "corpus").rglob("*"):
        if path.is_file():
            assert f"rulebot/data/corpus/{path.relative_to(ROOT / 'corpus').as_posix()}" in names
    if (ROOT / "templates").is_dir():
        assert any(n.startswith("rulebot/data/templates/") for n in names)
    assert "rulebot/schemas/ask.schema.json" in names
    assert "rulebot/schemas/setup.schema.json" in names
    assert "rulebot/locale/fr/LC_MESSAGES/rulebot.mo" in names
    assert "rulebot/language/everyday.toml" in names


def test_wheel_declares_and_carries_the_stemmers_licence(wheel: Path):
    """The wheel ships Snowball's code (the site's stemmers) beside rulebot's: its metadata names both licences, and it
    carries both texts as licence files."""
    archive = zipfile.ZipFile(wheel)
    dist_info = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA")).rpartition("/")[0]
    metadata = archive.read(f"{dist_info}/METADATA").decode("utf-8").partition("\n\n")[0].splitlines()
    assert "License-Expression: MIT AND BSD-3-Clause" in metadata
    assert "License-File: templates/static/stemmers-LICENSE.txt" in metadata
    carried = archive.read(f"{dist_info}/licenses/templates/static/stemmers-LICENSE.txt")
    assert carried == (ROOT / "templates" / "static" / "stemmers-LICENSE.txt").read_bytes()
    assert "License-File: LICENSE" in metadata
    assert archive.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()


def test_wheel_answers_in_french_with_french_labels(wheel: Path, tmp_path: Path):
    """Unpacked alone, the wheel answers a French question in French, with the labels of its compiled catalog."""
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"), RULEBOT_CACHE_DIR=str(tmp_path / "cache"), RULEBOT_CONFIG_DIR=str(tmp_path))
    process = subprocess.run(
        [sys.executable, "-m", "rulebot", "--color", "never", "ask", "combien de cartes en main à la fin du tour"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert "Limite de cartes en main" in process.stdout and "Source : " in process.stdout, process.stderr


def test_wheel_answers_from_its_own_corpus(wheel: Path, tmp_path: Path):
    """Unpacked alone, the wheel's package finds its shipped corpus and answers."""
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"), RULEBOT_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.run(
        [sys.executable, "-m", "rulebot", "ask", "--json", "chaumurky"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["results"][0]["id"] == "dune-chaumurky"
    located = subprocess.run(
        [sys.executable, "-c", "from rulebot.corpus.files import shipped_corpus_dir; print(shipped_corpus_dir())"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )
    assert located.stdout.strip().startswith(str(tmp_path / "site"))


def installed(wheel: Path, venv: Path) -> Path:
    """The wheel installed, as pip installs it, into a new virtual environment that borrows this one's
    dependencies (no network: no download); the environment's `rulebot` command."""
    import site
    import venv as venvs

    venvs.create(venv, with_pip=False)
    packages = next((venv / "lib").glob("python3*/site-packages"))
    # A plain path, not this environment's .pth files: its editable rulebot stays out.
    (packages / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "-q", str(wheel)],
        check=True, capture_output=True, timeout=300, cwd=venv,
    )
    return venv / "bin" / "rulebot"


def hashes(folder: Path) -> dict[str, str]:
    """Every file under a folder, by relative path, with its SHA-256."""
    import hashlib

    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def play_in_a_terminal(rulebot: Path, env: dict[str, str], lines: list[str]) -> str:
    """Run `rulebot play` in a pseudo-terminal (so that it keeps its history), type lines, and return what it showed."""
    import pty
    import select

    controller, terminal = pty.openpty()
    process = subprocess.Popen([rulebot, "play"], stdin=terminal, stdout=terminal, stderr=terminal, env=env, close_fds=True)
    os.close(terminal)
    shown = b""

    def read_until(prompts: int) -> None:
        nonlocal shown
        while shown.count(b"rulebot>") < prompts:
            ready, _, _ = select.select([controller], [], [], 60)
            assert ready, shown[-500:]
            shown += os.read(controller, 65536)

    for number, line in enumerate(lines, 1):
        read_until(number)
        os.write(controller, line.encode() + b"\r")
    process.wait(timeout=60)
    with contextlib.suppress(OSError):
        shown += os.read(controller, 65536)
    os.close(controller)
    return shown.decode("utf-8", "replace")


@pytest.mark.slow
def test_installed_package_is_never_written(wheel: Path, tmp_path: Path):
    """Installed from its wheel, rulebot changes no file of its package, whatever command writes:
    entries of each kind, drafts, a new game, settings, the index, the site, play's history."""
    rulebot = installed(wheel, tmp_path / "venv")
    located = subprocess.run([rulebot.parent / "python", "-c", "import rulebot; print(rulebot.__file__)"],
                             capture_output=True, text=True, check=True, cwd=tmp_path)
    package = Path(located.stdout.strip()).parent
    assert package.parent.name == "site-packages" and (package / "data" / "corpus" / "dune-imperium").is_dir()
    before = hashes(package)
    document = tmp_path / "rules.md"
    document.write_text("# Rules\n\n## Spice Harvest\n\nA harvester collects two spice from a desert space.\n", encoding="utf-8")
    env = dict(
        os.environ, RULEBOT_CACHE_DIR=str(tmp_path / "cache"), RULEBOT_CONFIG_DIR=str(tmp_path / "config"),
        RULEBOT_DATA_DIR=str(tmp_path / "data"), RULEBOT_CORPUS="", NO_COLOR="1",
    )
    refused = [["new", "-g", "dune-imperium", "-k", kind, "-t", f"A {kind}", "--append"] for kind in KINDS if kind != "house-rule"]
    refused += [["import", str(document), "-g", "dune-imperium", "-s", "dune-faq", "--append"]]
    written = [
        ["ask", "chaumurky"],
        ["ask", "--json", "chaumurky"],
        ["new", "-g", "dune-imperium", "-k", "house-rule", "-t", "Our rule", "--append"],
        ["--corpus", str(tmp_path / "my-table"), "new", "-g", "dune-imperium", "-k", "house-rule", "--append"],
        ["import", str(document), "-g", "dune-imperium", "-s", "dune-faq", "--out", str(tmp_path / "drafts.md")],
        ["new-game", "dunes", "--name", "Dunes", "--source", "rules", "--title", "Dunes rules"],
        ["import", str(document), "-g", "dunes", "-s", "rules", "--append"],
        ["config", "set", "res-arcana.with", "perlae-imperii"],
        ["config", "unset", "res-arcana.with"],
        ["index", "--rebuild"],
        ["site", "build", "--keep-going", str(tmp_path / "site")],
        ["changes", "dune-imperium"],
    ]
    for args in refused + written:
        done = subprocess.run([rulebot, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert done.returncode == (2 if args in refused else 0), (args, done.stderr)
    assert "Spice Harvest" in play_in_a_terminal(rulebot, env, ["harvester spice", ":quit"])
    assert "harvester spice" in (tmp_path / "data" / "play-history").read_text(encoding="utf-8")
    assert (tmp_path / "data" / "corpus" / "dune-imperium" / "house.md").is_file()
    assert hashes(package) == before
