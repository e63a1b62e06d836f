"""The lobby: where strangers find a game (open challenges, quick pairing), display names, and
the games in play to watch. Its service keeps seeks in the store, so every server process
sharing it sees the same ones, and creates games through the game service."""
