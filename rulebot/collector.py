"""Python's cycle collector, paused for bulk work."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Pause Python's cycle collector for a block (or, as a decorator, a function).

    Loading a corpus and writing its index make millions of objects that live
    to the end and form no cycles: the collector would walk them all again at
    each full collection as they pile up, to free nothing. At 100,000 entries
    that was a tenth of the loading time and nearly a second of each build
    process; nor does it then write to the corpus's pages in the build's
    forked helper, which would copy them. The few cycles made meanwhile are
    collected after.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
