"""Vendor the site's Snowball stemmers: templates/static/stemmers.js and its licence, stemmers-LICENSE.txt.

    python scripts/vendor_stemmers.py

The stemmers are the Snowball project's own JavaScript: the output of the Snowball compiler's JavaScript generator
(`make dist_libstemmer_js`), files that say so in their first line and run on its BaseStemmer runtime. No npm package
carries a current one; the Sphinx wheel on PyPI does, unchanged (its sphinx/search/non-minified-js/, which Sphinx's
utils/generate_snowball.py copies from that make target). Their licence is Snowball's BSD licence, taken from the
Snowball project's own PyPI package of the same release (snowballstemmer's sdist, its COPYING).

Both are fetched with pip, checked against the SHA-256 pinned below, and only English, French and the runtime are
kept, so that the site loads one small file. They go into stemmers.js verbatim, inside a wrapper that keeps them out
of the page's globals and gives the search engine the interface it calls: window.RULEBOT_STEMMERS = {english: fn,
french: fn}, each fn a word to its stem. To move to another release, change PINS (version and hash: `pip download`
it, then `sha256sum`) and run the script again; tests/test_site_browser.py holds the result to PyStemmer.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "templates" / "static"
LANGUAGES = ("english", "french")


@dataclass(frozen=True)
class Pin:
    """A package file on PyPI, fetched by name and version and trusted only with this SHA-256."""

    name: str
    version: str
    sha256: str
    sdist: bool
    """The source distribution (else the wheel)."""


@dataclass(frozen=True)
class Pins:
    stemmers: Pin
    licence: Pin


PINS = Pins(
    # Sphinx 9.2.0 carries the JavaScript of Snowball 3.0.1.
    stemmers=Pin("sphinx", "9.2.0", "4c3ec13b612712c0d3ce4cbdd9e3eb91e68577e07a8e31f32f21cf178453578c", sdist=False),
    licence=Pin("snowballstemmer", "3.0.1", "6d5eeeec8e9f84d4d56b847692bacf79bc2c8e90c7f80ca4444ff8b6f2e52895", sdist=True),
)
STEMMERS_DIR = "sphinx/search/non-minified-js"
RUNTIME = "base-stemmer.js"


class VendorError(Exception):
    """What stops the vendoring, in one line."""


def fetch(pin: Pin, into: Path) -> Path:
    """The pinned file, downloaded with pip into `into`."""
    into.mkdir(parents=True)
    if pin.sdist:
        how = ["--no-binary", ":all:"]
    else:
        # the wheel is pure Python; asking for a recent Python lets pip fetch it whatever runs this script
        how = ["--only-binary", ":all:", "--python-version", "3.13"]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *how, "--dest", str(into), f"{pin.name}=={pin.version}"],
        capture_output=True, text=True,
    )
    found = sorted(into.iterdir())
    if done.returncode != 0 or len(found) != 1:
        last = (done.stderr.strip().splitlines() or ["no file"])[-1]
        raise VendorError(f"pip could not download {pin.name} {pin.version}: {last}")
    return found[0]


def check_hash(pin: Pin, path: Path) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != pin.sha256:
        raise VendorError(f"{path.name} has SHA-256 {digest}, not the pinned {pin.sha256}: not used")


def generated(name: str, text: str) -> str:
    """The Snowball release that generated a stemmer, from its first line; refuses anything else."""
    first = text.partition("\n")[0]
    prefix, suffix = f"// Generated from {name}.sbl by Snowball ", " - https://snowballstem.org/"
    if not (first.startswith(prefix) and first.endswith(suffix)):
        raise VendorError(f"{name}-stemmer.js does not say it is Snowball's generated code (its first line: {first!r})")
    return first[len(prefix):-len(suffix)]


def read_stemmers(wheel: Path) -> dict[str, str]:
    """The runtime and the stemmers of LANGUAGES, by file name, as the wheel has them."""
    names = [RUNTIME, *(f"{language}-stemmer.js" for language in LANGUAGES)]
    with zipfile.ZipFile(wheel) as archive:
        try:
            return {name: archive.read(f"{STEMMERS_DIR}/{name}").decode("utf-8") for name in names}
        except KeyError as missing:
            raise VendorError(f"{wheel.name} has no {missing.args[0]}") from None


def read_licence(sdist: Path, pin: Pin) -> str:
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"{pin.name}-{pin.version}/COPYING")
        if member is None:
            raise VendorError(f"{sdist.name} has no COPYING")
        return member.read().decode("utf-8")


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
        " * Its licence, also in stemmers-LICENSE.txt beside this file:",
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
        body += [f"// -- {name} (verbatim) --", text.rstrip("\n"), ""]
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


def vendor(wheel: Path, sdist: Path, static: Path, pins: Pins = PINS) -> list[Path]:
    """Check the downloaded files against the pins and write stemmers.js and its licence into `static`."""
    check_hash(pins.stemmers, wheel)
    check_hash(pins.licence, sdist)
    licence = read_licence(sdist, pins.licence)
    script = stemmers_js(read_stemmers(wheel), licence, pins)
    written = [static / "stemmers.js", static / "stemmers-LICENSE.txt"]
    written[0].write_text(script, encoding="utf-8", newline="\n")
    written[1].write_text(licence, encoding="utf-8", newline="\n")
    return written


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    try:
        with tempfile.TemporaryDirectory() as work:
            wheel = fetch(PINS.stemmers, Path(work) / "stemmers")
            sdist = fetch(PINS.licence, Path(work) / "licence")
            for path in vendor(wheel, sdist, STATIC):
                print(f"wrote {path.relative_to(ROOT)}")
    except (VendorError, OSError, zipfile.BadZipFile, tarfile.TarError) as error:
        sys.exit(f"vendor_stemmers: {error}")


if __name__ == "__main__":
    main()
