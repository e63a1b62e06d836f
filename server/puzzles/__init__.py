"""Puzzles on the server (issue 35): the set in the database, the API, the page, the import.

`tables` holds the puzzles, their themes, results and accounts' puzzle ratings; `service`
loads the shipped set at start, chooses puzzles and rates results; `lesson` is what a hint and
a failure show (the threat overlay and the solution in a sentence); `requests` parses what a
page sends, `wire` writes what it gets, `http` is the page `/puzzles` and `/api/puzzles`;
`importer` is `python -m server.puzzles import FILE` (lichess's CSV); `own` makes a player's
own puzzles of the mistakes a review found. docs/puzzles.md has the whole of it.
"""
