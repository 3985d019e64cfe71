"""Writing a built site: the checks that the output folder is safe to replace, and the atomic write (a fresh folder beside it, swapped in, by rulebot.atomic)."""

from __future__ import annotations

from pathlib import Path

from rulebot import atomic
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
            game_dir = Path(game.path).resolve().parent
            if target == game_dir or target in game_dir.parents:
                raise SiteError(f"refusing to build the site into {target}: it holds the corpus")
            if game_dir.parent in target.parents:  # (every folder of a corpus folder is read as a game's)
                raise SiteError(f"refusing to build the site into {target}: it is inside the corpus folder {game_dir.parent}")
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
                "empty it, pick another folder, or build with --force to replace its content"
            )
    return target


def check_writable(target: Path) -> None:
    """SiteError unless a folder can be made beside `target` (where the build is written before it is swapped in):
    told before the pages are rendered, not after."""
    import tempfile

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        Path(tempfile.mkdtemp(prefix=".rulebot-probe-", dir=target.parent)).rmdir()
    except OSError as exc:
        raise SiteError(f"cannot write {target}: {exc.strerror or exc}; nothing was changed") from None


def write(target: Path, files: dict[str, bytes]) -> None:
    """Write `files` into a fresh folder beside `target`, then swap it in (rulebot.atomic.replace_folder):
    a build that fails or is killed leaves the site as it was, and what a killed build left beside it is
    removed by the next."""
    atomic.replace_folder(target, files)
