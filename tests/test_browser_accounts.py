"""Accounts in real Chromium against a real server: sign up (the recovery codes shown once,
the "I saved them" step, this browser's earlier game claimed), sign out and in, change the
password, recover with a code; desktop and phone, with screenshots of the sign-up (codes),
sign-in and settings pages in artifacts/."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_seeks import DESKTOP, PHONE, open_lobby
from tests.test_browser_support import wait_connected

pytestmark = pytest.mark.browser

server = module_server("browser-accounts")

PASSWORD = "correct horse battery"
SCREENS = {"desktop": DESKTOP, "phone": PHONE}


def sign_up(page: Any, site: str, name: str) -> list[str]:
    page.goto(site + "/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    codes = page.locator("#recovery-codes li")
    expect(codes).to_have_count(8)
    return [text.strip() for text in codes.all_inner_texts()]


def open_friend_game(context: Any, server: LiveServer, name: str | None = None) -> Any:
    """A friend game made from the lobby by a visitor of `name`, playing White: its page."""
    page = open_lobby(context, server, name)
    page.get_by_role("button", name="White").click()
    page.get_by_role("button", name="Play a friend").click()
    page.wait_for_url("**/game/*")
    wait_connected(page)
    return page


def sign_in(page: Any, server: LiveServer, name: str, password: str) -> None:
    page.goto(server.url + "/login")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def sign_out(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/account")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(server.url + "/")
    expect(page.locator("#nav-account")).to_have_text("Sign in")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_sign_up_shows_the_codes_once_and_claims_this_browsers_game(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, screen: str
) -> None:
    context = browser.new_context(**SCREENS[screen])
    try:
        lobby = open_friend_game(context, server)
        game = lobby.locator("main.game").get_attribute("data-game")

        page = context.new_page()
        expect_name = f"Player_{secrets.token_hex(3)}"
        codes = sign_up(page, server.url, expect_name)
        assert len(set(codes)) == 8 and all(len(code) == 19 for code in codes)
        expect(page.locator("#nav-account")).to_have_text(expect_name)
        expect(page.locator("#nav-account")).to_have_attribute("href", f"/@/{expect_name}")
        expect(page.locator("#nav-settings")).to_be_visible()  # the header as after a reload
        done = page.get_by_role("button", name="Continue")
        expect(done).to_be_disabled()
        page.screenshot(path=screenshot_path(request, "-codes"), full_page=True)
        page.get_by_label("I saved them").check()
        done.click()
        expect(page.locator("#recovery-codes li")).to_have_count(0)  # gone once saved
        expect(page.locator("#claim-text")).to_contain_text("one game")
        page.get_by_role("button", name="Add them to my account").click()
        expect(page.locator("#claim-status")).to_have_text("One game added.")

        page.goto(server.url + "/")  # the lobby shows the account's name, not to be edited
        expect(page.locator("#visitor-name")).to_have_value(expect_name)
        expect(page.locator("#visitor-name")).not_to_be_editable()
        page.get_by_role("button", name="Create challenge").click()
        expect(page.locator("#seek-list")).to_contain_text(expect_name)
        page.screenshot(path=screenshot_path(request, "-lobby"))

        account = context.request.get(server.url + "/api/account").json()
        assert account["account"]["name"] == expect_name
        again = context.request.post(server.url + "/api/account/claim", data={"seats": [game]})
        assert again.status == 409  # once per account
    finally:
        context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_sign_out_in_change_the_password_and_recover(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, screen: str
) -> None:
    context = browser.new_context(**SCREENS[screen])
    try:
        page = context.new_page()
        name = f"Reader_{secrets.token_hex(3)}"
        codes = sign_up(page, server.url, name)
        sign_out(page, server)

        sign_in(page, server, name, "not my password")
        expect(page.locator("#login-error")).to_have_text("the name or the password is wrong")
        page.get_by_label("Password").fill("")
        page.screenshot(path=screenshot_path(request, "-signin"), full_page=True)
        sign_in(page, server, name, PASSWORD)
        page.wait_for_url(server.url + "/")
        expect(page.locator("#nav-account")).to_have_text(name)
        expect(page.locator("#nav-account")).to_have_attribute("href", f"/@/{name}")  # profile

        page.locator("#nav-settings").click()
        page.wait_for_url(server.url + "/account")
        expect(page.get_by_role("heading", name=name)).to_be_visible()
        page.screenshot(path=screenshot_path(request, "-settings"), full_page=True)
        page.get_by_label("Current password").fill(PASSWORD)
        page.get_by_label("New password").fill("a brand new passphrase")
        page.get_by_role("button", name="Change password").click()
        expect(page.locator("#password-status")).to_have_text("Password changed.")
        page.reload()
        expect(page.locator("#nav-account")).to_have_text(name)  # still signed in here
        sign_out(page, server)
        sign_in(page, server, name, PASSWORD)
        expect(page.locator("#login-error")).to_have_text("the name or the password is wrong")
        sign_in(page, server, name, "a brand new passphrase")
        page.wait_for_url(server.url + "/")
        sign_out(page, server)

        page.goto(server.url + "/login")
        page.get_by_role("link", name="Forgot your password?").click()
        page.get_by_label("Username").fill(name)
        page.get_by_label("Recovery code").fill(codes[0])
        page.get_by_label("New password", exact=True).fill("recovered at last")
        page.get_by_role("button", name="Set the password").click()
        page.wait_for_url(server.url + "/account")
        expect(page.locator("#nav-account")).to_have_text(name)
        sign_out(page, server)
        sign_in(page, server, name, "recovered at last")
        page.wait_for_url(server.url + "/")
        expect(page.locator("#nav-account")).to_have_text(name)
    finally:
        context.close()


def test_a_passkey_is_added_and_signs_in(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """With Chromium's virtual authenticator (DevTools' WebAuthn domain), on `localhost`: a
    passkey belongs to a site's name, never to an IP address."""
    site = server.url.replace("127.0.0.1", "localhost")
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        devtools = context.new_cdp_session(page)
        devtools.send("WebAuthn.enable")
        authenticator = {
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": True,
            "hasUserVerification": True,
            "isUserVerified": True,
        }
        devtools.send("WebAuthn.addVirtualAuthenticator", {"options": authenticator})
        name = f"Keyholder_{secrets.token_hex(3)}"
        sign_up(page, site, name)
        page.goto(site + "/account")
        page.get_by_role("button", name="Add a passkey").click()  # without the password
        expect(page.locator("#passkey-error")).to_contain_text("password")
        page.get_by_label("Your password, to add a passkey").fill(PASSWORD)
        page.get_by_role("button", name="Add a passkey").click()
        expect(page.locator("#passkey-status")).to_have_text("Passkey added.")
        listed = page.evaluate("fetch('/api/account/passkeys').then((r) => r.json())")
        assert len(listed["passkeys"]) == 1, listed
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_url(site + "/")
        expect(page.locator("#nav-account")).to_have_text("Sign in")

        page.goto(site + "/login")
        page.screenshot(path=screenshot_path(request, "-passkey"))
        page.get_by_role("button", name="Sign in with a passkey").click()
        page.wait_for_url(site + "/")
        expect(page.locator("#nav-account")).to_have_text(name)
        page.goto(site + "/login")  # signed in: the settings instead
        page.wait_for_url(site + "/account")
        expect(page.locator("#passkey-list li")).to_have_count(1)
        page.screenshot(path=screenshot_path(request, "-passkey-list"))
        page.get_by_role("button", name="Remove passkey 1").click()
        expect(page.locator("#passkey-status")).to_have_text("Passkey removed.")
        expect(page.locator("#passkey-list li")).to_have_count(0)
        gone = page.evaluate("fetch('/api/account/passkeys').then((r) => r.json())")
        assert gone["passkeys"] == [], gone
    finally:
        context.close()


def test_a_signed_in_friend_opening_the_invitation_plays_under_the_account(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    creator_context, friend_context = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    try:
        creator = open_friend_game(creator_context, server, "Alice")
        invite = creator.locator("#invite-link").input_value()

        friend = friend_context.new_page()
        name = f"Friend_{secrets.token_hex(3)}"
        sign_up(friend, server.url, name)
        friend.goto(invite)
        wait_connected(friend)
        for page in (creator, friend):
            expect(page.locator("#strip-black .player-name")).to_have_text(name)
            expect(page.locator("#strip-white .player-name")).to_have_text("Alice")
        friend.screenshot(path=screenshot_path(request, "-phone"))
    finally:
        creator_context.close()
        friend_context.close()


def test_the_sign_up_form_sends_no_password_shorter_than_its_minlength(
    browser: Any, server: LiveServer
) -> None:
    """A refused sign-up would be a round trip for nothing (issue 33, 6): the form holds a
    5-character password back, and sends the corrected one."""
    context = browser.new_context()
    try:
        page = context.new_page()
        sent: list[str] = []
        page.on(
            "request",
            lambda asked: (
                sent.append(asked.post_data or "")
                if asked.url.endswith("/api/account/signup")
                else None
            ),
        )
        page.goto(server.url + "/signup")
        name = f"Short_{secrets.token_hex(3)}"
        page.get_by_label("Username").fill(name)
        page.get_by_label("Password").fill("abcde")
        page.get_by_role("button", name="Sign up").click()
        too_short = "element => element.validity.tooShort"
        assert page.locator("#signup-password").evaluate(too_short)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        expect(page.locator("#recovery-codes li")).to_have_count(8)
        assert len(sent) == 1 and PASSWORD in sent[0], sent
    finally:
        context.close()
