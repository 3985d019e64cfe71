"""The corpus: its format and data model, loading and checking it, and the curator's tools (import, new entries, citations, changes).

Its modules import one way (a contract of pyproject.toml): from the bottom,

- kinds, model, files: the names the format fixes, the dataclasses, which files make a corpus;
- format, documents: the entries-file format; reading a rules document;
- entries, games, checks, drafts: parsing an entries file; reading game.toml; the whole-corpus checks; an import's drafts;
- load, importing, citations, scaffold, changes, vocabulary: loading a corpus, and the curator's tools;
- review: what `rulebot check` runs.
"""
