"""Where rulebot's files are: its installed package and shipped corpus, and the user's folders (one per kind).

A leaf: answering a question needs it before anything else is loaded."""

from __future__ import annotations

import os
from pathlib import Path


def user_dir(kind: str) -> Path:
    """$RULEBOT_<KIND>_DIR, else the platform's user folder of that kind ("config", "cache" or "data").

    rulebot writes in these folders: one configured inside the installed
    package is refused (PackageWriteError).
    """
    variable = f"RULEBOT_{kind.upper()}_DIR"
    configured = os.environ.get(variable)
    if configured:
        return outside_package(Path(configured), f"${variable}")
    import platformdirs

    path: Path = getattr(platformdirs, f"user_{kind}_path")("rulebot", appauthor=False)
    return path


def package_dir() -> Path:
    """The folder of the rulebot package itself: in an installed rulebot it holds the shipped corpus,
    and rulebot never writes in it (see outside_package)."""
    return Path(__file__).resolve().parent


def display_path(path: Path) -> str:
    """A path as short as it can be said from the working directory; bytes of a name that are not UTF-8, and
    control characters, shown as escapes (`\\xe9`, `\\x1b`), so that the path can be printed and written to UTF-8 files."""
    try:
        shown = str(Path(path).relative_to(Path.cwd()))
    except (ValueError, OSError):  # elsewhere, or the working directory is gone
        shown = str(path)
    if shown.isascii() and shown.isprintable():
        return shown
    # A control character shown as an escape too: printed, it would be acted on, or taken out (another name).
    from rulebot.text import ANY_CONTROL  # only for such a name: answering never loads it otherwise

    return ANY_CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", escaped_name(shown))


def escaped_name(name: str) -> str:
    """A file name as text: its bytes read as UTF-8 whatever the locale, those that are not UTF-8 (which
    Python keeps as lone surrogates) as `\\xe9`."""
    try:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    except UnicodeError:  # not a name made by the file system: nothing to restore
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def is_undecodable(name: str) -> bool:
    """Whether a file name's bytes are not UTF-8."""
    try:
        os.fsencode(name).decode("utf-8")
    except UnicodeError:
        return True
    return False


def shipped_corpus_dir() -> Path:
    """The corpus that comes with rulebot (see shipped)."""
    return shipped("corpus")


def shipped(name: str) -> Path:
    """A folder that comes with rulebot ("corpus", "templates"): inside the installed package (the wheel
    puts it in `data/`), else the folder of that name beside the package, in a source checkout."""
    installed = package_dir() / "data" / name
    return installed if installed.is_dir() else package_dir().parent / name


def outside_package(path: Path, what: str) -> Path:
    """`path`, once it is known not to lie inside the rulebot package (and its shipped corpus):
    PackageWriteError otherwise. Every file rulebot writes is checked here first.

    The test is where the path is, not how rulebot was installed: a source
    checkout's `corpus/` lies beside the package, and an installed rulebot's
    inside it (the wheel puts it there), so curators of a checkout write to
    its corpus while an installed rulebot's is never changed.
    """
    real = Path(os.path.realpath(path))
    if real.is_relative_to(package_dir()):
        from rulebot.errors import PackageWriteError

        raise PackageWriteError(
            f"{what} {path} is inside the installed rulebot package ({package_dir()}), which rulebot never changes:"
            " use a folder of your own"
        )
    return path
