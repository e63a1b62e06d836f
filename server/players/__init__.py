"""Players: a player's page `/@/<name>`, their ratings and game history, and the export.

`http` holds the pages and the JSON of profiles and game lists, and the end listener that writes
a finished game into its players' histories (`entries`); `query` parses a list's parameters;
`export` streams a player's games as PGN; `ratings_http` answers a player's ratings.
"""
