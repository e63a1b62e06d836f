"""What a piece is worth to the threat analysis, in pawns: the one table that the hanging pieces
(chesscore.analysis.threats), the pins worth naming (chesscore.analysis.xray), the order
attackers are spoken in (chesscore.analysis.describe) and the careful beginner level read.

The static exchange evaluation counts in centipawns with its own table (`SEE_VALUES` of
chesscore.analysis.see) and the engine's evaluation has its own tuned values
(chesscore.engine.evaluate): those are other measures, not copies of this one.
"""

from __future__ import annotations

# Indexed by piece type (PAWN=1 .. KING=6): pawn 1, knight 3, bishop 3, rook 5, queen 9; a king
# is never "hanging", so its value only has to be above every other piece's.
PIECE_VALUES = (0, 1, 3, 3, 5, 9, 100)
