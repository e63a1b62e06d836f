"""Ratings on the server's side: how a player's Glicko-2 ratings (chesscore.ratings) are shown.

Below the features that show them (accounts, games, the lobby, players' pages); it knows no
game and no account, only ratings by speed.
"""
