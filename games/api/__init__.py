"""The public JSON API (docs/api.md): a seat's view, its legal moves, its commands,
its talk and its log, for programs that play a seat with the seat player's token;
and a signed-in person's games. The same commands and checks as the pages."""
