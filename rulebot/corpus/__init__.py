"""The corpus: its format and data model, loading and checking it, and the curator's tools (import, new entries, citations, changes)."""
