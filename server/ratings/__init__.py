"""Ratings (issue 27): each account's rating per speed and its history, stored once per rated
game (`tables`). The arithmetic is chesscore.ratings'; the game's end passes it in
(server.games.rating), so these tables only read and write its numbers.
"""
