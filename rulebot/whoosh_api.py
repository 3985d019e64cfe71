"""The parts of Whoosh that rulebot uses, imported without what it never needs.

rulebot imports Whoosh through this module only. Importing Whoosh-Reloaded
also imports `urllib.request` (its `whoosh.compat` names `urlretrieve` for a
downloader rulebot never calls), `asyncio` (its `cached_property` dependency
asks whether a method is a coroutine) and Whoosh's English morphology tables
(`whoosh.query.terms` names `variations` for a query type rulebot never
builds). Together they are about 80 modules and most of the start-up of
`rulebot ask`, a command that should answer at once.

While Whoosh is first imported, a stand-in takes the place of each of those
modules that is not loaded yet. A stand-in offers the few names Whoosh takes
from it and loads the real module the first time one of them is used; it
leaves `sys.modules` as soon as Whoosh is in, so any later import of those
modules, by rulebot or anyone else, gets the real one.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types


class _StandIn(types.ModuleType):
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


def _stand_ins() -> dict[str, _StandIn]:
    return {
        "urllib.request": _StandIn("urllib.request", ("urlretrieve",)),
        # cached_property asks this on the first use of every cached property;
        # inspect's answer is asyncio's for anything but the generator-based
        # coroutines that Python 3.11 removed.
        "asyncio": _StandIn("asyncio", (), {"iscoroutinefunction": inspect.iscoroutinefunction}),
        "whoosh.lang.morph_en": _StandIn("whoosh.lang.morph_en", ("variations",)),
    }


def _import_lean() -> None:
    placed = {name: module for name, module in _stand_ins().items() if name not in sys.modules}
    sys.modules.update(placed)
    try:
        importlib.import_module("whoosh.compat")
        importlib.import_module("cached_property")
        importlib.import_module("whoosh.query.terms")
    finally:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


_import_lean()

from whoosh import index, query  # noqa: E402
from whoosh.analysis import (  # noqa: E402
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.codec.whoosh3 import LENGTHS_COLUMN  # noqa: E402
from whoosh.codec.whoosh3 import _lenfield as length_field  # noqa: E402
from whoosh.fields import ID, STORED, TEXT, Schema  # noqa: E402
from whoosh.filedb.filestore import FileStorage, RamStorage  # noqa: E402
from whoosh.filedb.structfile import BufferFile  # noqa: E402
from whoosh.reading import TermNotFound  # noqa: E402
from whoosh.searching import Searcher  # noqa: E402
from whoosh.support.charset import accent_map  # noqa: E402
from whoosh.util.numeric import byte_to_length  # noqa: E402

__all__ = [
    "ID",
    "LENGTHS_COLUMN",
    "TermNotFound",
    "byte_to_length",
    "length_field",
    "Analyzer",
    "BufferFile",
    "STORED",
    "TEXT",
    "CharsetFilter",
    "FileStorage",
    "LowercaseFilter",
    "RamStorage",
    "RegexTokenizer",
    "Schema",
    "Searcher",
    "StemFilter",
    "StopFilter",
    "accent_map",
    "index",
    "query",
]
