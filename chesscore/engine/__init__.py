"""The computer player: evaluation, capture generation and the alpha-beta search, the levels
the server offers, the players built on them and the UCI front end.

It plays on chesscore.rules and may import chesscore.analysis where it needs it (the levels
read piece values and hanging pieces from it); nothing below imports the engine.
"""
