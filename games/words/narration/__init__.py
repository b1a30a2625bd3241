"""The game log's lines, cut by concern; ``games.words.narrate`` puts them together."""
