"""Quick phrases in a game (issue 36): nine preset phrases, sent by key, the players' chat and
the spectators' apart, as lichess keeps them. Nothing typed, so nothing to moderate."""
