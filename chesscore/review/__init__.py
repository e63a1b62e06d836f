"""Game review (issue 18): the engine's evaluation of every position of a game
(`evaluate`), each ply judged and explained from them (`judge`), and the annotated PGN
(`pgn`). Pure: the engine pool and the storage live in the server."""
