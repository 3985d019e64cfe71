"""Words to terms: how texts and questions are folded, stemmed and read for counts, alike for the index, the search and the site."""
