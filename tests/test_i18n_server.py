"""The visitor's language on a real server (server.i18n, docs/i18n.md).

A French browser (Accept-Language) gets French pages whose `<html lang>` says so; the picker's
cookie wins over the browser's header, and a signed-in account's language over both, on any
browser it signs in from. The scripts' catalog is served per language with its plural forms,
the trainer's drill comes with its question in the request's language, and a refusal is worded
in it too (its code unchanged).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
import requests

from tests.support.game_client import GameClient, create_game
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("i18n", {"CHESS_SIGNUP_BURST": "1000000"})
TIMEOUT = 30
PASSWORD = "correct horse battery"
FRENCH = "fr-FR,fr;q=0.9,en;q=0.8"


def page_language(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found, html[:200]
    return found.group(1)


def get(url: str, http: requests.Session | None = None, **headers: str) -> requests.Response:
    response = (http or requests).get(url, headers=headers, timeout=TIMEOUT)
    assert response.status_code == 200, response.text[:300]
    return response


def test_a_french_browser_gets_french_pages(server: LiveServer) -> None:
    for path, words in (("/", "Appariement rapide"), ("/train", "Entraîneur de menaces")):
        html = get(server.url + path, **{"Accept-Language": FRENCH}).text
        assert page_language(html) == "fr"
        assert words in html
    english = get(server.url + "/").text
    assert page_language(english) == "en" and "Quick pairing" in english


def test_the_pickers_cookie_wins_over_the_browsers_header(server: LiveServer) -> None:
    http = requests.Session()
    http.headers["Accept-Language"] = FRENCH
    chosen = http.post(
        server.url + "/language",
        data={"language": "de", "next": "/train"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/train"
    assert http.cookies.get("lang") == "de"
    html = get(server.url + "/train", http).text
    assert page_language(html) == "de" and "Bedrohungstrainer" in html


def test_the_picker_goes_back_to_this_site_only(server: LiveServer) -> None:
    for back in ("//elsewhere.example/", "https://elsewhere.example/", "/\\elsewhere"):
        chosen = requests.post(
            server.url + "/language",
            data={"language": "sv", "next": back},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert chosen.headers["Location"] == "/"


def sign_up(server: LiveServer, http: requests.Session, name: str) -> None:
    response = http.post(
        server.url + "/api/account/signup",
        json={"name": name, "password": PASSWORD},
        timeout=TIMEOUT,
    )
    assert response.status_code == 201, response.text


def visitor(**headers: str) -> requests.Session:
    """A browser's worth of HTTP: its own cookies, its own headers."""
    http = requests.Session()
    http.headers.update(headers)
    return http


def test_the_accounts_language_wins_over_the_cookie_on_any_browser(server: LiveServer) -> None:
    name = f"p{secrets.token_hex(6)}"
    first = visitor()
    sign_up(server, first, name)
    first.post(server.url + "/language", data={"language": "es", "next": "/"}, timeout=TIMEOUT)
    assert page_language(get(server.url + "/", first).text) == "es"
    # Another browser, French by its header and Swedish by its cookie: the account says Spanish.
    other = visitor(**{"Accept-Language": FRENCH})
    other.cookies.set("lang", "sv")
    assert page_language(get(server.url + "/", other).text) == "sv"
    signed_in = other.post(
        server.url + "/api/account/login",
        json={"name": name, "password": PASSWORD},
        timeout=TIMEOUT,
    )
    assert signed_in.status_code == 200, signed_in.text
    html = get(server.url + "/account", other).text
    assert page_language(html) == "es" and 'value="es" lang="es" selected' in html


def test_the_scripts_catalog_is_served_per_language(server: LiveServer) -> None:
    french: dict[str, Any] = get(server.url + "/i18n/fr.json").json()
    assert french["language"] == "fr" and french["plural"] == "(n > 1)"
    assert french["messages"]["Right!"] == "Juste !"
    assert french["messages"]["{n} move"] == ["{n} coup", "{n} coups"]
    german = get(server.url + "/i18n/de.json").json()
    assert german["plural"] == "(n != 1)" and german["messages"]["Right!"] == "Richtig!"
    assert requests.get(server.url + "/i18n/xx.json", timeout=TIMEOUT).status_code == 404
    # The same catalog is embedded in every page for static/js/i18n.js.
    html = get(server.url + "/", **{"Accept-Language": FRENCH}).text
    assert '<script type="application/json" id="i18n-catalog">' in html
    assert "Juste !" in html


def test_the_trainers_question_comes_in_the_requests_language(server: LiveServer) -> None:
    asked = get(server.url + "/api/train/next?kind=hanging&level=1", **{"Accept-Language": "de"})
    assert asked.json()["drill"]["question"].startswith("Klicken Sie jede hängende Figur an")
    english = get(server.url + "/api/train/next?kind=hanging&level=1").json()
    assert english["drill"]["question"].startswith("Click every hanging piece")


def test_a_refusal_is_worded_in_the_requests_language(server: LiveServer) -> None:
    wrong = {"name": f"p{secrets.token_hex(6)}", "password": "not the password"}
    response = requests.post(
        server.url + "/api/account/login",
        json=wrong,
        headers={"Accept-Language": FRENCH},
        timeout=TIMEOUT,
    )
    refused(response, 401, "bad_credentials", "le nom ou le mot de passe est incorrect")
    english = requests.post(server.url + "/api/account/login", json=wrong, timeout=TIMEOUT)
    refused(english, 401, "bad_credentials", "the name or the password is wrong")


def test_an_illegal_move_is_refused_in_the_players_language(server: LiveServer) -> None:
    """The reason is a sentence of its own inside the refusal's, both translated."""
    created = requests.post(
        server.url + "/api/games", json={"opponent": "friend", "color": "white"}, timeout=TIMEOUT
    ).json()
    move = {"ply": 0, "uci": "e2e5"}
    url = f"{server.url}/api/games/{created['game']}/moves"
    seat = {"Authorization": f"Bearer {created['seat']}"}
    german = requests.post(url, json=move, headers={**seat, "Accept-Language": "de"}, timeout=30)
    refused(german, 409, "illegal_move", "e2e5 ist hier nicht legal: keiner Ihrer Bauern kann")
    english = requests.post(url, json=move, headers=seat, timeout=TIMEOUT)
    refused(english, 409, "illegal_move", "e2e5 is not legal here: no pawn of yours can go to e5")


def test_a_socket_refusal_speaks_the_language_of_its_connection(server: LiveServer) -> None:
    """A Socket.IO event is answered in the language of the connection's handshake."""
    french = GameClient(server.url, headers={"Accept-Language": FRENCH})
    english = GameClient(server.url)
    try:
        for client, words in ((french, "aucune partie avec l'identifiant"), (english, "no game")):
            reply = client.call("join", {"game": "nosuchgame00"})
            assert reply["ok"] is False and reply["code"] == "not_found", reply
            assert reply["error"].startswith(words), reply
    finally:
        french.client.disconnect()
        english.client.disconnect()


def test_a_sockets_illegal_move_is_refused_in_its_connections_language(
    server: LiveServer,
) -> None:
    """`move` and `premove` are served without a request context (server.edge.dispatch's
    `bind_bare`): their refusals speak the language the connection's handshake chose."""
    created = create_game(server.url, opponent="friend", color="white")
    game = created["game"]
    french = GameClient(server.url, headers={"Accept-Language": FRENCH})
    german = GameClient(server.url, headers={"Cookie": "lang=de"})
    english = GameClient(server.url)
    try:
        for client in (french, german, english):
            client.join(game, seat=created["seat"])
        said = {
            french: "e2e5 n'est pas légal ici",
            german: "e2e5 ist hier nicht legal",
            english: "e2e5 is not legal here: no pawn of yours can go to e5",
        }
        for client, words in said.items():
            reply = client.move(game, 0, "e2e5")
            assert reply["ok"] is False and reply["code"] == "illegal_move", reply
            assert reply["error"].startswith(words), reply
        elsewhere = french.call("premove", {"game": "nosuchgame00", "move": "e2e4"})
        assert elsewhere["ok"] is False and elsewhere["code"] == "not_found", elsewhere
        assert elsewhere["error"].startswith("cette connexion n'a pas rejoint la partie"), elsewhere
    finally:
        for client in (french, german, english):
            client.client.disconnect()


def test_a_rate_limit_is_worded_in_the_connections_language(server: LiveServer) -> None:
    """The limit's sentence and the name of what was limited are both translated."""
    game = create_game(server.url, opponent="friend", color="white")["game"]
    german = GameClient(server.url, headers={"Accept-Language": "de-DE,de;q=0.9"})
    try:
        german.join(game)
        assert german.call("chat_join", {"game": game})["ok"]
        replies = [german.call("chat_say", {"game": game, "phrase": "hello"}) for _ in range(8)]
        refused = [reply for reply in replies if not reply["ok"]]
        assert refused and refused[0]["code"] == "rate_limited", replies
        assert refused[0]["error"].startswith("zu viele Chatzeilen von Ihrer Adresse"), refused
    finally:
        german.client.disconnect()


def test_the_quick_phrases_and_the_games_heading_are_in_the_readers_language(
    server: LiveServer,
) -> None:
    """The wire carries a phrase's key; each reader's page holds the phrases in its language."""
    game = create_game(server.url, opponent="friend", color="white")["game"]
    pages = {
        lang: get(f"{server.url}/game/{game}", **{"Accept-Language": lang}).text
        for lang in ("fr", "de", "en")
    }
    said = {
        "fr": ("Bonne partie", "Je dois y aller", "Amicale · Sans limite"),
        "de": ("Gute Partie", "Ich muss los", "Ungewertet · Unbegrenzt"),
        "en": ("Good game", "I've got to go", "Casual · Unlimited"),
    }
    for lang, words in said.items():
        for word in words:
            assert word in pages[lang], (lang, word)
        found = re.search(r'data-phrases="([^"]*)"', pages[lang])
        assert found and "good_game" in found.group(1), lang


def test_a_page_says_it_varies_by_language(server: LiveServer) -> None:
    vary = get(server.url + "/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary
