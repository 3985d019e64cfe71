"""The index's text fields: how each is analysed, how much a word found in it weighs, and BM25F's parameters.

The index is written with these (rulebot.index.schema), the command's search
scores with them (rulebot.search), and the site's search data carries them
(rulebot.site.search_data), so that all three weigh a word alike.
"""

FIELDS = (
    ("title", "english", False),
    ("aliases", "english", False),
    ("aliases_fr", "french", False),
    ("asked", "english", False),
    ("asked_fr", "french", False),
    ("body", "english", False),
    ("title_fr", "french", False),
    ("body_fr", "french", False),
    ("names", "names", False),
    ("section", "english", True),
)
"""(field, its analysis (rulebot.language.analysis.ANALYSES), searched for the words as typed only). Synonyms and
close spellings skip `section`, a weak hint: fewer clauses."""
ANALYSED_ALIKE = {field: tuple(other for other, its, _ in FIELDS if its == analysis) for field, analysis, _typed in FIELDS}
"""The fields analysed as each one is, itself among them: a term's document frequency is read in all of them
(rulebot.search.scoring)."""
FRENCH_FIELDS = tuple(field for field, analysis, _typed in FIELDS if analysis == "french")
"""The fields of the corpus's French texts."""
FIELD_BOOSTS = {
    "title": 4.0,
    "names": 3.0,
    "aliases": 2.5,
    "aliases_fr": 2.5,
    "asked": 1.5,
    "asked_fr": 1.5,
    "body": 1.0,
    "title_fr": 4.0,
    "body_fr": 1.0,
    "section": 0.3,
}
"""How much a word found in each field weighs (in the index's postings)."""
B = 0.75
"""BM25's length normalisation (Whoosh's default)."""
K1 = 1.2
"""BM25's term frequency saturation (Whoosh's default)."""
