"""The account pages, `/account/`: sign up, sign in, and the API keys section where holders make and revoke keys; their
forms (forms.py) validate every field and carry a CSRF token."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from werkzeug.exceptions import NotFound
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from corridor.accounts import models
from corridor.accounts.forms import LoginForm, NewKeyForm, PasswordForm, SignupForm, given
from corridor.accounts.models import MAX_LIVE_KEYS, Account, EmailTaken, TooManyKeys, utcnow
from corridor.data.database import db
from corridor.limits.budgets import count_failed_sign_in, limit_password_check, refuse_spent_email
from corridor.state import current_service
from corridor.state.policy import Policy, PolicyBlueprint

POLICY = Policy(error_page="account/error.html")  # for browsers: errors come as pages
# no script at all on these pages, no framing, forms posted only here
CONTENT_POLICY = "default-src 'self'; script-src 'none'; frame-ancestors 'none'; form-action 'self'"

bp = PolicyBlueprint("account", __name__, url_prefix="/account", template_folder="templates", policy=POLICY)
csrf = CSRFProtect()
bp.before_request(csrf.protect)  # every POST here carries the CSRF token of a page this service rendered; else 400


@bp.app_template_filter()
def minute(value: dt.datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else "never"


@bp.after_request
def page_headers(response: Response) -> Response:
    response.headers.update(
        {"Content-Security-Policy": CONTENT_POLICY, "Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
    )
    return response


def holder_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Run `view` with the account this browser is signed in to, if it still exists; else send it to sign in."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        account_id = session.get("account_id")
        account = db.session.get(Account, account_id) if isinstance(account_id, int) else None
        if account is None:
            return redirect(url_for(".login"), 303)
        return view(account, *args, **kwargs)

    return wrapper


def sign_in(account: Account) -> Response:
    """A fresh session for `account` (nothing of the signed-out one kept), and the way to its keys."""
    session.clear()
    session["account_id"] = account.id
    return redirect(url_for(".overview"), 303)


def _forget(*digests: str) -> None:
    keys = current_service().account_keys
    assert keys is not None, "register_accounts made it"
    keys.forget(*digests)


def page(template: str, status: int = 200, **context: Any) -> tuple[str, int]:
    return render_template(f"account/{template}", **context), status


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> Any:
    form = SignupForm()
    if request.method == "POST":
        limit_password_check()
    if form.validate_on_submit():
        try:
            account = models.create_account(given(form.email), given(form.password))
        except EmailTaken:
            form.email.errors = ["An account with this email exists: sign in instead."]
        else:
            current_app.logger.info("Account %d signed up.", account.id)
            return sign_in(account)
    return page("signup.html", 400 if form.errors else 200, form=form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    form, wrong = LoginForm(), False
    if request.method == "POST":
        limit_password_check()
    if form.validate_on_submit():
        refuse_spent_email(given(form.email))
        account = models.authenticate(given(form.email), given(form.password))
        if account is not None:
            return sign_in(account)
        count_failed_sign_in(given(form.email))
        wrong = True
    return page("login.html", 400 if wrong or form.errors else 200, form=form, wrong=wrong)


@bp.post("/logout")
def logout() -> Response:
    session.clear()
    flash("You are signed out.")
    return redirect(url_for(".login"), 303)


@bp.get("")
@holder_only
def overview(account: Account) -> Any:
    return keys_page(account, new_key=session.pop("new_key", None))


def keys_page(
    account: Account,
    status: int = 200,
    new_key: str | None = None,
    key_form: NewKeyForm | None = None,
    delete_form: PasswordForm | None = None,
    key_error: str | None = None,
) -> tuple[str, int]:
    now = utcnow()
    return page(
        "account.html",
        status,
        account=account,
        now=now,
        new_key=new_key,
        live=sum(not key.expired(now) for key in account.keys),
        max_keys=MAX_LIVE_KEYS,
        key_form=key_form or NewKeyForm(formdata=None),
        delete_form=delete_form or PasswordForm(formdata=None),
        action=FlaskForm(formdata=None),  # a button's form, only the CSRF token: sign out
        key_error=key_error,
    )


@bp.post("/keys")
@holder_only
def new_key(account: Account) -> Any:
    form = NewKeyForm()
    if not form.validate_on_submit():
        return keys_page(account, 400, key_form=form)
    days = None if form.expires_days.data == "none" else int(form.expires_days.data)
    try:
        key, row = models.create_key(account, given(form.name), days)
    except TooManyKeys:
        refused = f"You have {MAX_LIVE_KEYS} live keys, the most an account may hold: revoke one first."
        return keys_page(account, 400, key_form=form, key_error=refused)
    _forget(row.digest)
    current_app.logger.info("Account %d made API key %d.", account.id, row.id)
    # shown by the page this redirect opens, which forgets it: a reload there makes nothing and shows it no more
    session["new_key"] = key
    return redirect(url_for(".overview"), 303)


@bp.route("/keys/<int(max=2147483647):key_id>/revoke", methods=["GET", "POST"])
@holder_only
def revoke(account: Account, key_id: int) -> Any:
    """The Revoke button's page asks first (no script needed); only its own form, with `confirm=yes`, revokes."""
    key = next((key for key in account.keys if key.id == key_id), None)
    if key is None:
        raise NotFound()  # another holder's key, or none: the same answer
    if request.method == "GET" or request.form.get("confirm") != "yes":
        return page("revoke.html", key=key, action=FlaskForm(formdata=None))
    _forget(models.revoke_key(key))
    current_app.logger.info("Account %d revoked API key %d.", account.id, key_id)
    flash("The key is revoked: it stops working within seconds.")
    return redirect(url_for(".overview"), 303)


@bp.post("/delete")
@holder_only
def delete(account: Account) -> Any:
    limit_password_check()
    form = PasswordForm()
    if not form.validate_on_submit():
        return keys_page(account, 400, delete_form=form)
    refuse_spent_email(account.email)
    if not check_password_hash(account.password_hash, given(form.password)):
        count_failed_sign_in(account.email)
        form.password.errors = ["The password is wrong; the account is kept."]
        return keys_page(account, 400, delete_form=form)
    account_id = account.id
    _forget(*models.delete_account(account))
    current_app.logger.info("Account %d deleted with its keys.", account_id)
    session.clear()
    flash("Your account and its keys are deleted.")
    return redirect(url_for(".signup"), 303)
