"""The account pages' forms (Flask-WTF): each validates its fields and carries a CSRF token."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField
from wtforms.fields import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3: types-WTForms 3.2 lacks it
from wtforms.validators import DataRequired, Email, InputRequired, Length, Regexp

from corridor.accounts.models import EXPIRY_DAYS

MIN_PASSWORD = 12
MAX_PASSWORD = 200  # hashing is memory-hard: a megabyte of password is refused, not hashed


def given(field: StringField) -> str:
    """A validated field's text: its InputRequired or DataRequired refused a field without one."""
    assert field.data is not None
    return field.data


def _stripped(value: str | None) -> str | None:
    return value.strip() if value else value


def _password(required: str, length: Length, **render_kw: Any) -> PasswordField:
    return PasswordField("Password", [InputRequired(required), length], render_kw=render_kw)


class _EmailForm(FlaskForm):
    email = StringField(
        "Email",
        [
            InputRequired("Enter your email address."),
            Length(max=254, message="An email address has at most 254 characters."),
            # email-validator's syntax rules, without asking DNS whether the domain takes mail
            Email("Enter an email address such as ana@example.com."),
        ],
        filters=[_stripped],
        render_kw={"autocomplete": "email", "type": "email"},
    )


class SignupForm(_EmailForm):
    password = _password(
        "Choose a password.",
        Length(MIN_PASSWORD, MAX_PASSWORD, f"Use {MIN_PASSWORD} to {MAX_PASSWORD} characters."),
        autocomplete="new-password",
        minlength=MIN_PASSWORD,
        maxlength=MAX_PASSWORD,
    )


class LoginForm(_EmailForm):
    password = _password(
        "Enter your password.", Length(max=MAX_PASSWORD), autocomplete="current-password", maxlength=MAX_PASSWORD
    )


class NewKeyForm(FlaskForm):
    name = StringField(
        "Name",
        [
            DataRequired("Name the key, for instance after the app that will use it."),
            Length(max=60, message="A name has at most 60 characters."),
            Regexp(r"[^\x00-\x1f\x7f]+\Z", message="A name is printable text."),
        ],
        filters=[_stripped],
        render_kw={"maxlength": 60, "placeholder": "e.g. checkout server"},
    )
    expires_days = SelectField(
        "Expires",
        choices=[SelectChoice(str(d), f"in {d} days") for d in EXPIRY_DAYS] + [SelectChoice("none", "never")],
        default="90",
    )


class PasswordForm(FlaskForm):
    """Deleting the account: the password again."""

    password = _password(
        "Enter your password to delete the account.", Length(max=MAX_PASSWORD), autocomplete="current-password"
    )


class ActionForm(FlaskForm):
    """A button's form: only the CSRF token (sign out, revoke)."""
