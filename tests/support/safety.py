"""The safety labels of a position as the server sends them (square names), for assertions."""

from __future__ import annotations

import json
from typing import Any

from chesscore import Board
from chesscore.analysis.see import classify_destinations
from server.threats.wire import safety_text


def safety_by_name(board: Board) -> dict[str, Any]:
    """Origin name -> target name -> "safe" | "contested" | "losing", for every legal move."""
    return json.loads(safety_text(classify_destinations(board)).text)  # type: ignore[no-any-return]
