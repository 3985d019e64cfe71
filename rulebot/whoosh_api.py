"""The parts of Whoosh that rulebot uses, each imported only when first needed.

rulebot imports Whoosh through this module only. Answering a question needs
little of Whoosh: its analyzers (rulebot.analysis) and the readers of its
file formats (rulebot.index_reader). Those are imported with this module.
Building an index needs the rest (schema, storage, codec, writer, queries):
those names load on first use, so `rulebot ask` never pays for them.

Importing Whoosh-Reloaded also imports `urllib.request` (its `whoosh.compat`
names `urlretrieve` for a downloader rulebot never calls, and `queue` and
`html.escape` for Python 2 compatibility), `asyncio` (its
`cached_property` dependency asks whether a method is a coroutine) and
Whoosh's English morphology tables (`whoosh.query.terms` names `variations`
for a query type rulebot never builds): about 80 modules in all.
They are imported with stand-ins (rulebot.lean_imports).
"""

from __future__ import annotations

import inspect
import sys

from rulebot.lean_imports import StandIn, import_lean


def _stand_ins() -> list[StandIn]:
    return [
        StandIn("urllib.request", ("urlretrieve",)),
        # cached_property asks this on the first use of every cached property;
        # inspect's answer is asyncio's for anything but the generator-based
        # coroutines that Python 3.11 removed.
        StandIn("asyncio", (), {"iscoroutinefunction": inspect.iscoroutinefunction}),
        StandIn("whoosh.lang.morph_en", ("variations",)),
        # whoosh.compat names these for Python 2 compatibility.
        StandIn("queue", ()),
        StandIn("html", ("escape",)),
    ]


def _import_lean(*modules: str) -> None:
    import_lean(modules, _stand_ins())


_import_lean("whoosh.compat", "whoosh.analysis", "whoosh.columns", "whoosh.filedb.filetables")

from whoosh.analysis import (  # noqa: E402
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.columns import CompressedBytesColumn, PickleColumn  # noqa: E402
from whoosh.filedb.filetables import OrderedHashReader  # noqa: E402
from whoosh.filedb.structfile import BufferFile, StructFile  # noqa: E402
from whoosh.support.charset import accent_map  # noqa: E402
from whoosh.util.numeric import byte_to_length, length_to_byte  # noqa: E402

_ON_FIRST_USE = {
    # name: (module, attribute; None for the module itself)
    "ID": ("whoosh.fields", "ID"),
    "STORED": ("whoosh.fields", "STORED"),
    "TEXT": ("whoosh.fields", "TEXT"),
    "Schema": ("whoosh.fields", "Schema"),
    "FileStorage": ("whoosh.filedb.filestore", "FileStorage"),
    "RamStorage": ("whoosh.filedb.filestore", "RamStorage"),
    "index": ("whoosh.index", None),
    "query": ("whoosh.query", None),
    "default_codec": ("whoosh.codec", "default_codec"),
    "NO_MERGE": ("whoosh.writing", "NO_MERGE"),
}
"""What building an index (and testing against Whoosh) needs: loaded when first named."""


def __getattr__(name: str):
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _ON_FIRST_USE[name]
    _import_lean("whoosh.query", module_name)
    module = sys.modules[module_name]
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


__all__ = [
    "Analyzer",
    "BufferFile",
    "CharsetFilter",
    "CompressedBytesColumn",
    "LowercaseFilter",
    "OrderedHashReader",
    "PickleColumn",
    "RegexTokenizer",
    "StemFilter",
    "StopFilter",
    "StructFile",
    "accent_map",
    "byte_to_length",
    "length_to_byte",
    *_ON_FIRST_USE,
]
