"""The preferences over HTTP, and on every page.

`GET /api/preferences` answers the current preferences, `POST /api/preferences` changes some
or all of them (a JSON object, server.preferences.choices) and answers them whole: saved to the
account when signed in, and always written to the browser's cookie, so they hold after signing
out too. /preferences is the page that sets them (signed in or not; the account's settings
page has the same form). `page_preferences` is the template global every page's <html> is
rendered with: the signed-in account's saved preferences, else the cookie's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from server.accounts.identity import current_account
from server.accounts.sessions import is_secure
from server.edge.http import answer_errors_as_json, json_body
from server.preferences.choices import (
    BOARDS,
    COOKIE,
    COOKIE_MAX_AGE,
    THEMES,
    THREAT_MODES,
    Preferences,
    html_classes,
    make_cookie,
    parse_preferences,
    preferences_json,
    read_cookie,
)
from server.preferences.tables import PreferenceTables
from server.shared.slots import Slot

PREFERENCES: Slot[PreferenceTables] = Slot("preference tables")

blueprint = answer_errors_as_json(
    Blueprint("preferences_api", __name__, url_prefix="/api/preferences")
)
page = Blueprint("preferences_page", __name__)
# What the form offers, for the templates (templates/preferences_form.html).
FORM = {"boards": BOARDS, "themes": THEMES, "threat_modes": THREAT_MODES}


def current_preferences() -> Preferences:
    """The signed-in account's saved preferences, else this browser's cookie's (once per
    request)."""
    if "preferences" not in g:
        account = current_account()
        saved = PREFERENCES.get().load(account.id) if account is not None else None
        g.preferences = saved or read_cookie(request.cookies.get(COOKIE))
    preferences: Preferences = g.preferences
    return preferences


@blueprint.get("")
def read() -> Response:
    return jsonify({"ok": True, "preferences": preferences_json(current_preferences())})


@blueprint.post("")
def change() -> Response:
    preferences = parse_preferences(json_body(), current_preferences())
    account = current_account()
    if account is not None:
        PREFERENCES.get().save(account.id, preferences)
    g.preferences = preferences
    response = jsonify({"ok": True, "preferences": preferences_json(preferences)})
    response.set_cookie(
        COOKIE,
        make_cookie(preferences),
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        secure=is_secure(current_app.config),
    )
    return response


@page.get("/preferences")
def preferences_page() -> ResponseReturnValue:
    return render_template("preferences.html", **FORM)


def page_preferences() -> dict[str, Any]:
    """The template global behind <html>'s classes and its `data-preferences` JSON."""
    preferences = current_preferences()
    return {"classes": html_classes(preferences), "values": preferences_json(preferences)}


def install(app: Flask) -> None:
    app.register_blueprint(blueprint)
    app.register_blueprint(page)
    app.add_template_global(page_preferences, "page_preferences")
    app.jinja_env.globals["preference_choices"] = FORM
