"""From a player's question to ranked answers: the question read, the entries scored and ranked, the confidence."""
