"""The parts of Whoosh that rulebot uses, each imported only when first needed.

rulebot imports Whoosh through this module only, and only to build an index
(schema, analyzers, storage, codec, writer) or to test against Whoosh's own
behaviour: answering a question reads the index files without Whoosh
(rulebot.index.reader) and analyses questions itself (rulebot.language.analysis), so
`rulebot ask` loads none of Whoosh.

Importing Whoosh-Reloaded also imports `urllib.request` (its `whoosh.compat`
names `urlretrieve` for a downloader rulebot never calls, and `queue` and
`html.escape` for Python 2 compatibility), `asyncio` (its
`cached_property` dependency asks whether a method is a coroutine) and
Whoosh's English morphology tables (`whoosh.query.terms` names `variations`
for a query type rulebot never builds): about 80 modules in all.
They are imported with stand-ins (rulebot.index.lean_imports).
"""

from __future__ import annotations

import sys

from rulebot.index.lean_imports import StandIn, import_lean


def _stand_ins() -> list[StandIn]:
    import inspect

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
    "SegmentReader": ("whoosh.reading", "SegmentReader"),
    "Token": ("whoosh.analysis", "Token"),
    "Tokenizer": ("whoosh.analysis", "Tokenizer"),
    "byte_to_length": ("whoosh.util.numeric", "byte_to_length"),
    "length_to_byte": ("whoosh.util.numeric", "length_to_byte"),
}
"""What building an index (and testing against Whoosh) needs, by name: loaded when first named."""


def __getattr__(name: str):
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _ON_FIRST_USE[name]
    _import_lean("whoosh.query", module_name)
    module = sys.modules[module_name]
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


__all__ = list(_ON_FIRST_USE)
