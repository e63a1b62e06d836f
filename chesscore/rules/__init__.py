"""The rules of chess: squares and moves, the board with make/unmake, legal move generation,
the formats (FEN, SAN, UCI, PGN), the outcome of a game, Zobrist keys and perft.

The lowest layer of chesscore: it imports nothing of ours above it (neither chesscore.analysis
nor chesscore.engine, nor the server), only the shared `chesscore.errors`. Inside it the
imports go one way, from the tables up to the Board (tests/test_layers.py checks both).
"""
