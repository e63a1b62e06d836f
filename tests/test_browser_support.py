"""Helpers shared by the browser suites (tests/test_browser_*.py); this file holds no tests.

They drive the real page the way a person does: squares are clicked, tapped or dragged at
their place on the screen (worked out from the board's box and orientation), and what the
page shows is read back from the DOM that chessground rendered. Games are created through
the HTTP API, and a browser takes its seat through the private or invitation link, exactly as
a player who was sent the link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests

from chesscore import Board, square_name
from tests.support.live_server import LiveServer

FILES = "abcdefgh"
WAIT_MS = 60_000


def start_server(folder: Path, env: dict[str, str] | None = None) -> LiveServer:
    """A server for a whole test module (each test makes its own game on it)."""
    return LiveServer(instance_path=folder / "instance", env=env or {}).start()


def create_game(url: str, **body: Any) -> dict[str, Any]:
    """POST /api/games with `body`; the reply holds the game id, seat and links."""
    reply = requests.post(f"{url}/api/games", json=body, timeout=10)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def open_game(context: Any, url: str) -> Any:
    """A new page of `context` at `url` (a game link), once it has joined the game."""
    page = context.new_page()
    page.goto(url)
    wait_connected(page)
    return page


def wait_connected(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#connection')?.dataset.state === 'connected'"
        " && document.querySelector('main.game')?.dataset.ply !== undefined",
        timeout=WAIT_MS,
    )


def wait_for_ply(page: Any, ply: int) -> None:
    """Wait until the page has received the state at `ply`."""
    page.wait_for_function(
        f"document.querySelector('main.game').dataset.ply === '{ply}'", timeout=WAIT_MS
    )


def square_center(page: Any, square: str) -> tuple[float, float]:
    """Where `square` is on the screen, from the board's box and its orientation."""
    box = page.locator("cg-board").bounding_box()
    white_down = "orientation-white" in (
        page.locator(".cg-wrap#board").get_attribute("class") or ""
    )
    file, rank = FILES.index(square[0]), int(square[1]) - 1
    column, row = (file, 7 - rank) if white_down else (7 - file, rank)
    size = box["width"] / 8
    return box["x"] + (column + 0.5) * size, box["y"] + (row + 0.5) * size


def click_square(page: Any, square: str) -> None:
    page.mouse.click(*square_center(page, square))


def play_by_clicks(page: Any, uci: str) -> None:
    """Click the from-square, then the to-square; pick the promotion piece if there is one."""
    click_square(page, uci[:2])
    click_square(page, uci[2:4])
    if len(uci) == 5:
        page.locator(f"#promotion button[data-piece='{uci[4]}']").click()


def drag_piece(page: Any, origin: str, target: str) -> None:
    """Press on `origin`, move in small steps to `target`, release: a real drag."""
    page.mouse.move(*square_center(page, origin))
    page.mouse.down()
    page.mouse.move(*square_center(page, target), steps=12)
    page.mouse.up()


def wait_for_board_at_rest(page: Any) -> None:
    """Let chessground draw (it redraws on the next animation frame) and end its animations."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_function(
        "document.querySelectorAll('cg-board piece.anim, cg-board piece.fading').length === 0",
        timeout=WAIT_MS,
    )


def board_pieces(page: Any) -> dict[str, str]:
    """The pieces chessground drew: square -> 'white knight' (from each element's own key)."""
    wait_for_board_at_rest(page)
    pieces = page.evaluate(
        """() => [...document.querySelectorAll('cg-board piece:not(.ghost)')]
            .filter((el) => !el.classList.contains('fading'))
            .map((el) => [el.cgKey, el.className.replace(/\\b(anim|dragging)\\b/g, '').trim()])"""
    )
    return {square: " ".join(name.split()) for square, name in pieces}


def highlighted_squares(page: Any, kind: str) -> set[str]:
    """The squares chessground marks with class `kind` ('move-dest', 'last-move', 'check')."""
    wait_for_board_at_rest(page)
    keys = page.locator(f"cg-board square.{kind}").evaluate_all(
        "squares => squares.filter(s => s.style.display !== 'none').map(s => s.cgKey)"
    )
    return set(keys)


def pieces_of_fen(fen: str) -> dict[str, str]:
    """What `board_pieces` should read for `fen` (the FEN's placement, read by chesscore)."""
    names = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
    pieces = {}
    for sq, piece in Board.from_fen(fen).pieces().items():
        symbol = piece.symbol()
        color = "white" if symbol.isupper() else "black"
        pieces[square_name(sq)] = f"{color} {names[symbol.lower()]}"
    return pieces


def move_list(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#moves button.move").all_inner_texts()]


def server_state(url: str, game: str, seat: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {seat}"} if seat else {}
    reply = requests.get(f"{url}/api/games/{game}", headers=headers, timeout=10)
    assert reply.status_code == 200, reply.text
    return dict(reply.json()["state"])


# The layers laid over a board (templates/board_frame.html), checked against chessground's
# rendered board: a layer sized to the frame instead is off by up to a few pixels on a phone.
MISPLACED_LAYERS = """() => {
    const board = document.querySelector('#board cg-board').getBoundingClientRect();
    const size = board.width / 8;
    // A cell naming its square is placed as the board is seen (Black's board turned round);
    // a cell without one is placed by its index, in the reading order of the board as seen.
    const black = document.querySelector('#board cg-board').closest('.cg-wrap')
        .classList.contains('orientation-black');
    const files = 'abcdefgh';
    const worst = [];
    const off = (box, left, top, width, height) => Math.max(
        Math.abs(box.left - left), Math.abs(box.top - top),
        Math.abs(box.width - width), Math.abs(box.height - height));
    for (const id of ['#threat-grid', '#threat-heat', '#square-focus']) {
        const layer = document.querySelector(id);
        if (layer === null || layer.getClientRects().length === 0) continue;  // not shown
        const box = layer.getBoundingClientRect();
        worst.push([id, -1, off(box, board.left, board.top, board.width, board.height)]);
        [...layer.children].forEach((cell, index) => {
            const square = cell.dataset.square ?? null;
            let column = square ? files.indexOf(square[0]) : index % 8;
            let row = square ? 8 - Number(square[1]) : Math.floor(index / 8);
            if (square && black) [column, row] = [7 - column, 7 - row];
            const at = cell.getBoundingClientRect();
            worst.push([id, index,
                        off(at, board.left + column * size, board.top + row * size, size, size)]);
        });
    }
    return worst.filter(([, , distance]) => distance > 1);
}"""


def misplaced_layers(page: Any) -> list[list[Any]]:
    """The overlay layers and cells of the page's board more than 1 px off the board's own
    squares ([layer, cell index or -1 for the layer, pixels off]); [] when all fit."""
    return list(page.evaluate(MISPLACED_LAYERS))


def collect_errors(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions from now on, in order (a policy
    violation shows as one)."""
    errors: list[str] = []
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
