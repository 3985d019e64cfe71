"""The site's Snowball stemmers are Snowball's generated JavaScript, vendored by scripts/vendor_stemmers.py with their
licence: the file the site loads says where its code comes from, holds the pinned files unchanged, and the script
keeps only files it can trust (pinned hashes, checked by pip before it reads a wheel and by the script, the
generator's own header). No network: pip is run on local wheels only. (tests/test_site_browser.py holds the stemmers'
stems to PyStemmer's.)"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "templates" / "static"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    """scripts/vendor_stemmers.py, imported (it is no module of the package)."""
    spec = importlib.util.spec_from_file_location("vendor_stemmers", ROOT / "scripts" / "vendor_stemmers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _parts(text: str) -> dict[str, str]:
    """The vendored files a stemmers.js holds, by name, each as it is between its two marker lines."""
    found = re.findall(r"^// -- (\S+) \(verbatim\) --\n(.*?)^// -- end of \1 --$", text, flags=re.MULTILINE | re.DOTALL)
    return dict(found)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_shipped_stemmers_are_snowballs_generated_code(script: ModuleType):
    """stemmers.js holds the Snowball generator's English and French stemmers and runtime, each the very file pinned
    (its SHA-256 in the script's PINS), says which packages they come from, and carries their licence, the pinned
    one, which is also shipped beside it."""
    text = (STATIC / "stemmers.js").read_text(encoding="utf-8")
    pins = script.PINS
    for pin in (pins.stemmers, pins.licence):
        assert f"PyPI package {pin.name} {pin.version}" in text and pin.sha256 in text
    parts = _parts(text)
    assert list(parts) == ["base-stemmer.js", "english-stemmer.js", "french-stemmer.js"]
    assert {name: _sha256(part.encode("utf-8")) for name, part in parts.items()} == {name: pins.parts[name] for name in parts}
    licence = (STATIC / "stemmers-LICENSE.txt").read_bytes()
    assert _sha256(licence) == pins.parts["COPYING"]
    commented = "\n".join(f" * {line}".rstrip() for line in licence.decode("utf-8").strip().splitlines())
    assert commented in text


GENERATED = {
    "base-stemmer.js": "// @ts-check\nBaseStemmer = function() {};\n",
    "english-stemmer.js": "// Generated from english.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar EnglishStemmer = 1;\n",
    "french-stemmer.js": "// Generated from french.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar FrenchStemmer = 2;\n",
    "german-stemmer.js": "// Generated from german.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar GermanStemmer = 3;\n",
}
LICENCE = "Copyright (c) 2001, Dr Martin Porter\nAll rights reserved.\n"
LICENCE_PATH = "snowballstemmer-3.0.1.dist-info/licenses/COPYING"


def _wheel(path: Path, files: dict[str, str]) -> Path:
    """A wheel pip takes for the one its name says (its dist-info), holding `files`."""
    name, version = path.name.split("-")[:2]
    dist_info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
        archive.writestr(f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        archive.writestr(f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        archive.writestr(f"{dist_info}/RECORD", "")
    return path


def _packages(folder: Path, files: dict[str, str], licence: dict[str, str] | None = None) -> tuple[Path, Path]:
    """A wheel holding `files` where the sphinx wheel has its stemmers, and one holding a licence where the
    snowballstemmer wheel has its COPYING."""
    wheel = _wheel(folder / "sphinx-9.2.0-py3-none-any.whl", {f"sphinx/search/non-minified-js/{name}": text for name, text in files.items()})
    licence_wheel = _wheel(folder / "snowballstemmer-3.0.1-py3-none-any.whl", {LICENCE_PATH: LICENCE} if licence is None else licence)
    return wheel, licence_wheel


def _pins(script: ModuleType, wheel: Path, licence_wheel: Path, files: dict[str, str] = GENERATED):  # type: ignore[no-untyped-def]
    """Pins that trust these wheels and these files."""
    parts = {name: _sha256(text.encode("utf-8")) for name, text in {**files, "COPYING": LICENCE}.items()}
    return script.Pins(
        stemmers=script.Pin("sphinx", "9.2.0", _sha256(wheel.read_bytes())),
        licence=script.Pin("snowballstemmer", "3.0.1", _sha256(licence_wheel.read_bytes())),
        parts=parts,
    )


def test_vendor_keeps_english_french_and_the_runtime_verbatim(script: ModuleType, tmp_path: Path):
    """The script writes the runtime and the English and French stemmers unchanged (no other language), the
    interface the search engine calls, and the licence, into the file and beside it."""
    wheel, licence_wheel = _packages(tmp_path, GENERATED)
    out = tmp_path / "static"
    out.mkdir()
    written = script.vendor(wheel, licence_wheel, out, _pins(script, wheel, licence_wheel))
    assert [path.name for path in written] == ["stemmers.js", "stemmers-LICENSE.txt"]
    text = (out / "stemmers.js").read_text(encoding="utf-8")
    assert _parts(text) == {name: GENERATED[name] for name in ("base-stemmer.js", "english-stemmer.js", "french-stemmer.js")}
    assert "GermanStemmer" not in text
    assert "Snowball 9.9.9" in text.partition("*/")[0]
    assert "root.RULEBOT_STEMMERS = {" in text
    assert (out / "stemmers-LICENSE.txt").read_text(encoding="utf-8") == LICENCE
    assert " * Copyright (c) 2001, Dr Martin Porter\n" in text


@pytest.mark.parametrize("changed", ["stemmers", "licence", "english-stemmer.js", "COPYING"])
def test_vendor_refuses_a_file_that_is_not_the_pinned_one(script: ModuleType, tmp_path: Path, changed: str):
    """A downloaded wheel, or a file taken from one, whose SHA-256 is not the pinned one is not used: one line says
    so, nothing is written."""
    wheel, licence_wheel = _packages(tmp_path, GENERATED)
    pins = _pins(script, wheel, licence_wheel)
    if changed in pins.parts:
        pins = script.Pins(pins.stemmers, pins.licence, {**pins.parts, changed: "0" * 64})
    else:
        pin = getattr(pins, changed)
        pins = script.Pins(**{**vars(pins), changed: script.Pin(pin.name, pin.version, "0" * 64)})
    out = tmp_path / "static"
    out.mkdir()
    with pytest.raises(script.VendorError, match=r"^\S+ has SHA-256 [0-9a-f]{64}, not the pinned 0{64}: not used$"):
        script.vendor(wheel, licence_wheel, out, pins)
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("french-stemmer.js", "// a port by hand\nvar FrenchStemmer = 2;\n", "french-stemmer.js does not say it is Snowball's generated code"),
        ("english-stemmer.js", GENERATED["english-stemmer.js"].replace("9.9.9", "9.9.8"), "different Snowball releases: 9.9.8, 9.9.9"),
    ],
)
def test_vendor_refuses_code_the_generator_did_not_make(script: ModuleType, tmp_path: Path, name: str, text: str, said: str):
    """A stemmer without the generator's header, or stemmers of two releases, are refused."""
    files = {**GENERATED, name: text}
    wheel, licence_wheel = _packages(tmp_path, files)
    out = tmp_path / "static"
    out.mkdir()
    with pytest.raises(script.VendorError, match=re.escape(said)):
        script.vendor(wheel, licence_wheel, out, _pins(script, wheel, licence_wheel, files))
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    ("lacking", "said"),
    [
        ("french-stemmer.js", "sphinx-9.2.0-py3-none-any.whl has no sphinx/search/non-minified-js/french-stemmer.js"),
        ("COPYING", f"snowballstemmer-3.0.1-py3-none-any.whl has no {LICENCE_PATH}"),
    ],
)
def test_vendor_names_the_file_a_wheel_lacks(script: ModuleType, tmp_path: Path, lacking: str, said: str):
    """A wheel without a file the script takes from it is refused in one line naming the wheel and the file."""
    files = {name: text for name, text in GENERATED.items() if name != lacking}
    wheel, licence_wheel = _packages(tmp_path, files, licence={} if lacking == "COPYING" else None)
    out = tmp_path / "static"
    out.mkdir()
    with pytest.raises(script.VendorError) as refused:
        script.vendor(wheel, licence_wheel, out, _pins(script, wheel, licence_wheel, files))
    assert str(refused.value) == said
    assert list(out.iterdir()) == []


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder that is pip's only package index: no network, no configuration (the script's pip runs with them)."""
    links = tmp_path / "index"
    links.mkdir()
    for name in [name for name in os.environ if name.startswith("PIP_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    return links


def test_fetch_downloads_the_pinned_wheel(script: ModuleType, index: Path, tmp_path: Path):
    wheel = _wheel(index / "sphinx-9.2.0-py3-none-any.whl", GENERATED)
    got = script.fetch(script.Pin("sphinx", "9.2.0", _sha256(wheel.read_bytes())), tmp_path / "got")
    assert got.read_bytes() == wheel.read_bytes()


def test_pip_refuses_a_wheel_that_is_not_the_pinned_one(script: ModuleType, index: Path, tmp_path: Path):
    """pip itself checks the pinned SHA-256 (hash-checking mode) and keeps no other file."""
    _wheel(index / "sphinx-9.2.0-py3-none-any.whl", GENERATED)
    with pytest.raises(script.VendorError) as refused:
        script.fetch(script.Pin("sphinx", "9.2.0", "0" * 64), tmp_path / "got")
    assert str(refused.value) == f"pip refused sphinx 9.2.0 from the package index: its SHA-256 is not the pinned {'0' * 64}"
    assert list((tmp_path / "got").iterdir()) == []


def test_script_says_what_stopped_it_in_one_line(script: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """A wheel without the licence ends the script with one line naming what it lacks and the status 2, no traceback,
    nothing written."""
    wheel, licence_wheel = _packages(tmp_path, GENERATED, licence={})
    monkeypatch.setattr(script, "fetch", lambda pin, into: {"sphinx": wheel, "snowballstemmer": licence_wheel}[pin.name])
    monkeypatch.setattr(script, "PINS", _pins(script, wheel, licence_wheel))
    monkeypatch.setattr(script, "STATIC", tmp_path / "static")
    (tmp_path / "static").mkdir()
    monkeypatch.setattr(sys, "argv", ["vendor_stemmers.py"])
    with pytest.raises(SystemExit) as stopped:
        script.main()
    assert stopped.value.code == 2
    assert capsys.readouterr().err == f"vendor_stemmers: snowballstemmer-3.0.1-py3-none-any.whl has no {LICENCE_PATH}\n"
    assert list((tmp_path / "static").iterdir()) == []


def test_script_without_the_package_index_says_so_in_one_line(index: Path):
    """Run as a program with no package index to reach, the script ends with one line that names the package and
    asks whether the index is reachable, and the status 2."""
    shipped = {path.name: path.read_bytes() for path in STATIC.glob("stemmers*")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "vendor_stemmers.py")], capture_output=True, text=True, env=dict(os.environ), timeout=300
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "vendor_stemmers: pip could not download sphinx 9.2.0 (is the package index reachable?):"
        " No matching distribution found for sphinx==9.2.0\n"
    )
    assert {path.name: path.read_bytes() for path in STATIC.glob("stemmers*")} == shipped
