"""The public JSON API (games/api/): tokens, every operation's answers and errors,
the schema kept in docs/openapi.json, the example client of docs/api.md, the
idempotency of commands, and that the API lists exactly the moves the engine
accepts and shows a seat nothing it may not see."""
