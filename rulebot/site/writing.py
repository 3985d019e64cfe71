"""Writing a built site: the checks that the output folder is safe to replace, and the atomic write (a fresh folder beside it, swapped in)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from rulebot.corpus.model import Corpus
from rulebot.errors import SiteError
from rulebot.places import outside_package

MARKER = ".rulebot-site"
"""The file that marks a folder as a site built by rulebot (which it may replace)."""
MARKER_TEXT = "This folder is a site built by rulebot; `rulebot site build` replaces all of it.\n"


def check_target(out_dir: Path, corpus: Corpus, force: bool) -> Path:
    """The absolute output folder, once it is known to be safe to replace."""
    target = outside_package(out_dir.expanduser().resolve(), "the site folder")
    home = Path.home().resolve()
    if target == Path(target.anchor) or target == home or target in home.parents:
        raise SiteError(f"refusing to build the site into {target}: pick a folder of its own")
    cwd = Path.cwd().resolve()
    if (target == cwd or target in cwd.parents) and not (target / MARKER).is_file():
        raise SiteError(f"refusing to build the site into {target}: it holds the current directory")
    for game in corpus.games.values():
        if game.path:
            corpus_dir = Path(game.path).resolve().parent
            if target == corpus_dir or target in corpus_dir.parents:
                raise SiteError(f"refusing to build the site into {target}: it holds the corpus")
    if target.exists() and not target.is_dir():
        raise SiteError(f"cannot build the site into {target}: not a folder")
    if target.is_dir() and not (target / MARKER).is_file() and not force:
        try:
            empty = next(target.iterdir(), None) is None
        except OSError as exc:
            raise SiteError(f"cannot read {target}: {exc.strerror or exc}") from None
        if not empty:
            raise SiteError(
                f"{target} is not empty and was not made by rulebot (no {MARKER}); "
                "empty it, pick another folder, or force the build to replace its content"
            )
    return target


def write(target: Path, files: dict[str, bytes]) -> None:
    """Write `files` into a fresh folder beside `target`, then swap it in."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".rulebot-new", dir=target.parent))
    except OSError as exc:
        raise SiteError(f"cannot write the site beside {target}: {exc.strerror or exc}") from None
    try:
        os.chmod(fresh, 0o777 & ~_umask())
        for name, content in files.items():
            path = fresh / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        _swap(fresh, target)
    except OSError as exc:
        raise SiteError(f"cannot write the site to {target}: {exc.strerror or exc}") from None
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)


def _swap(fresh: Path, target: Path) -> None:
    if not target.exists():
        fresh.rename(target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".rulebot-old", dir=target.parent))
    old.rmdir()
    try:
        target.rename(old)
    except OSError:
        # A folder that cannot be moved (a mount point, say): replace its
        # content instead, which is all inside it.
        _empty(target)
        for child in sorted(fresh.iterdir()):
            child.rename(target / child.name)
        return
    try:
        fresh.rename(target)
    except OSError:
        old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _empty(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
