"""Accounts over HTTP and Socket.IO against a real server: sign-up, sign-in, sessions and their
cookie, password change and recovery, deletion, claiming earlier games, every refusal, and
the seats a signed-in player takes.

The server trusts one proxy, so each test speaks from an address of its own (X-Forwarded-For)
and the per-address limits of one test never meet another's. Failed sign-ins are free three
times per account and six times per address, then wait ten minutes (the tests never wait).
"""

from __future__ import annotations

import itertools
import secrets
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import requests

from server.accounts import codes, passwords
from server.accounts.usernames import legacy_name_key, name_key
from tests.support.game_client import WAIT_SECONDS, GameClient, invite_token
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.support.stored import sqlite_tables

pytestmark = pytest.mark.server

server = module_server(
    "accounts",
    {
        "CHESS_TRUSTED_PROXIES": "1",
        "CHESS_SIGNIN_FREE_ACCOUNT": "3",
        "CHESS_SIGNIN_FREE_ADDRESS": "6",
        "CHESS_SIGNIN_DELAY": "600",
        "CHESS_SIGNIN_MAX_DELAY": "3600",
        "CHESS_SIGNUP_BURST": "1000000",
    },
)

PASSWORD = "correct horse battery"
_addresses = itertools.count(1)


class Visitor:
    """A browser's worth of HTTP: its own cookies and its own address."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = requests.Session()
        self.http.headers["X-Forwarded-For"] = (
            f"10.1.{next(_addresses) % 250}.{secrets.randbelow(250)}"
        )

    def post(self, path: str, body: Any = None, **headers: str) -> requests.Response:
        return self.http.post(self.url + path, json=body, headers=headers, timeout=WAIT_SECONDS)

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.url + path, timeout=WAIT_SECONDS)

    def signup(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        response = self.post("/api/account/signup", {"name": name, "password": password})
        assert response.status_code == 201, response.text
        return dict(response.json())

    def login(self, name: str, password: str = PASSWORD) -> requests.Response:
        return self.post("/api/account/login", {"name": name, "password": password})

    def account(self) -> dict[str, Any]:
        return dict(self.get("/api/account").json())

    @property
    def session(self) -> str | None:
        return self.http.cookies.get("session")


def new_name() -> str:
    return f"p{secrets.token_hex(6)}"


def set_cookie(response: requests.Response) -> str:
    return str(response.headers["Set-Cookie"])


def test_sign_up_sets_a_session_cookie_and_gives_recovery_codes_once(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    name = new_name()
    response = visitor.post("/api/account/signup", {"name": name, "password": PASSWORD})
    body = response.json()
    assert response.status_code == 201, body
    assert body["account"]["name"] == name
    new = {"rating": 1500, "deviation": 500, "provisional": True, "games": 0}  # docs/ratings.md
    assert body["account"]["ratings"]["blitz"] == new
    codes = body["recovery_codes"]
    assert len(codes) == 8 and len(set(codes)) == 8
    cookie = set_cookie(response)
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # the site is not https here
    assert visitor.account()["account"]["name"] == name
    assert "recovery_codes" not in visitor.login(name).json()  # shown at sign-up only


def test_a_session_rotates_at_sign_in_and_ends_at_sign_out(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    name = new_name()
    visitor.signup(name)
    first = visitor.session
    assert visitor.login(name.upper()).status_code == 200  # any case
    second = visitor.session
    assert first and second and first != second
    stale = Visitor(server.url)
    stale.http.cookies.set("session", first)
    refused(stale.get("/api/account"), 401, "not_signed_in")  # the old id ended
    assert visitor.post("/api/account/logout").json() == {"ok": True}
    refused(visitor.get("/api/account"), 401, "not_signed_in")
    kept = Visitor(server.url)
    kept.http.cookies.set("session", second)
    refused(kept.get("/api/account"), 401, "not_signed_in")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("bad name", "3 to 20"),
        ("<b>x</b>", "3 to 20"),
        ("\u0410lice", "3 to 20"),  # a Cyrillic A
    ],
)
def test_bad_names_are_refused(server: LiveServer, name: str, words: str) -> None:
    response = Visitor(server.url).post("/api/account/signup", {"name": name, "password": PASSWORD})
    refused(response, 400, "bad_name", words)


@pytest.mark.parametrize(
    "name",
    [
        "Anonymous-1234", "anonym0us-l234", "deleted-player", "admin", "Adm1n", "-admin-",
        "Moderator", "mod", "system", "r00t", "support", "staff", "Chess", "lichess",
        "stockfish", "computer", "guest", "anonymous",
    ],
)  # fmt: skip
def test_reserved_names_are_refused(server: LiveServer, name: str) -> None:
    response = Visitor(server.url).post("/api/account/signup", {"name": name, "password": PASSWORD})
    refused(response, 400, "reserved_name", "reserved")


def test_a_name_taken_by_case_or_look_alike_is_refused(server: LiveServer) -> None:
    name = f"Al1ce{secrets.token_hex(3)}"
    Visitor(server.url).signup(name)
    look_alikes = (name.replace("1", "l"), name.replace("1", "L"), name.replace("l", "I"))
    for other in (name.upper(), name.lower(), *look_alikes):
        response = Visitor(server.url).post(
            "/api/account/signup", {"name": other, "password": PASSWORD}
        )
        refused(response, 409, "name_taken", other)


def test_names_that_differ_by_dashes_or_digits_drawn_as_letters_are_taken(
    server: LiveServer,
) -> None:
    """Beside "Mag0367": a dash at either end, a 4 for its a, an 8 for a b (issue 33, 8)."""
    tail = secrets.token_hex(2).replace("4", "x").replace("8", "y")
    name = f"Mag0367b{tail}"
    Visitor(server.url).signup(name)
    look_alikes = (f"{name}-", f"-{name}", f"_{name}_", name.replace("a", "4", 1),
                   name.replace("b", "8", 1), name.replace("0367", "o3-67"))  # fmt: skip
    for other in look_alikes:
        response = Visitor(server.url).post(
            "/api/account/signup", {"name": other, "password": PASSWORD}
        )
        refused(response, 409, "name_taken", other)
    assert Visitor(server.url).login(name.replace("a", "4", 1)).status_code == 200


@pytest.mark.parametrize(
    ("password", "words"),
    [
        ("short1!", "shorter than 8"),
        ("x" * 129, "longer than 128"),
        ("password1", "commonly used"),
        ("Iloveyou2", "commonly used"),
        (12345678, "must be a string"),
        (None, "must be a string"),
    ],
)
def test_weak_passwords_are_refused(server: LiveServer, password: object, words: str) -> None:
    name = new_name()
    visitor = Visitor(server.url)
    response = visitor.post("/api/account/signup", {"name": name, "password": password})
    refused(response, 400, "weak_password", words)
    visitor.signup(name)  # nothing was made: the name is still free


def test_the_name_as_password_is_refused(server: LiveServer) -> None:
    name = new_name()
    response = Visitor(server.url).post("/api/account/signup", {"name": name, "password": name})
    refused(response, 400, "weak_password", "the account's name")


def test_an_unknown_name_is_answered_as_a_wrong_password(server: LiveServer) -> None:
    name = new_name()
    Visitor(server.url).signup(name)
    wrong = Visitor(server.url).login(name, "not the password")
    unknown = Visitor(server.url).login(new_name(), "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["code"] == "bad_credentials"
    assert "Set-Cookie" not in wrong.headers and "Set-Cookie" not in unknown.headers


def test_malformed_bodies_are_refused_and_change_nothing(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    for body in ([], "x", {"name": ["a"], "password": PASSWORD}, {"name": "a" * 5000}):
        response = visitor.post("/api/account/login", body)
        assert response.status_code in (400, 401, 413), response.text
        assert response.json()["ok"] is False
    response = visitor.http.post(
        server.url + "/api/account/signup", data="{not json", timeout=WAIT_SECONDS,
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    refused(response, 400, "bad_request")


def test_too_many_attempts_on_one_account_from_many_addresses(server: LiveServer) -> None:
    name = new_name()
    Visitor(server.url).signup(name)
    for _ in range(3):  # the free failures, each from another address
        refused(Visitor(server.url).login(name, "wrong password"), 401, "bad_credentials")
    response = Visitor(server.url).login(name)  # even the right password waits now
    refused(response, 429, "too_many_attempts", "of this account")
    assert int(response.headers["Retry-After"]) > 500
    other = new_name()
    Visitor(server.url).signup(other)
    assert Visitor(server.url).login(other).status_code == 200  # other accounts are not held


def test_the_owners_known_device_signs_in_while_a_guesser_holds_the_account(
    server: LiveServer,
) -> None:
    """A guesser keeps the account's failure count up from many addresses; the owner's
    browser, which signed in before, still signs in, changes the password and recovers."""
    name = new_name()
    owner = Visitor(server.url)
    codes = owner.signup(name)["recovery_codes"]
    device = owner.http.cookies.get("known_device")
    assert device
    guesser = Visitor(server.url)
    guesser.signup(new_name())  # a device cookie of the guesser's own account
    for _ in range(3):
        refused(Visitor(server.url).login(name, "wrong password"), 401, "bad_credentials")
    refused(Visitor(server.url).login(name), 429, "too_many_attempts", "of this account")
    refused(guesser.login(name), 429, "too_many_attempts", "of this account")
    forged = Visitor(server.url)
    forged.http.cookies.set("known_device", "0" * 64, path="/api/account")
    refused(forged.login(name), 429, "too_many_attempts", "of this account")
    refused(Visitor(server.url).login(name, "wrong password"), 429, "too_many_attempts")
    assert owner.login(name).status_code == 200
    change = {"current": PASSWORD, "new": "a new long passphrase"}
    assert owner.post("/api/account/password", change).status_code == 200
    body = {"name": name, "code": codes[0], "password": "yet another passphrase"}
    assert owner.post("/api/account/recover", body).status_code == 200


def test_the_known_device_cookie_is_each_browsers_own(server: LiveServer) -> None:
    name, other = new_name(), new_name()
    first, second = Visitor(server.url), Visitor(server.url)
    first.signup(name)
    assert second.login(name).status_code == 200
    device = first.http.cookies.get("known_device")
    assert device and device != second.http.cookies.get("known_device")
    first.signup(other)  # the browser keeps its id whatever account it signs in to
    assert first.http.cookies.get("known_device") == device


def test_a_password_change_ends_every_other_browsers_known_device(server: LiveServer) -> None:
    """A browser known to the account (or a copy of its cookie) stops sparing the account's
    wait once the password changes; the browser that changed it stays known."""
    name = new_name()
    owner, other = Visitor(server.url), Visitor(server.url)
    owner.signup(name)
    assert other.login(name).status_code == 200

    def hold_the_account() -> None:
        for _ in range(3):
            refused(Visitor(server.url).login(name, "wrong password"), 401, "bad_credentials")

    hold_the_account()
    assert other.login(name).status_code == 200  # known: spared the account's wait
    new = "a new long passphrase"
    assert owner.post("/api/account/password", {"current": PASSWORD, "new": new}).status_code == 200
    hold_the_account()
    refused(other.login(name, new), 429, "too_many_attempts", "of this account")
    assert owner.login(name, new).status_code == 200


def test_too_many_attempts_from_one_address_over_many_accounts(server: LiveServer) -> None:
    guesser = Visitor(server.url)
    for _ in range(6):
        refused(guesser.login(new_name(), "wrong password"), 401, "bad_credentials")
    name = new_name()
    Visitor(server.url).signup(name)
    response = guesser.login(name)
    refused(response, 429, "too_many_attempts", "from your address")
    # Refused before the body is read: a malformed one is answered the same.
    refused(guesser.post("/api/account/login", "{"), 429, "too_many_attempts")
    assert Visitor(server.url).login(name).status_code == 200


def test_cross_site_requests_are_refused(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    name = new_name()
    evil = {"Origin": "http://evil.example"}
    body = {"name": name, "password": PASSWORD}
    refused(visitor.post("/api/account/signup", body, **evil), 403, "cross_site")
    refused(
        visitor.post("/api/account/signup", body, **{"Sec-Fetch-Site": "cross-site"}),
        403,
        "cross_site",
    )
    # The existing API too: one check serves every state-changing request.
    refused(visitor.post("/api/games", {"opponent": "friend"}, **evil), 403, "cross_site")
    assert visitor.session is None
    own = {"Origin": server.url}
    assert visitor.post("/api/account/signup", body, **own).status_code == 201
    refused(visitor.post("/api/account/logout", None, **evil), 403, "cross_site")
    assert visitor.account()["ok"] is True  # still signed in


def test_changing_the_password_ends_every_other_session(server: LiveServer) -> None:
    name = new_name()
    phone, laptop = Visitor(server.url), Visitor(server.url)
    phone.signup(name)
    assert laptop.login(name).status_code == 200
    before = phone.session
    change = {"current": "wrong password", "new": "a new long passphrase"}
    refused(phone.post("/api/account/password", change), 401, "bad_credentials")
    refused(
        phone.post("/api/account/password", {"current": PASSWORD, "new": "password1"}),
        400,
        "weak_password",
    )
    change["current"] = PASSWORD
    response = phone.post("/api/account/password", change)
    assert response.status_code == 200, response.text
    assert phone.session != before and phone.account()["ok"] is True
    refused(laptop.get("/api/account"), 401, "not_signed_in")
    refused(Visitor(server.url).login(name), 401, "bad_credentials")
    assert Visitor(server.url).login(name, "a new long passphrase").status_code == 200


def test_a_recovery_code_resets_the_password_once(server: LiveServer) -> None:
    name = new_name()
    owner = Visitor(server.url)
    codes = owner.signup(name)["recovery_codes"]
    stranger = Visitor(server.url)
    body = {"name": name, "code": "aaaa-bbbb-cccc-dddd", "password": "brand new passphrase"}
    refused(stranger.post("/api/account/recover", body), 401, "bad_credentials")
    body["code"] = codes[2].upper().replace("-", " ")  # as typed back
    response = stranger.post("/api/account/recover", body)
    assert response.status_code == 200, response.text
    assert stranger.account()["account"]["name"] == name
    refused(owner.get("/api/account"), 401, "not_signed_in")  # its sessions ended
    again = Visitor(server.url).post("/api/account/recover", {**body, "password": "another one!"})
    refused(again, 401, "bad_credentials")  # the code is spent
    assert Visitor(server.url).login(name, "brand new passphrase").status_code == 200


def test_a_recovery_code_opens_an_account_its_guessers_hold(server: LiveServer) -> None:
    """The account's failures hold a new browser's sign-in, never its recovery code (issue
    33, 5): the code is limited per address only."""
    name = new_name()
    codes = Visitor(server.url).signup(name)["recovery_codes"]
    for _ in range(4):
        Visitor(server.url).login(name, "wrong password")
    owner = Visitor(server.url)  # a new browser: no known-device cookie
    refused(owner.login(name), 429, "too_many_attempts", "of this account")
    body = {"name": name, "code": codes[0], "password": "a new long passphrase"}
    response = owner.post("/api/account/recover", body)
    assert response.status_code == 200, response.text
    assert owner.account()["account"]["name"] == name


def test_deleting_an_account_keeps_its_name_from_anyone_else(server: LiveServer) -> None:
    name = new_name()
    owner, friend = Visitor(server.url), Visitor(server.url)
    owner.signup(name)
    created = friend.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    joined = owner.post(f"/api/games/{created['game']}/join", {"invite": invite_token(created)})
    assert joined.json()["state"]["players"]["black"]["name"] == name
    refused(
        owner.post("/api/account/delete", {"password": "wrong password"}), 401, "bad_credentials"
    )
    response = owner.post("/api/account/delete", {"password": PASSWORD})
    assert response.json() == {"ok": True}
    refused(owner.get("/api/account"), 401, "not_signed_in")
    refused(Visitor(server.url).login(name), 401, "bad_credentials")
    response = Visitor(server.url).post("/api/account/signup", {"name": name, "password": PASSWORD})
    refused(response, 409, "name_taken")
    # Its games stay, shown as played by "deleted player".
    state = friend.get(f"/api/games/{created['game']}").json()["state"]
    assert state["players"]["black"]["name"] == "deleted player"
    pgn = friend.get(f"/api/games/{created['game']}/pgn").text
    assert '[Black "deleted player"]' in pgn and name not in pgn


def test_requests_needing_an_account_say_so(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    refused(visitor.get("/api/account"), 401, "not_signed_in")
    refused(visitor.post("/api/account/claim", {"seats": []}), 401, "not_signed_in")
    refused(visitor.post("/api/account/delete", {"password": PASSWORD}), 401, "not_signed_in")
    change = {"current": PASSWORD, "new": "whatever it is"}
    refused(visitor.post("/api/account/password", change), 401, "not_signed_in")
    forged = Visitor(server.url)
    forged.http.cookies.set("session", "x" * 43)
    refused(forged.get("/api/account"), 401, "not_signed_in")


def seat_accounts(server: LiveServer, game_id: str) -> dict[int, int]:
    """The game's seats' accounts as the server's store holds them (colour -> account id)."""
    store = sqlite_tables(Path(server.instance_path) / "games.sqlite3", shared=True)
    try:
        stored = store.games.load_game(game_id)
    finally:
        store.close()
    assert stored is not None, game_id
    return stored.accounts


def two_accounts(url: str) -> tuple[list[Visitor], list[str], list[int]]:
    """Two signed-up visitors, their names and their account ids."""
    visitors = [Visitor(url), Visitor(url)]
    names = [new_name(), new_name()]
    ids = [
        visitor.signup(name)["account"]["id"] for visitor, name in zip(visitors, names, strict=True)
    ]
    return visitors, names, ids


def test_the_games_of_this_browser_are_claimed_once(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    first = visitor.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    second = visitor.post("/api/games", {"opponent": "friend", "color": "black"}).json()
    someone = Visitor(server.url).post("/api/games", {"opponent": "friend"}).json()
    name = new_name()
    account_id = visitor.signup(name)["account"]["id"]
    games = [first["game"], second["game"], someone["game"]]  # not this browser's third
    response = visitor.post("/api/account/claim", {"seats": games})
    assert response.status_code == 200, response.text
    assert sorted(response.json()["claimed"]) == sorted(games[:2])
    refused(visitor.post("/api/account/claim", {"seats": games}), 409, "conflict", "already")
    refused(visitor.post("/api/account/claim", {"seats": ["../x"]}), 400, "bad_request")
    assert seat_accounts(server, first["game"]) == {0: account_id}
    assert seat_accounts(server, second["game"]) == {1: account_id}
    assert seat_accounts(server, someone["game"]) == {}


def test_a_finished_game_claimed_joins_the_players_history(server: LiveServer) -> None:
    """Played before signing up (Fool's mate as White, lost), claimed after: it is in the
    player's games as a loss, dated by its end, not by the claim."""
    visitor, guest = Visitor(server.url), Visitor(server.url)
    created = visitor.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    game = created["game"]
    joined = guest.post(f"/api/games/{game}/join", {"invite": invite_token(created)}).json()
    seats = (created["seat"], joined["seat"])
    for ply, uci in enumerate(("f2f3", "e7e5", "g2g4", "d8h4")):
        moved = (visitor, guest)[ply % 2].post(
            f"/api/games/{game}/moves",
            {"ply": ply, "uci": uci},
            Authorization=f"Bearer {seats[ply % 2]}",
        )
        assert moved.status_code == 200, moved.text
    name = new_name()
    visitor.signup(name)
    signed_up = time.time()
    assert visitor.post("/api/account/claim", {"seats": [game]}).json()["claimed"] == [game]
    listed = visitor.get(f"/api/users/{name}/games").json()
    assert [(g["id"], g["result"], g["color"]) for g in listed["games"]] == [
        (game, "loss", "white")
    ]
    assert listed["games"][0]["ended"] / 1000 < signed_up  # its end, before the account was
    assert visitor.get("/api/account/games").json()["finished"][0]["id"] == game


def test_a_signed_in_players_seats_and_name_are_the_accounts(server: LiveServer) -> None:
    (white, black), (white_name, black_name), (white_id, black_id) = two_accounts(server.url)
    created = white.post(
        "/api/games", {"opponent": "friend", "color": "white", "name": "Someone Else"}
    ).json()
    game = created["game"]
    joined = black.post(f"/api/games/{game}/join", {"invite": invite_token(created)})
    assert joined.status_code == 200, joined.text
    state = joined.json()["state"]
    assert state["players"]["white"]["name"] == white_name
    assert state["players"]["black"]["name"] == black_name
    pgn = white.get(f"/api/games/{game}/pgn").text
    assert f'[White "{white_name}"]' in pgn and f'[Black "{black_name}"]' in pgn
    assert seat_accounts(server, game) == {0: white_id, 1: black_id}
    anonymous = Visitor(server.url).post("/api/games", {"opponent": "friend", "name": white_name})
    refused(anonymous, 400, "bad_request", "an account's")  # nobody else is shown by it


def socket_of(visitor: Visitor) -> GameClient:
    cookie = f"session={visitor.session}" if visitor.session else ""
    return GameClient(visitor.url, headers={"Cookie": cookie})


def test_a_socket_is_its_handshakes_account_never_an_events(server: LiveServer) -> None:
    (alice, _), (alice_name, bob_name), (_, bob_id) = two_accounts(server.url)
    socket = socket_of(alice)
    try:
        # An event naming another account, by field or by name, does not make it that one.
        forged = socket.call("seek", {"control": "5+3", "account": bob_id})
        assert forged["ok"] is False and forged["code"] == "bad_request", forged
        assert "account" in forged["error"]
        seek = socket.call("seek", {"control": "5+3", "name": bob_name})
        assert seek["ok"] is True and seek["seek"]["name"] == alice_name, seek
        socket.call("seek_cancel", {})
        # Signing out ends the connection too (test_an_ended_session_closes_its_sockets).
        assert alice.post("/api/account/logout").json() == {"ok": True}
        assert socket.disconnected.wait(WAIT_SECONDS)
    finally:
        socket.client.disconnect()
    anonymous = GameClient(server.url)
    try:
        taken = anonymous.call("seek", {"control": "5+3", "name": bob_name.upper()})
        assert taken["ok"] is False and taken["code"] == "bad_request", taken
    finally:
        anonymous.client.disconnect()


def test_lobby_pairing_links_both_accounts(server: LiveServer) -> None:
    (alice, bob), _, (alice_id, bob_id) = two_accounts(server.url)
    first, second = socket_of(alice), socket_of(bob)
    try:
        waiting = first.call("pair", {"control": "3+2"})
        assert waiting["ok"] is True and waiting["paired"] is False, waiting
        paired = second.call("pair", {"control": "3+2"})
        assert paired["ok"] is True and paired["paired"] is True, paired
        game, color = paired["game"], paired["color"]
    finally:
        first.client.disconnect()
        second.client.disconnect()
    accounts = seat_accounts(server, game)
    bob_color = 0 if color == "white" else 1
    assert accounts == {bob_color: bob_id, 1 - bob_color: alice_id}


def test_password_checks_and_sign_ups_are_limited_per_address(tmp_path: Path) -> None:
    """Even right passwords: each check costs a hash. Refused before the body is read. Only
    accounts made count: sign-ups refused for their name or password spend nothing (issue 33,
    6); and the whole server makes a bounded number. (This server's public address is https:
    its session cookie is Secure.)"""
    env = {
        "CHESS_SIGNIN_BURST": "3",
        "CHESS_SIGNIN_INTERVAL": "600",
        "CHESS_SIGNUP_BURST": "2",
        "CHESS_SIGNUP_SERVER_BURST": "3",
        "CHESS_SIGNUP_SERVER_INTERVAL": "600",
        "CHESS_TRUSTED_PROXIES": "1",
        "CHESS_PUBLIC_URL": "https://chess.example",  # and behind https, the cookie is Secure
    }
    live = LiveServer(tmp_path / "instance", env=env).start()
    try:
        visitor = Visitor(live.url)
        name = new_name()
        mistakes = [(name, "short"), (name, name), ("admin", PASSWORD), ("x", PASSWORD)]
        for mistake, password in mistakes:
            response = visitor.post("/api/account/signup", {"name": mistake, "password": password})
            assert response.status_code == 400, response.text
        response = visitor.post("/api/account/signup", {"name": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        assert "Secure" in set_cookie(response) and "HttpOnly" in set_cookie(response)
        for _ in range(3):
            assert visitor.login(name).status_code == 200
        response = visitor.login(name)
        refused(response, 429, "rate_limited", "password checks")
        assert int(response.headers["Retry-After"]) > 0
        refused(visitor.post("/api/account/login", "{"), 429, "rate_limited")
        taken = {"name": name, "password": PASSWORD}
        refused(visitor.post("/api/account/signup", taken), 409, "name_taken")
        visitor.signup(new_name())  # the second sign-up of the address
        response = visitor.post("/api/account/signup", {"name": new_name(), "password": PASSWORD})
        refused(response, 429, "rate_limited", "sign-ups from your address")
        Visitor(live.url).signup(new_name())  # the server's third
        response = Visitor(live.url).post(
            "/api/account/signup", {"name": new_name(), "password": PASSWORD}
        )
        refused(response, 429, "rate_limited", "sign-ups on the server")
    finally:
        live.stop()


def test_a_socket_join_by_invitation_and_a_rematch_keep_the_accounts(server: LiveServer) -> None:
    (white, black), (_, black_name), (white_id, black_id) = two_accounts(server.url)
    created = white.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    game = created["game"]
    socket = socket_of(black)
    try:
        joined = socket.join(game, invite=invite_token(created), name="Someone")
        assert joined["role"] == "black", joined
        assert joined["state"]["players"]["black"]["name"] == black_name
        black_seat = joined["seat"]
    finally:
        socket.client.disconnect()

    def act(seat: str, body: dict[str, str]) -> dict[str, Any]:
        response = white.http.post(
            f"{server.url}/api/games/{game}/actions",
            json=body,
            headers={"Authorization": f"Bearer {seat}"},
            timeout=WAIT_SECONDS,
        )
        assert response.status_code == 200, response.text
        return dict(response.json())

    act(created["seat"], {"action": "resign"})
    act(created["seat"], {"action": "offer", "kind": "rematch"})
    rematch = act(black_seat, {"action": "accept", "kind": "rematch"})["rematch"]
    assert seat_accounts(server, game) == {0: white_id, 1: black_id}
    # Colours swap in the rematch, and the accounts with them.
    assert seat_accounts(server, rematch) == {1: white_id, 0: black_id}


def test_passkey_ceremonies_refuse_what_they_did_not_start(server: LiveServer) -> None:
    """The browser side runs in Chromium (tests/test_browser_accounts.py); here the refusals:
    no ticket, another ceremony's ticket, a ticket used twice, a credential that is no object,
    one this site never registered."""
    visitor = Visitor(server.url)
    visitor.signup(new_name())
    # Adding a passkey needs the current password, not the session alone.
    refused(visitor.post("/api/account/passkeys/options", {}), 401, "bad_credentials", "password")
    wrong_password = {"password": "not the password"}
    refused(visitor.post("/api/account/passkeys/options", wrong_password), 401, "bad_credentials")
    start = visitor.post("/api/account/passkeys/options", {"password": PASSWORD}).json()
    assert start["ok"] is True and start["options"]["rp"]["id"] == "127.0.0.1", start
    assert start["options"]["authenticatorSelection"]["residentKey"] == "required"
    assert start["options"]["authenticatorSelection"]["userVerification"] == "required"
    refused(visitor.post("/api/account/passkeys", {"credential": {}}), 401, "bad_credentials")
    login = Visitor(server.url).post("/api/account/passkey/options").json()
    wrong = {"ticket": login["ticket"], "credential": {"id": "x"}}
    refused(visitor.post("/api/account/passkeys", wrong), 401, "bad_credentials", "start again")
    body = {"ticket": start["ticket"], "credential": "not an object"}
    refused(visitor.post("/api/account/passkeys", body), 400, "bad_request", "credential")
    body["credential"] = {"id": "x", "response": {}}
    refused(visitor.post("/api/account/passkeys", body), 401, "bad_credentials", "start again")
    other = Visitor(server.url)
    fresh = other.post("/api/account/passkey/options").json()
    unknown = {"ticket": fresh["ticket"], "credential": {"id": "AAAA", "response": {}}}
    refused(
        other.post("/api/account/passkey/login", unknown), 401, "bad_credentials", "not a passkey"
    )
    assert "Set-Cookie" not in other.post("/api/account/passkey/login", unknown).headers
    refused(Visitor(server.url).post("/api/account/passkeys/options"), 401, "not_signed_in")
    assert visitor.get("/api/account/passkeys").json() == {"ok": True, "passkeys": []}
    gone = visitor.post("/api/account/passkeys/delete", {"id": "AAAA"})
    refused(gone, 404, "not_found", "no such passkey")


def test_a_sign_out_in_another_process_reaches_this_ones_sockets(tmp_path: Path) -> None:
    """Two server processes on one store (the instance folder shared, as a cluster shares its
    PostgreSQL): signed out through the second, the first's socket is a visitor's soon after
    (its session looked up again after CHESS_SESSION_RECHECK seconds)."""
    env = {"CHESS_SESSION_RECHECK": "0.5"}
    first = LiveServer(tmp_path / "instance", env=env).start()
    second = LiveServer(tmp_path / "instance", env=env).start()
    try:
        visitor = Visitor(first.url)
        name = new_name()
        visitor.signup(name)
        socket = socket_of(visitor)
        try:
            seek = socket.call("seek", {"control": "5+3"})
            assert seek["ok"] is True and seek["seek"]["name"] == name, seek
            other = Visitor(second.url)
            other.http.cookies.set("session", str(visitor.session))
            assert other.post("/api/account/logout").json() == {"ok": True}
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                time.sleep(0.6)
                seek = socket.call("seek", {"control": "5+3"})
                if seek["ok"] and seek["seek"]["name"] != name:
                    break
            assert seek["ok"] is True and seek["seek"]["name"] != name, seek
        finally:
            socket.client.disconnect()
    finally:
        second.stop()
        first.stop()


def lobby_names(url: str) -> list[str]:
    seeks = requests.get(f"{url}/api/lobby", timeout=WAIT_SECONDS).json()["seeks"]
    return [seek["name"] for seek in seeks]


@pytest.mark.parametrize("ending", ["password", "logout", "delete"])
def test_an_ended_session_closes_its_sockets_seats_and_seeks(
    server: LiveServer, ending: str
) -> None:
    """A socket that took its seat through the account (no seat cookie, no token) and one
    that holds a seek: when the session ends they are closed, the seek withdrawn, and the
    old cookie's reconnection only watches."""
    (white, black), (_, black_name), _ = two_accounts(server.url)
    created = white.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    game = created["game"]
    assert black.post(f"/api/games/{game}/join", {"invite": invite_token(created)}).ok
    old_cookie = {"Cookie": f"session={black.session}"}
    player, seeker = socket_of(black), socket_of(black)
    try:
        assert player.join(game)["role"] == "black"
        seek = seeker.call("seek", {"control": "5+3"})
        assert seek["ok"] is True, seek
        assert black_name in lobby_names(server.url)
        if ending == "password":
            change = {"current": PASSWORD, "new": "a new long passphrase"}
            assert black.post("/api/account/password", change).status_code == 200
        elif ending == "logout":
            assert black.post("/api/account/logout").json() == {"ok": True}
        else:
            assert black.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
        assert player.disconnected.wait(WAIT_SECONDS)
        assert seeker.disconnected.wait(WAIT_SECONDS)
        assert black_name not in lobby_names(server.url)
    finally:
        player.client.disconnect()
        seeker.client.disconnect()
    again = GameClient(server.url, headers=old_cookie)
    try:
        assert again.join(game)["role"] == "spectator"
        refused_move = again.move(game, 1, "e7e5")
        assert refused_move["ok"] is False and refused_move["code"] == "forbidden", refused_move
    finally:
        again.client.disconnect()


def test_signing_in_to_ones_own_account_keeps_the_addresss_failures(server: LiveServer) -> None:
    """A sprayer with an account of its own: its sign-ins do not clear its address's count."""
    sprayer = Visitor(server.url)
    own = new_name()
    sprayer.signup(own)
    for _ in range(5):
        refused(sprayer.login(new_name(), "wrong password"), 401, "bad_credentials")
        assert sprayer.login(own).status_code == 200
    refused(sprayer.login(new_name(), "wrong password"), 401, "bad_credentials")
    # Six failures from the address now: the next try waits, whoever it names.
    refused(sprayer.login(new_name(), "wrong password"), 429, "too_many_attempts", "address")


def test_a_password_is_the_same_in_any_unicode_normal_form(server: LiveServer) -> None:
    name = new_name()
    composed = "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e"
    Visitor(server.url).signup(name, unicodedata.normalize("NFD", composed))
    assert Visitor(server.url).login(name, composed).status_code == 200


def test_a_claim_that_links_nothing_is_not_spent(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    own = visitor.post("/api/games", {"opponent": "friend"}).json()["game"]
    someone = Visitor(server.url).post("/api/games", {"opponent": "friend"}).json()["game"]
    visitor.signup(new_name())
    empty = visitor.post("/api/account/claim", {"seats": [someone]})
    assert empty.status_code == 200 and empty.json()["claimed"] == [], empty.text
    claimed = visitor.post("/api/account/claim", {"seats": [own]})
    assert claimed.status_code == 200 and claimed.json()["claimed"] == [own], claimed.text
    refused(visitor.post("/api/account/claim", {"seats": [own]}), 409, "conflict")


def test_a_claim_that_would_seat_one_account_on_both_sides_is_refused(server: LiveServer) -> None:
    """Signed in, the account creates a friend game as White; another browser of its owner
    takes Black by the invitation, then signs in to the same account and claims it."""
    name = new_name()
    first, second = Visitor(server.url), Visitor(server.url)
    account_id = first.signup(name)["account"]["id"]
    created = first.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    game = created["game"]
    joined = second.post(f"/api/games/{game}/join", {"invite": invite_token(created)})
    assert joined.status_code == 200, joined.text
    assert second.login(name).status_code == 200
    refused(second.post("/api/account/claim", {"seats": [game]}), 409, "both_seats", game)
    assert seat_accounts(server, game) == {0: account_id}


def test_an_account_cannot_take_its_own_games_invitation(server: LiveServer) -> None:
    """The invitation of a game the account created, opened signed in to it (another tab):
    refused, the seat stays free for the friend."""
    owner = Visitor(server.url)
    owner.signup(new_name())
    created = owner.post("/api/games", {"opponent": "friend", "color": "white"}).json()
    game = created["game"]
    own = owner.post(f"/api/games/{game}/join", {"invite": invite_token(created)})
    refused(own, 409, "both_seats")
    friend = Visitor(server.url).post(f"/api/games/{game}/join", {"invite": invite_token(created)})
    assert friend.status_code == 200, friend.text


def test_an_account_made_before_the_new_key_and_keyed_codes_still_signs_in_and_recovers(
    server: LiveServer,
) -> None:
    """Stored as the server stored accounts before: the bare skeleton as its key (its `-` and
    digits kept) and its recovery codes as Argon2id hashes of their secret part."""
    name = f"Old-{secrets.token_hex(2)}37"
    assert legacy_name_key(name) != name_key(name)
    code = "abcd-efgh-jkmn-pqrs"
    tables = sqlite_tables(Path(server.instance_path) / "games.sqlite3", shared=True)
    try:
        tables.accounts.create_user(
            (name, legacy_name_key(name), passwords.HASHER.hash(PASSWORD)),
            [("abcd", passwords.HASHER.hash(codes.split_code(code)[1]))],
        )
    finally:
        tables.close()
    assert Visitor(server.url).login(name.upper()).status_code == 200
    taken = Visitor(server.url).post("/api/account/signup", {"name": name, "password": PASSWORD})
    refused(taken, 409, "name_taken")
    body = {"name": name, "code": code, "password": "a new long passphrase"}
    assert Visitor(server.url).post("/api/account/recover", body).status_code == 200
    assert Visitor(server.url).login(name, "a new long passphrase").status_code == 200


def test_account_answers_are_never_cached_and_pages_are_private(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    signup = visitor.post("/api/account/signup", {"name": new_name(), "password": PASSWORD})
    assert signup.status_code == 201 and signup.headers["Cache-Control"] == "no-store"
    for path in ("/api/account", "/api/account/games", "/account", "/signup", "/login"):
        response = visitor.http.get(server.url + path, allow_redirects=False, timeout=WAIT_SECONDS)
        assert response.headers.get("Cache-Control") == "no-store", path
    lobby = visitor.get("/")
    assert lobby.headers["Cache-Control"] == "private" and "Cookie" in lobby.headers["Vary"]


def test_a_wrong_password_or_code_writes_no_traceback(server: LiveServer) -> None:
    """A wrong password is a normal answer: the log gets no traceback for it (issue 33, 7)."""
    log = Path(server.instance_path) / "server.log"
    start = log.stat().st_size
    name = new_name()
    owner = Visitor(server.url)
    owner.signup(name)
    refused(Visitor(server.url).login(name, "wrong password"), 401, "bad_credentials")
    body = {"name": name, "code": "abcd-efgh-jkmn-pqrs", "password": "a new long passphrase"}
    refused(Visitor(server.url).post("/api/account/recover", body), 401, "bad_credentials")
    assert owner.login(name).status_code == 200  # a later request: the log has caught up
    written = log.read_bytes()[start:].decode(errors="replace")
    assert "Traceback" not in written and "VerifyMismatchError" not in written, written
