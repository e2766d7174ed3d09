"""The account pages' forms: what each field takes, and the sentence that refuses it."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField
from wtforms.fields import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3: types-WTForms 3.2 lacks it
from wtforms.validators import DataRequired, Email, InputRequired, Length, ValidationError

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


# controls, surrogates, private use, unassigned, line and paragraph separators; and the marks that reorder text
# shown after them (U+202A–202E, U+2066–2069), while the joiners Persian and emoji need (U+200C, U+200D) pass
_UNPRINTABLE = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
_REORDERING = {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def _printable(form: FlaskForm, field: StringField) -> None:
    if any(c in _REORDERING or unicodedata.category(c) in _UNPRINTABLE for c in field.data or ""):
        raise ValidationError("A name is printable text.")


class NewKeyForm(FlaskForm):
    name = StringField(
        "Name",
        [
            DataRequired("Name the key, for instance after the app that will use it."),
            Length(max=60, message="A name has at most 60 characters."),
            _printable,
        ],
        filters=[_stripped],
        render_kw={"maxlength": 60, "placeholder": "e.g. checkout server"},
    )
    expires_days = SelectField(
        "Expires",
        choices=[SelectChoice(str(d), f"in {d} days") for d in EXPIRY_DAYS] + [SelectChoice("none", "never")],
        default="90",
    )


class PasswordForm(FlaskForm):  # deleting the account: the password again
    password = _password(
        "Enter your password to delete the account.", Length(max=MAX_PASSWORD), autocomplete="current-password"
    )
