"""A position's threat facts in the wire form, encoded once and cached: what the game page,
the analysis board and the trainer all show (the threat map, x-rays, pins, insight, safety).

`wire` names chesscore's 0x88 squares, colours and pieces for the browser (the only place they
get names); `cache` encodes a position's facts once and shares the text with every receiver.
Below every feature that shows a board, above the edge.
"""
