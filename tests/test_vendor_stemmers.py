"""The site's Snowball stemmers are Snowball's generated JavaScript, vendored by scripts/vendor_stemmers.py with their
licence: the file the site loads says where its code comes from, and the script keeps only files it can trust
(pinned hash, the generator's own header). No network: the script's download is not run here.
(tests/test_site_browser.py holds the stemmers' stems to PyStemmer's.)"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import re
import sys
import tarfile
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
    """The vendored files a stemmers.js holds, by name."""
    pieces = re.split(r"^// -- (\S+) \(verbatim\) --\n", text, flags=re.MULTILINE)
    return dict(zip(pieces[1::2], pieces[2::2]))


def test_shipped_stemmers_are_snowballs_generated_code(script: ModuleType):
    """stemmers.js is the Snowball generator's English and French stemmers and runtime, from the pinned package, and
    carries their licence, which is also shipped beside it."""
    text = (STATIC / "stemmers.js").read_text(encoding="utf-8")
    pin = script.PINS.stemmers
    assert f"PyPI package {pin.name} {pin.version}" in text and pin.sha256 in text
    parts = _parts(text)
    assert list(parts) == ["base-stemmer.js", "english-stemmer.js", "french-stemmer.js"]
    assert "BaseStemmer = function()" in parts["base-stemmer.js"]
    for language in ("english", "french"):
        assert parts[f"{language}-stemmer.js"].startswith(f"// Generated from {language}.sbl by Snowball ")
    licence = (STATIC / "stemmers-LICENSE.txt").read_text(encoding="utf-8")
    assert "Neither the name of the Snowball project" in licence
    commented = "\n".join(f" * {line}".rstrip() for line in licence.strip().splitlines())
    assert commented in text


GENERATED = {
    "base-stemmer.js": "// @ts-check\nBaseStemmer = function() {};\n",
    "english-stemmer.js": "// Generated from english.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar EnglishStemmer = 1;\n",
    "french-stemmer.js": "// Generated from french.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar FrenchStemmer = 2;\n",
    "german-stemmer.js": "// Generated from german.sbl by Snowball 9.9.9 - https://snowballstem.org/\nvar GermanStemmer = 3;\n",
}
LICENCE = "Copyright (c) 2001, Dr Martin Porter\nAll rights reserved.\n"


def _packages(folder: Path, files: dict[str, str]) -> tuple[Path, Path]:
    """A wheel holding `files` where the sphinx wheel has its stemmers, and an sdist holding a COPYING."""
    wheel = folder / "sphinx-9.2.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(f"sphinx/search/non-minified-js/{name}", text)
    sdist = folder / "snowballstemmer-3.0.1.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        data = LICENCE.encode()
        member = tarfile.TarInfo("snowballstemmer-3.0.1/COPYING")
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    return wheel, sdist


def _pins(script: ModuleType, wheel: Path, sdist: Path):  # type: ignore[no-untyped-def]
    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    return script.Pins(
        stemmers=script.Pin("sphinx", "9.2.0", digest(wheel), sdist=False),
        licence=script.Pin("snowballstemmer", "3.0.1", digest(sdist), sdist=True),
    )


def test_vendor_keeps_english_french_and_the_runtime_verbatim(script: ModuleType, tmp_path: Path):
    """The script writes the runtime and the English and French stemmers unchanged (no other language), the
    interface the search engine calls, and the licence, into the file and beside it."""
    wheel, sdist = _packages(tmp_path, GENERATED)
    out = tmp_path / "static"
    out.mkdir()
    written = script.vendor(wheel, sdist, out, _pins(script, wheel, sdist))
    assert [path.name for path in written] == ["stemmers.js", "stemmers-LICENSE.txt"]
    text = (out / "stemmers.js").read_text(encoding="utf-8")
    parts = _parts(text)
    assert list(parts) == ["base-stemmer.js", "english-stemmer.js", "french-stemmer.js"]
    for name, part in parts.items():
        assert part.startswith(GENERATED[name])
    assert "GermanStemmer" not in text
    assert "Snowball 9.9.9" in text.partition("*/")[0]
    assert "root.RULEBOT_STEMMERS = {" in text
    assert (out / "stemmers-LICENSE.txt").read_text(encoding="utf-8") == LICENCE
    assert " * Copyright (c) 2001, Dr Martin Porter\n" in text


@pytest.mark.parametrize("changed", ["stemmers", "licence"])
def test_vendor_refuses_a_file_that_is_not_the_pinned_one(script: ModuleType, tmp_path: Path, changed: str):
    """A downloaded file whose SHA-256 is not the pinned one is not used: one line says so, nothing is written."""
    wheel, sdist = _packages(tmp_path, GENERATED)
    pins = _pins(script, wheel, sdist)
    pin = getattr(pins, changed)
    pins = script.Pins(**{**vars(pins), changed: script.Pin(pin.name, pin.version, "0" * 64, sdist=pin.sdist)})
    out = tmp_path / "static"
    out.mkdir()
    with pytest.raises(script.VendorError, match=r"^\S+ has SHA-256 [0-9a-f]{64}, not the pinned 0{64}: not used$"):
        script.vendor(wheel, sdist, out, pins)
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
    wheel, sdist = _packages(tmp_path, {**GENERATED, name: text})
    out = tmp_path / "static"
    out.mkdir()
    with pytest.raises(script.VendorError, match=re.escape(said)):
        script.vendor(wheel, sdist, out, _pins(script, wheel, sdist))
    assert list(out.iterdir()) == []


def test_script_says_what_stopped_it_in_one_line(script: ModuleType, monkeypatch: pytest.MonkeyPatch):
    """A failed download ends the script with one line naming it, and a failure status, not a traceback."""

    def fail(pin, into):  # type: ignore[no-untyped-def]
        raise script.VendorError(f"pip could not download {pin.name} {pin.version}: no network")

    monkeypatch.setattr(script, "fetch", fail)
    monkeypatch.setattr(sys, "argv", ["vendor_stemmers.py"])
    with pytest.raises(SystemExit) as stopped:
        script.main()
    assert stopped.value.code == "vendor_stemmers: pip could not download sphinx 9.2.0: no network"
