"""The computer player: evaluation, capture generation and the alpha-beta search, the levels
the server offers, the players built on them and the UCI front end.

It plays on chesscore.rules and may import chesscore.analysis where it needs it (the careful
level judges hanging pieces by the analysis's piece values); nothing below imports the engine.
"""
