"""Loading of the perft suite `tests/data/standard.epd`: each line a FEN then `;Dn count`."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def load_epd(path: Path = DATA / "standard.epd") -> list[tuple[str, dict[int, int]]]:
    """(FEN, {depth: leaf count}) for every line of an EPD perft file."""
    positions = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        counts = {}
        for field in fields:
            depth, count = field.split()
            counts[int(depth.removeprefix("D"))] = int(count)
        positions.append((fen, counts))
    return positions


def perft_cases(min_depth: int, max_depth: int, max_nodes: int) -> list[tuple[str, int, int]]:
    """(FEN, depth, count) rows of the suite within a depth range and a node budget."""
    return [
        (fen, depth, count)
        for fen, counts in load_epd()
        for depth, count in sorted(counts.items())
        if min_depth <= depth <= max_depth and count <= max_nodes
    ]
