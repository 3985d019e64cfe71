"""The search index: writing it with Whoosh, reading it without, and its life in the user cache."""
