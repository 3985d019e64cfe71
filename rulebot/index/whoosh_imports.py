"""Whoosh, imported for a build without two modules it loads and rulebot never uses.

Importing Whoosh-Reloaded also imports urllib.request (whoosh.compat takes
urlretrieve from it, for a downloader rulebot never calls) and asyncio (the
cached-property package, which whoosh.reading uses, asks it whether a method
is a coroutine): a third of importing Whoosh, about 30 ms of every build and
of every update after an edit. rulebot.index.build imports this module
before anything of Whoosh: while the Whoosh modules rulebot uses are imported
here, a stand-in takes the place of each of the two that is not loaded yet,
with the names Whoosh takes from it; using any name imports the real module.
The stand-ins leave sys.modules as soon as Whoosh is imported, so any later
import of these modules, by rulebot or anyone else, gets the real one.
tests/test_index_build.py checks this with the installed Whoosh-Reloaded
(pinned: its newest release) and cached-property.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


class _StandIn(types.ModuleType):
    """A module's placeholder: the names given, and the real module for any other."""

    def __init__(self, name: str, **names: object) -> None:
        super().__init__(name)
        self.__dict__.update(names)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            # The import system probes a module for __path__ and the like:
            # that is no use of the module, and must not load it.
            raise AttributeError(name)
        return getattr(_real(self.__name__), name)


def _real(name: str) -> types.ModuleType:
    if isinstance(sys.modules.get(name), _StandIn):
        del sys.modules[name]
    return importlib.import_module(name)


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    return _real("urllib.request").urlretrieve(*args, **kwargs)


def _iscoroutinefunction(function: object) -> bool:
    # asyncio's answer, for anything but the generator-based coroutines Python 3.11 removed
    import inspect

    return inspect.iscoroutinefunction(function)


_placed = {
    module.__name__: module
    for module in (_StandIn("urllib.request", urlretrieve=_urlretrieve), _StandIn("asyncio", iscoroutinefunction=_iscoroutinefunction))
    if module.__name__ not in sys.modules
}
sys.modules.update(_placed)
try:
    # The Whoosh modules a build and an update use, and what they import.
    import whoosh.analysis
    import whoosh.codec.whoosh3
    import whoosh.fields
    import whoosh.filedb.filestore
    import whoosh.index
    import whoosh.reading
    import whoosh.writing  # noqa: F401
finally:
    for _name, _module in _placed.items():
        if sys.modules.get(_name) is _module:
            del sys.modules[_name]
