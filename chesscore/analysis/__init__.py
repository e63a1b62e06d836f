"""The threat analysis: which pieces attack and defend each square (threats), the lines through
pieces (x-rays and pins), static exchange evaluation (see), and the same facts in words for a
square, a move or a game (insight, describe, annotate); and, for the game review, the class
and accuracy of moves from engine evaluations (judgement) and why a bad move was bad (explain).

It reads positions through chesscore.rules and may import only that layer (and the shared
`chesscore.errors`); never chesscore.engine (tests/test_layers.py checks it).
"""
