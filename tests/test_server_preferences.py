"""Preferences against a real server (server.preferences): a visitor's are kept in its cookie
and every page's <html> is rendered from it; a signed-in account's are saved to the account and
follow it to another browser; a preference or a value not offered is refused, quoting it; a
cookie that cannot be read is the default. And the password's small trips (issue 36, item 7):
the password asked again says "the password is wrong", and the name with digits added is
refused at sign-up and at a change."""

from __future__ import annotations

import re

import pytest

from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_server_accounts import PASSWORD, Visitor, new_name

pytestmark = pytest.mark.server

server = module_server("preferences", {"CHESS_TRUSTED_PROXIES": "1", "CHESS_SIGNUP_BURST": "1000"})


def html_tag(visitor: Visitor, path: str = "/") -> str:
    match = re.search(r"<html[^>]*>", visitor.get(path).text)
    assert match is not None
    return match.group(0)


def test_a_visitors_preferences_are_its_cookies_and_shape_every_page(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    assert 'class="board-brown theme-light"' in html_tag(visitor)
    reply = visitor.post("/api/preferences", {"board": "blue", "theme": "dark"})
    assert reply.status_code == 200, reply.text
    assert reply.json()["preferences"]["board"] == "blue"
    assert "prefs=board:blue|theme:dark|coordinates:1" in reply.headers["Set-Cookie"]
    visitor.post("/api/preferences", {"coordinates": False, "threats": "both"})
    for path in ("/", "/analysis", "/train", "/preferences", "/login"):
        assert 'class="board-blue theme-dark coords-off"' in html_tag(visitor, path), path
    tag = html_tag(visitor)
    assert "&#34;threats&#34;: &#34;both&#34;" in tag  # the scripts' JSON, in the attribute
    assert Visitor(server.url).get("/api/preferences").json()["preferences"]["board"] == "brown"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"board": "pink"}, "preference 'board' cannot be 'pink'"),
        ({"colour": "blue"}, "no preference named 'colour'"),
        ({"sound": 1}, "preference 'sound' cannot be '1'"),
        ({"theme": True}, "preference 'theme' cannot be 'True'"),
        (["board"], "must be a JSON object"),
    ],
)
def test_a_preference_not_offered_is_refused(server: LiveServer, body: object, words: str) -> None:
    visitor = Visitor(server.url)
    refused(visitor.post("/api/preferences", body), 400, "bad_request", words)
    assert "prefs=" not in visitor.get("/api/preferences").headers.get("Set-Cookie", "")


def test_a_cookie_that_cannot_be_read_is_the_default(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    visitor.http.cookies.set("prefs", "board:pink|theme:dark|sound:yes|<script>:1")
    assert 'class="board-brown theme-dark"' in html_tag(visitor)
    assert visitor.get("/api/preferences").json()["preferences"]["sound"] is True


def test_an_accounts_preferences_follow_it_to_another_browser(server: LiveServer) -> None:
    name = new_name()
    home, away = Visitor(server.url), Visitor(server.url)
    home.post("/api/preferences", {"board": "grey"})  # chosen before signing up: kept
    home.signup(name)
    home.post("/api/preferences", {"board": "green", "auto_queen": True})
    assert away.login(name).status_code == 200
    assert 'class="board-green theme-light"' in html_tag(away)
    assert away.get("/api/preferences").json()["preferences"]["auto_queen"] is True
    away.post("/api/preferences", {"theme": "system"})
    assert 'class="board-green theme-system"' in html_tag(home)  # the account's, not the cookie's


def test_the_password_asked_again_is_wrong_not_the_name(server: LiveServer) -> None:
    name = new_name()
    owner = Visitor(server.url)
    owner.signup(name)
    change = {"current": "not my password", "new": "a new long passphrase"}
    message = refused(owner.post("/api/account/password", change), 401, "bad_credentials")
    assert message == "the password is wrong"
    message = refused(
        owner.post("/api/account/delete", {"password": "not my password"}), 401, "bad_credentials"
    )
    assert message == "the password is wrong"
    message = refused(Visitor(server.url).login(name, "not my password"), 401, "bad_credentials")
    assert message == "the name or the password is wrong"  # signing in: either may be wrong


@pytest.mark.parametrize("digits", ["1", "2024", "007"])
def test_the_name_and_digits_is_refused_as_a_password(server: LiveServer, digits: str) -> None:
    name = new_name() + "longer"
    for password in (name + digits, digits + name.upper()):
        response = Visitor(server.url).post(
            "/api/account/signup", {"name": name, "password": password}
        )
        refused(response, 400, "weak_password", "the account's name and digits")
    owner = Visitor(server.url)
    owner.signup(name)
    change = {"current": PASSWORD, "new": name + digits}
    refused(owner.post("/api/account/password", change), 400, "weak_password", "name and digits")
