"""The accounts' pages: sign up, sign in, recover, and the account's settings; and the
header's account link on every page (templates/base.html).

The pages are forms that post JSON to the accounts' API (server.accounts.http) from
their scripts (static/js/account/); no secret passes through a template. `signed_in` is a
template global: the header shows the signed-in name, or "Sign in".
"""

from __future__ import annotations

from flask import Blueprint, Flask, redirect, render_template
from flask.typing import ResponseReturnValue

from server.accounts.identity import Account, current_account
from server.accounts.passwords import MIN_LENGTH as PASSWORD_MIN
from server.accounts.usernames import MAX_LENGTH, MIN_LENGTH

blueprint = Blueprint("account_pages", __name__)
LIMITS = {"name_min": MIN_LENGTH, "name_max": MAX_LENGTH, "password_min": PASSWORD_MIN}


@blueprint.get("/signup")
def signup_page() -> ResponseReturnValue:
    return render_template("account_signup.html", **LIMITS)


@blueprint.get("/login")
def login_page() -> ResponseReturnValue:
    if current_account() is not None:  # signed in already: the settings say as whom
        return redirect("/account", 302)
    return render_template("account_login.html")


@blueprint.get("/recover")
def recover_page() -> ResponseReturnValue:
    return render_template("account_recover.html", **LIMITS)


@blueprint.get("/account")
def settings_page() -> ResponseReturnValue:
    account = current_account()
    if account is None:
        return redirect("/login", 302)
    return render_template("account_settings.html", account=account, **LIMITS)


def signed_in() -> Account | None:
    """The template global behind the header's account link."""
    return current_account()


def install(app: Flask) -> None:
    app.register_blueprint(blueprint)
    app.add_template_global(signed_in, "signed_in")
