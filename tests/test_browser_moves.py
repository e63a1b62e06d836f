"""Special moves on the board, and moves the server refuses.

Each case starts a game from a FEN through the HTTP API, opens it in Chromium as white, makes
the move the way a person does (clicks, the promotion picker, dragging the king) and checks the
board chessground drew and the SAN in the move list against chesscore's answer. A typed move
and a move the server refuses are checked too: the refused move goes back on the board.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from chesscore import Board
from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import (
    board_pieces,
    click_square,
    create_game,
    drag_piece,
    highlighted_squares,
    move_list,
    open_game,
    pieces_of_fen,
    play_by_clicks,
    server_state,
    wait_for_ply,
)

pytestmark = pytest.mark.browser


server = module_server("moves")


# (name, start FEN, how the move is made, UCI, SAN in the move list)
SPECIAL_MOVES = [
    ("promotion_to_knight", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "clicks", "a7a8n", "a8=N"),
    (
        "castling_by_drag",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "drag",
        "e1g1",
        "O-O",
    ),
    ("en_passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "clicks", "e5d6", "exd6"),
]


def fen_after(fen: str, uci: str) -> str:
    board = Board.from_fen(fen)
    board.push_uci(uci)
    return board.fen()


@pytest.mark.parametrize(
    ("fen", "gesture", "uci", "san"),
    [case[1:] for case in SPECIAL_MOVES],
    ids=[case[0] for case in SPECIAL_MOVES],
)
def test_special_move_on_the_board(
    browser: Any,
    server: LiveServer,
    request: pytest.FixtureRequest,
    fen: str,
    gesture: str,
    uci: str,
    san: str,
) -> None:
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = open_game(context, server.url + created["links"]["private"])
        assert board_pieces(page) == pieces_of_fen(fen)
        if gesture == "drag":
            drag_piece(page, uci[:2], uci[2:4])
        else:
            play_by_clicks(page, uci)
        wait_for_ply(page, 1)
        assert board_pieces(page) == pieces_of_fen(fen_after(fen, uci))
        assert move_list(page) == [san]
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_the_board_offers_only_the_servers_destinations(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """Picking up each piece shows exactly the targets the server listed; a click on any other
    square sends nothing."""
    fen = SPECIAL_MOVES[1][1]  # castling both ways, pawns on their first moves
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = open_game(context, server.url + created["links"]["private"])
        dests = server_state(server.url, created["game"], created["seat"])["dests"]
        for origin in ("e1", "a1", "e2", "h2"):
            click_square(page, origin)
            assert highlighted_squares(page, "move-dest") == set(dests.get(origin, []))
            click_square(page, origin)  # put it down again
        click_square(page, "e2")
        click_square(page, "e5")  # not listed: the piece stays, no move is sent
        assert board_pieces(page) == pieces_of_fen(fen)
        assert server_state(server.url, created["game"])["ply"] == 0
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_promotion_picker_offers_all_four_pieces(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(server.url, opponent="friend", color="white", fen=SPECIAL_MOVES[0][1])
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = open_game(context, server.url + created["links"]["private"])
        click_square(page, "a7")
        click_square(page, "a8")
        picker = page.get_by_role("dialog", name="Choose the promotion piece")
        for piece in ("queen", "rook", "bishop", "knight"):
            expect(picker.get_by_role("button", name=f"Promote to {piece}")).to_be_visible()
        page.screenshot(path=screenshot_path(request))
        picker.get_by_role("button", name="Cancel").click()
        assert board_pieces(page) == pieces_of_fen(SPECIAL_MOVES[0][1])
        click_square(page, "a7")
        click_square(page, "a8")
        expect(picker).to_be_visible()
        page.keyboard.press("Escape")
        expect(picker).to_be_hidden()
        assert board_pieces(page) == pieces_of_fen(SPECIAL_MOVES[0][1])
        assert page.locator("main.game").get_attribute("data-ply") == "0"
    finally:
        context.close()


# Typed moves, in sequences on one page: (typed text, the move list after it, a part of the
# error shown). The server says why a move is refused in a player's words, naming the move as
# typed and never the FEN.
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTES = SPECIAL_MOVES[0][1]
TYPED_MOVES = {
    "refused_then_san": (
        None,
        [
            ("Zz9", [], "'Zz9' is neither SAN (like Nf3) nor UCI (like g1f3)"),
            ("e2e5", [], "e2e5 is not legal here: no pawn of yours can go to e5"),
            ("Ke2", [], "Ke2 is not legal here: your own pawn stands on e2"),
            ("O-O", [], "O-O is not legal here: castling on the king's side is not possible"),
            ("Nf3", ["Nf3"], ""),
        ],
    ),
    "uci": (None, [("g1f3", ["Nf3"], "")]),
    "ambiguous_then_disambiguated": (
        TWO_KNIGHTS,
        [("Nb3", [], "Nb3 is ambiguous here: write Nab3 or Ncb3"), ("Ncb3", ["Ncb3"], "")],
    ),
    "castling": (CASTLES, [("O-O-O", ["O-O-O"], "")]),
    "promotion": (PROMOTES, [("a8=N", ["a8=N"], "")]),
}


@pytest.mark.parametrize("name", TYPED_MOVES)
def test_typed_moves(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, name: str
) -> None:
    fen, steps = TYPED_MOVES[name]
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    context = browser.new_context()
    try:
        page = open_game(context, server.url + created["links"]["private"])
        for typed, moves, error in steps:
            page.get_by_label("Type a move").fill(typed)
            page.get_by_role("button", name="Play", exact=True).click()
            if moves:
                wait_for_ply(page, len(moves))
            else:
                page.wait_for_function(
                    f"document.querySelector('#move-error').textContent.includes({typed!r})"
                )
            assert move_list(page) == moves
            assert error in page.locator("#move-error").inner_text()
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_an_unanswered_move_goes_back_on_the_board(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The page's move never reaches the server (dropped on the wire): after the page's time
    limit the piece goes back and the page says the server did not answer."""
    created = create_game(server.url, opponent="friend", color="white")
    context = browser.new_context()
    page = context.new_page()

    def drop_moves(socket: Any) -> None:
        server_side = socket.connect_to_server()
        socket.on_message(
            lambda message: None if '"move"' in str(message) else server_side.send(message)
        )

    try:
        page.route_web_socket("**/socket.io/**", drop_moves)
        page.goto(server.url + created["links"]["private"])
        page.wait_for_function(
            "document.querySelector('#connection').dataset.state === 'connected'"
        )
        start = board_pieces(page)
        play_by_clicks(page, "g1f3")
        page.wait_for_function("document.querySelector('#move-error').textContent !== ''")
        assert page.locator("#move-error").inner_text() == (
            "The server did not answer the move in time; the board shows the last position"
            " it confirmed."
        )
        assert board_pieces(page) == start
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_a_refused_move_goes_back_on_the_board(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The page's move is changed on the wire to one the server refuses: the piece goes back."""
    created = create_game(server.url, opponent="friend", color="white")
    context = browser.new_context()
    page = context.new_page()

    def tamper(socket: Any) -> None:
        server = socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            if isinstance(message, str) and '"move"' in message:
                message = message.replace('"e2e4"', '"e2e5"')
            server.send(message)

        socket.on_message(forward)

    try:
        page.route_web_socket("**/socket.io/**", tamper)
        page.goto(server.url + created["links"]["private"])
        page.wait_for_function(
            "document.querySelector('#connection').dataset.state === 'connected'"
        )
        start = board_pieces(page)
        play_by_clicks(page, "e2e4")
        page.wait_for_function("document.querySelector('#move-error').textContent !== ''")
        assert "e2e5 is not legal here" in page.locator("#move-error").inner_text()
        assert board_pieces(page) == start
        assert page.locator("main.game").get_attribute("data-ply") == "0"
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
