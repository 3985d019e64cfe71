"""Every write a curator or a user makes, whole or not at all: the one way rulebot changes a user's files.

A file is written beside itself, in the same folder, under a temporary name
(`.NAME.PID.TOKEN.rulebot-tmp`), flushed to disk, then renamed over the file,
and the folder flushed too: a reader, a crash or a full disk sees the file as
it was or as it is now, never part of it. A folder (a new game, a built site)
is made the same way, under `.NAME.PID.TOKEN.rulebot-new`, and renamed into
place. An append reads the file, adds to it in memory and writes the whole.

Writers of the same file take turns: each holds an exclusive lock
(fcntl.flock) on `.NAME.rulebot-lock` beside it while it reads and writes, so
a second writer sees the first one's result before it decides what to write.
What a killed writer leaves beside the file (its temporary file or folder,
named with its process id) is removed by the next writer, under the lock,
once that process is gone.

A write that fails raises WriteError, saying that the file is as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from rulebot.errors import WriteError

LOCK_WAIT_SECONDS = 60.0
"""How long a writer waits for another writing the same file (a site build holds its lock while it writes every page)."""
LOCK_POLL_SECONDS = 0.05
TEMPORARY_RE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]+\.rulebot-(?:tmp|new|old)$")
"""What a writer leaves beside its file or folder while it writes: the target's name, the writer's process id."""


def temporary_name(target: Path, kind: str) -> Path:
    """A fresh name beside `target` for a temporary `kind` (tmp, new or old) of this process."""
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.rulebot-{kind}")


def lock_path(target: Path) -> Path:
    return target.with_name(f".{target.name}.rulebot-lock")


@contextlib.contextmanager
def locked(target: Path, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold the write lock of `target` (a file or folder, which need not exist, in a folder that does);
    remove strays of killed writers.

    WriteError when its folder cannot be written in or another writer holds the
    lock for longer than `wait` seconds. The lock file is removed on the way
    out; a writer that opened it before it was removed sees that (its inode
    is no longer the path's) and opens the new one.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): writes are still whole, only not taken in turn
        yield
        return
    path = lock_path(target)
    deadline = time.monotonic() + wait
    while True:
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise WriteError(f"cannot write {target}: {_reason(exc)}; nothing was changed") from None
        try:
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise WriteError(
                            f"cannot write {target}: another rulebot command is writing it; nothing was changed, try again"
                        ) from None
                    time.sleep(LOCK_POLL_SECONDS)
            try:
                now, held = os.stat(path), os.fstat(descriptor)
                same = (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
            except FileNotFoundError:
                same = False
        except BaseException:
            os.close(descriptor)
            raise
        if same:
            break
        os.close(descriptor)  # the holder before removed this lock file: take the one now in its place
    try:
        remove_strays(target)
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(descriptor)


def remove_strays(target: Path) -> None:
    """Remove what killed writers of `target` left beside it: temporary files and folders named
    with `target`'s name and the id of a process that is gone. Call with the lock of `target` held."""
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        match = TEMPORARY_RE.match(name)
        if match is None or match["name"] != target.name or _alive(int(match["pid"])):
            continue
        stray = target.parent / name
        with contextlib.suppress(OSError):
            if stray.is_dir() and not stray.is_symlink():
                shutil.rmtree(stray)
            else:
                stray.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this process is not writing under that name: it holds the lock
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, another user's
        return True
    return True


def real_target(path: Path) -> Path:
    """The file a write changes: the file a symbolic link points to (a config file kept elsewhere), not the link."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextlib.contextmanager
def as_one() -> Iterator[None]:
    """Writes of several files that go together (an import's drafts and the game.toml that names their document):
    an interrupt (SIGINT, SIGTERM) received while they are made takes effect once they are all made, so that none is
    left made without the others by it. Each write is still whole or not at all on its own; a write that fails
    (WriteError) leaves those made before it, and a process killed outright cannot be held off. The interrupt waits
    for the lock of each file too (LOCK_WAIT_SECONDS at most). Outside the main thread, where no handler can be set,
    and for a signal whose handler was not set from Python, nothing is held."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    held = [number for number in (signal.SIGINT, signal.SIGTERM) if signal.getsignal(number) is not None]
    before = {number: signal.signal(number, lambda number, _frame: received.append(number)) for number in held}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        for got in dict.fromkeys(received):  # each as it was handled before (one ignored, the next still acts)
            signal.raise_signal(got)


def write_file(path: Path, data: bytes | str, *, replace: bool = True) -> None:
    """Write `data` as the whole of `path`, atomically (see the module); with `replace=False`, refuse
    (WriteError) when the file exists. Takes the file's lock; the caller must not hold it."""
    path = real_target(path)
    with locked(path):
        if not replace and os.path.lexists(path):
            raise WriteError(f"{path} exists already; nothing was changed")
        replace_file(path, data)


def update_file(path: Path, change: Callable[[str | None], str | None]) -> str | None:
    """Read a text file (None when missing), give it to `change`, and write what it returns as the whole
    file (None: leave it be), all under the file's lock; what `change` returned.

    A second writer waits for the first, then reads its result: two appends
    never lose or repeat one another's text. WriteError when the file cannot
    be read or written; it is then as it was.
    """
    path = real_target(path)
    with locked(path):
        try:
            data = read_regular(path)
        except OSError as exc:
            raise WriteError(f"cannot read {path}: {_reason(exc)}; nothing was changed") from None
        try:
            existing = None if data is None else data.decode("utf-8")  # its line ends as they are: only the change changes
        except UnicodeDecodeError as exc:  # (at its line, as `rulebot check` says it)
            line = exc.object[: exc.start].count(b"\n") + 1
            raise WriteError(f"{path}:{line}: not valid UTF-8 (byte {exc.object[exc.start]:#04x}); nothing was changed") from None
        new = change(existing)
        if new is not None:
            replace_file(path, new)
        return new


def read_regular(path: Path) -> bytes | None:
    """A file's bytes, None when it is missing; OSError for what is not a regular file (a FIFO would block)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        chunks = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def replace_file(path: Path, data: bytes | str) -> None:
    """Write `data` beside `path`, flush it, rename it over `path`, flush the folder. Hold the file's lock.

    The file keeps its permissions (a new one gets the usual ones, after the
    umask). WriteError when any step fails; the temporary file is removed and
    `path` is as it was.
    """
    content = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_reason(exc)}; {_as_it_was(path)}") from None
    temporary = temporary_name(path, "tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            if mode is not None:
                os.fchmod(descriptor, mode)
            _write_all(descriptor, content)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise WriteError(f"cannot write {path}: {_reason(exc)}; {_as_it_was(path)}") from None
    except BaseException:  # Ctrl-C: nothing left behind
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    sync_folder(path.parent)


def _write_all(descriptor: int, content: bytes) -> None:
    view = memoryview(content)
    while view:
        written = os.write(descriptor, view)
        if written <= 0:  # never a short write of nothing on a regular file; a full disk raises ENOSPC
            raise OSError(errno.EIO, "the file system took nothing")
        view = view[written:]


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename into it) to disk, where the system allows it."""
    with contextlib.suppress(OSError):  # not every system opens a folder to flush it (Windows)
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def create_folder(target: Path, files: Mapping[str, bytes | str]) -> None:
    """Make the folder `target` holding `files` (relative paths) at once: built beside it, renamed into
    place, its parent folders made when missing. WriteError when it exists already or cannot be made;
    nothing is then left."""
    _make_parent(target)
    with locked(target):
        if os.path.lexists(target):
            raise WriteError(f"{target} exists already; nothing was changed")
        fresh = _fill_beside(target, files)
        try:
            fresh.rename(target)
        except OSError as exc:
            shutil.rmtree(fresh, ignore_errors=True)
            raise WriteError(f"cannot make {target}: {_reason(exc)}; nothing was changed") from None
        sync_folder(target.parent)


def replace_folder(target: Path, files: Mapping[str, bytes | str]) -> None:
    """Replace the folder `target` with one holding `files`, at once: the new one is built beside it, then
    swapped in, and the old one removed (parent folders made when missing). WriteError when it cannot be;
    `target` is then as it was."""
    _make_parent(target)
    with locked(target):
        fresh = _fill_beside(target, files)
        try:
            _swap(fresh, target)
        except OSError as exc:
            raise WriteError(f"cannot write {target}: {_reason(exc)}; {_as_it_was(target)}") from None
        finally:
            if fresh.exists():
                shutil.rmtree(fresh, ignore_errors=True)
        sync_folder(target.parent)


def _make_parent(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot make {target.parent}: {_reason(exc)}; nothing was changed") from None


def _fill_beside(target: Path, files: Mapping[str, bytes | str]) -> Path:
    """A new folder beside `target` (named as this process's), holding `files`, each flushed to disk."""
    fresh = temporary_name(target, "new")
    try:
        fresh.mkdir()
    except OSError as exc:
        raise WriteError(f"cannot write beside {target}: {_reason(exc)}; {_as_it_was(target)}") from None
    try:
        made = {fresh}
        for name, data in files.items():
            path = fresh / name
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            content = data.encode("utf-8") if isinstance(data, str) else data
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
            try:
                _write_all(descriptor, content)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        for folder in made:
            sync_folder(folder)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        raise WriteError(f"cannot write {target}: {_reason(exc)}; {_as_it_was(target)}") from None
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return fresh


def _swap(fresh: Path, target: Path) -> None:
    if not target.exists():
        fresh.rename(target)
        return
    if _exchange(fresh, target):  # one step: no moment without a site, whenever the build is killed
        shutil.rmtree(fresh, ignore_errors=True)  # now the old one; if killed, a stray the next write removes
        return
    old = temporary_name(target, "old")
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


def _exchange(one: Path, other: Path) -> bool:
    """Swap two paths at once (Linux's renameat2 with RENAME_EXCHANGE); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library without it (before glibc 2.28, musl)
        return False
    at_cwd, rename_exchange = -100, 2
    return bool(renameat2(at_cwd, os.fsencode(one), at_cwd, os.fsencode(other), rename_exchange) == 0)


def _empty(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _as_it_was(path: Path) -> str:
    return "it is as it was" if os.path.lexists(path) else "nothing was written"
