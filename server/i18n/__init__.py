"""The visitor's language: which one a request is served in, the picker, the scripts' catalog.

The pages, the server's refusals and chesscore's sentences go through the `messages` gettext
domain (Flask-Babel), the scripts' messages through the `js` domain, served here as JSON and
embedded in every page for static/js/i18n.js. A request's language is the signed-in account's
setting, else the `lang` cookie the picker on every page sets, else the best of the browser's
`Accept-Language`, else English. This folder stands on the ground floor beside the edge: it
knows no account, so the root hands it the two callbacks that read and keep an account's
language (`install`). The catalogs live in `translations/`; docs/i18n.md tells how to add a
message or a language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from babel.support import NullTranslations, Translations
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    jsonify,
    redirect,
    request,
)
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response as BaseResponse

from chesscore.words import ENGLISH, Translator
from server.shared.config import FRONTEND
from server.shared.errors import translate_with

TRANSLATIONS = FRONTEND / "translations"
# Each language by its own name, as the picker lists it.
LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "pt": "Português",
    "sv": "Svenska",
}
DEFAULT = "en"
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600

blueprint = Blueprint("i18n", __name__)


@dataclass
class AccountLanguage:
    """The root's two callbacks: the signed-in account's language (None: none, or no account)
    and keeping a new one for it (nothing when nobody is signed in)."""

    read: Callable[[], str | None]
    keep: Callable[[str], None]


def install(
    app: Flask, account: AccountLanguage, connection_language: Callable[[], str | None]
) -> None:
    """Flask-Babel on `app`, choosing each request's language by `select_language`;
    `connection_language` is the language of the Socket.IO connection whose event is served
    without a request context (server.edge.dispatch.bare_language), None outside one."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.extensions["i18n_account"] = account
    Babel(app, locale_selector=select_language)
    app.register_blueprint(blueprint)
    app.context_processor(_page_values)
    app.after_request(_vary_by_language)
    _connection_language[0] = connection_language
    translate_with(refusal_words)


def _no_connection() -> str | None:
    return None


# The root's callback for the language of an event served without a request context; one for
# the process, like the refusals' translation it serves.
_connection_language: list[Callable[[], str | None]] = [_no_connection]


def _vary_by_language(response: Response) -> Response:
    """A page differs by the browser's languages and the picker's cookie: no cache may hand
    one visitor's language to another."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def language_words(language: str) -> Translator:
    """What chesscore's sentences and the refusals are said with in `language` (one of the
    site's): its catalog, read once per process; English as written."""
    if language == DEFAULT:
        return ENGLISH
    # babel's translations have gettext's four methods; its stubs type them loosely.
    return cast(Translator, server_catalog(language))


def request_words() -> Translator:
    """The words of this request's language."""
    return language_words(current_language())


def refusal_words() -> Translator:
    """The words a refusal is said with: the language of the request it answers; an event
    served without a request context (a move) in its connection's language, chosen at connect;
    else English."""
    if not has_request_context():
        return language_words(_connection_language[0]() or DEFAULT)
    return request_words()


def translate_refusal(message: str) -> str:
    """`message`, a msgid without values, in the words of `refusal_words`."""
    return refusal_words().gettext(message)


@cache
def server_catalog(lang: str) -> NullTranslations:
    """The `messages` domain of `lang`, read once per process, for the refusals worded outside
    a request (Flask-Babel's catalogs are the request's)."""
    return Translations.load(str(TRANSLATIONS), [lang], domain="messages")


def select_language() -> str:
    """The request's language: the account's, the cookie's, the browser's, English."""
    account: AccountLanguage = current_app.extensions["i18n_account"]
    for chosen in (account.read(), request.cookies.get(COOKIE)):
        if chosen in LANGUAGES:
            return chosen
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def current_language() -> str:
    return str(get_locale() or DEFAULT)


def _page_values() -> dict[str, Any]:
    return {
        "current_language": current_language,
        "languages": LANGUAGES,
        "script_catalog": lambda: script_catalog(current_language()),
    }


@blueprint.post("/language")
def choose_language() -> BaseResponse:
    """The picker's form: the language kept in a cookie (and by the account), then back."""
    chosen = request.form.get("language", "")
    back = request.form.get("next", "/")
    # Back to a page of this site only: a path, never `//host` or a full address.
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"
    response = redirect(back, code=303)
    if chosen in LANGUAGES:
        response.set_cookie(COOKIE, chosen, max_age=COOKIE_SECONDS, samesite="Lax")
        current_app.extensions["i18n_account"].keep(chosen)
    return response


@blueprint.get("/i18n/<lang>.json")
def catalog_json(lang: str) -> Response | tuple[Response, int]:
    """The scripts' catalog of `lang`, for scripts that are not on one of our pages."""
    if lang not in LANGUAGES:
        return jsonify({"ok": False, "error": "unknown language", "code": "not_found"}), 404
    response = jsonify(script_catalog(lang))
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@cache
def script_catalog(lang: str) -> dict[str, Any]:
    """The `js` domain of `lang` as static/js/i18n.js reads it: the language, its plural
    forms expression (gettext's) and each message's translation (a list for plural forms);
    read once per process from the compiled catalog."""
    messages: dict[str, str | list[str]] = {}
    plural = "(n != 1)"
    if lang != DEFAULT:
        loaded = Translations.load(str(TRANSLATIONS), [lang], domain="js")
        catalog = getattr(loaded, "_catalog", {})
        plural = loaded.info().get("plural-forms", "").partition("plural=")[2].rstrip(";") or plural
        plurals: dict[str, dict[int, str]] = {}
        for key, text in catalog.items():
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {})[key[1]] = text
            elif key and text:
                messages[key] = text
        messages.update({key: [forms[i] for i in sorted(forms)] for key, forms in plurals.items()})
    return {"language": lang, "plural": plural, "messages": messages}
