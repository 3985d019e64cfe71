"""Vendor the site's Snowball stemmers: templates/static/stemmers.js and its licence, stemmers-LICENSE.txt.

    python scripts/vendor_stemmers.py

The stemmers are the Snowball project's own JavaScript: the output of the Snowball compiler's JavaScript generator
(`make dist_libstemmer_js`), files that say so in their first line and run on its BaseStemmer runtime. No npm package
carries a current one; the Sphinx wheel on PyPI does, unchanged (its sphinx/search/non-minified-js/, which Sphinx's
utils/generate_snowball.py copies from that make target). Their licence is Snowball's BSD licence, taken from the
Snowball project's own PyPI package of the same release (snowballstemmer's wheel, its dist-info/licenses/COPYING).

Both wheels are fetched with pip in its hash-checking mode (--require-hashes), so that pip itself refuses a file
without the SHA-256 pinned below before reading anything in it; the script checks that hash again, then the SHA-256
of each file it takes from them (PINS.parts), and keeps only English, French and the runtime, so that the site loads
one small file. They go into stemmers.js verbatim, each between two marker lines, inside a wrapper that keeps them
out of the page's globals and gives the search engine the interface it calls: window.RULEBOT_STEMMERS = {english: fn,
french: fn}, each fn a word to its stem. To move to another release, change PINS (versions and hashes: `pip download`
the wheels, then `sha256sum` them and the files taken from them) and run the script again; tests/test_site_browser.py
holds the result to PyStemmer, tests/test_vendor_stemmers.py the shipped files to PINS.parts.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "templates" / "static"
LANGUAGES = ("english", "french")


@dataclass(frozen=True)
class Pin:
    """A wheel on PyPI, fetched by name and version and trusted only with this SHA-256."""

    name: str
    version: str
    sha256: str


@dataclass(frozen=True)
class Pins:
    stemmers: Pin
    licence: Pin
    parts: Mapping[str, str]
    """The SHA-256 of each file taken from the wheels, by name: the generator's files as the sphinx wheel has them
    (stemmers.js holds them so, between its marker lines) and COPYING (stemmers-LICENSE.txt)."""


PINS = Pins(
    # Sphinx 9.2.0 carries the JavaScript of Snowball 3.0.1.
    stemmers=Pin("sphinx", "9.2.0", "4c3ec13b612712c0d3ce4cbdd9e3eb91e68577e07a8e31f32f21cf178453578c"),
    licence=Pin("snowballstemmer", "3.0.1", "6cd7b3897da8d6c9ffb968a6781fa6532dce9c3618a4b127d920dab764a19064"),
    parts={
        "base-stemmer.js": "eb67bedbfa264bd8a2201ebe07c861abbcbc56d7eaa28c53ff8b84f65ccd450f",
        "english-stemmer.js": "1f995807fde5a820390fb9046e4813a7eb8f20a4684650f14fbdeb4c2ad7ffc5",
        "french-stemmer.js": "30a3083e5b6076e2caa7f75cff84cc228a7655f046ce621bc726a0728bb03020",
        "COPYING": "f6f9e4c0e737728ca980de8595ded046d5e077017c1bb0ee05dc794a01434dae",
    },
)
STEMMERS_DIR = "sphinx/search/non-minified-js"
RUNTIME = "base-stemmer.js"
LICENCE = "COPYING"
# pip's words when a downloaded file is not the one its --hash names
HASH_MISMATCH = "DO NOT MATCH THE HASHES"


class VendorError(Exception):
    """What stops the vendoring, in one line."""


def fetch(pin: Pin, into: Path) -> Path:
    """The pinned wheel, downloaded with pip into `into`. pip checks the pinned SHA-256 itself (hash-checking mode) and
    refuses another file before it reads or unpacks anything in it."""
    into.mkdir(parents=True)
    requirements = into.parent / f"{into.name}-requirements.txt"
    requirements.write_text(f"{pin.name}=={pin.version} --hash=sha256:{pin.sha256}\n", encoding="utf-8")
    # only wheels: an sdist's build code would run to prepare its metadata. Both are pure Python; asking for a recent
    # Python lets pip fetch them whatever runs this script.
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:", "--python-version", "3.13",
         "--require-hashes", "--requirement", str(requirements), "--dest", str(into)],
        capture_output=True, text=True,
    )
    found = sorted(into.iterdir())
    if done.returncode == 0 and len(found) == 1:
        return found[0]
    if HASH_MISMATCH in done.stderr:
        raise VendorError(f"pip refused {pin.name} {pin.version} from the package index: its SHA-256 is not the pinned {pin.sha256}")
    lines = done.stderr.strip().splitlines()
    # pip's last error says what it missed; the warnings before it are about the indexes it tried
    errors = [line.removeprefix("ERROR: ") for line in lines if line.startswith("ERROR: ")]
    said = (errors or lines or ["no file"])[-1]
    raise VendorError(f"pip could not download {pin.name} {pin.version} (is the package index reachable?): {said}")


def check_hash(pin: Pin, path: Path) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != pin.sha256:
        raise VendorError(f"{path.name} has SHA-256 {digest}, not the pinned {pin.sha256}: not used")


def check_parts(parts: Mapping[str, str], pins: Pins) -> None:
    """Each file taken from the wheels is the one pinned in pins.parts."""
    for name, text in parts.items():
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        pinned = pins.parts.get(name)
        if digest != pinned:
            raise VendorError(f"{name} has SHA-256 {digest}, not the pinned {pinned or '(none)'}: not used")


def generated(name: str, text: str) -> str:
    """The Snowball release that generated a stemmer, from its first line; refuses anything else."""
    first = text.partition("\n")[0]
    prefix, suffix = f"// Generated from {name}.sbl by Snowball ", " - https://snowballstem.org/"
    if not (first.startswith(prefix) and first.endswith(suffix)):
        raise VendorError(f"{name}-stemmer.js does not say it is Snowball's generated code (its first line: {first!r})")
    return first[len(prefix):-len(suffix)]


def _member(archive: zipfile.ZipFile, wheel: Path, path: str) -> str:
    try:
        return archive.read(path).decode("utf-8")
    except KeyError:
        raise VendorError(f"{wheel.name} has no {path}") from None


def read_stemmers(wheel: Path) -> dict[str, str]:
    """The runtime and the stemmers of LANGUAGES, by file name, as the wheel has them."""
    names = [RUNTIME, *(f"{language}-stemmer.js" for language in LANGUAGES)]
    with zipfile.ZipFile(wheel) as archive:
        return {name: _member(archive, wheel, f"{STEMMERS_DIR}/{name}") for name in names}


def read_licence(wheel: Path, pin: Pin) -> str:
    """Snowball's licence, as the snowballstemmer wheel carries it."""
    with zipfile.ZipFile(wheel) as archive:
        return _member(archive, wheel, f"{pin.name}-{pin.version}.dist-info/licenses/{LICENCE}")


def stemmers_js(files: dict[str, str], licence: str, pins: Pins) -> str:
    """The file the site loads: a header saying where its code comes from, then that code, verbatim, wrapped."""
    releases = {generated(language, files[f"{language}-stemmer.js"]) for language in LANGUAGES}
    if len(releases) != 1:
        raise VendorError(f"the stemmers come from different Snowball releases: {', '.join(sorted(releases))}")
    stemmers = pins.stemmers
    header = [
        "/*",
        " * The Snowball English (\"Porter2\") and French stemmers, for rulebot's site search: a question typed in the",
        " * browser is stemmed as PyStemmer stemmed the corpus. Defines window.RULEBOT_STEMMERS = {english: fn, french: fn}.",
        " *",
        f" * Written by scripts/vendor_stemmers.py; do not edit. The code between the wrapper's lines is Snowball {releases.pop()}'s",
        " * JavaScript generator's output, unchanged: " + ", ".join(files) + ",",
        f" * from {STEMMERS_DIR}/ of the PyPI package {stemmers.name} {stemmers.version}",
        f" * (sha256 {stemmers.sha256}).",
        f" * Its licence, from the PyPI package {pins.licence.name} {pins.licence.version} (sha256 {pins.licence.sha256}),",
        " * also in stemmers-LICENSE.txt beside this file:",
        " *",
        *(f" * {line}".rstrip() for line in licence.strip().splitlines()),
        " */",
    ]
    body = [
        # not strict: as the generator's files run in a page of their own
        "(function (root) {",
        "  // base-stemmer.js assigns BaseStemmer without declaring it: declared here, it stays out of the page's globals",
        "  var BaseStemmer;",
        "",
    ]
    for name, text in files.items():
        # each file whole between two marker lines (the generator ends it with a newline): the tests take it back out
        # and check it against its pinned SHA-256
        body += [f"// -- {name} (verbatim) --", f"{text}// -- end of {name} --", ""]
    body += [
        "  // One stemmer of each language, reused: stemWord starts afresh from the word it is given.",
        "  var english = new EnglishStemmer(), french = new FrenchStemmer();",
        "  root.RULEBOT_STEMMERS = {",
        "    english: function (word) { return english.stemWord(word); },",
        "    french: function (word) { return french.stemWord(word); }",
        "  };",
        "}(typeof window !== \"undefined\" ? window : this));",
    ]
    return "\n".join(header + body) + "\n"


def vendor(wheel: Path, licence_wheel: Path, static: Path, pins: Pins) -> list[Path]:
    """Check the downloaded wheels and the files taken from them against the pins, and write stemmers.js and its
    licence into `static`."""
    check_hash(pins.stemmers, wheel)
    check_hash(pins.licence, licence_wheel)
    files = read_stemmers(wheel)
    licence = read_licence(licence_wheel, pins.licence)
    check_parts({**files, LICENCE: licence}, pins)
    script = stemmers_js(files, licence, pins)
    written = [static / "stemmers.js", static / "stemmers-LICENSE.txt"]
    written[0].write_text(script, encoding="utf-8", newline="\n")
    written[1].write_text(licence, encoding="utf-8", newline="\n")
    return written


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    try:
        with tempfile.TemporaryDirectory() as work:
            wheel = fetch(PINS.stemmers, Path(work) / "stemmers")
            licence_wheel = fetch(PINS.licence, Path(work) / "licence")
            for path in vendor(wheel, licence_wheel, STATIC, PINS):
                print(f"wrote {path.relative_to(ROOT)}")
    except (VendorError, OSError, zipfile.BadZipFile, UnicodeDecodeError) as error:
        # one line, and the status of an error (2), as rulebot's own commands end
        print(f"vendor_stemmers: {error}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
