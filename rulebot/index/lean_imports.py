"""Importing a library without the modules it loads at import and never uses.

A cold `rulebot ask` should cost little more than Python's own start, and
some libraries load much at import for features rulebot never calls (a
downloader, an event loop, a temporary-files fallback). While such a
library is imported, a stand-in takes the place of each of those modules
that is not loaded yet. A stand-in offers the names the library takes from
it and loads the real module the first time one of them, or any other of
its names, is used; it leaves `sys.modules` as soon as the import is done,
so any later import of those modules, by rulebot or anyone else, gets the
real one.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterable


class StandIn(types.ModuleType):
    """A module's placeholder that loads the real module when one of its names is used."""

    def __init__(self, name: str, names: tuple[str, ...], answers: dict | None = None) -> None:
        super().__init__(name)
        for attribute in names:
            setattr(self, attribute, self._forwarder(attribute))
        for attribute, value in (answers or {}).items():
            setattr(self, attribute, value)

    def _real(self) -> types.ModuleType:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)

    def _forwarder(self, attribute: str):
        def forward(*args, **kwargs):
            return getattr(self._real(), attribute)(*args, **kwargs)

        forward.__name__ = attribute
        return forward

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):
            # The import system probes a module for __path__ and the like:
            # that is no use of the module, and must not load it.
            raise AttributeError(attribute)
        return getattr(self._real(), attribute)


def import_lean(modules: Iterable[str], stand_ins: Iterable[StandIn]) -> None:
    """Import modules with stand-ins for those named (the ones not loaded yet)."""
    placed = {module.__name__: module for module in stand_ins if module.__name__ not in sys.modules}
    sys.modules.update(placed)
    try:
        for name in modules:
            importlib.import_module(name)
    finally:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
