"""Accounts and their API keys in the database, and every query the app makes of them."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import NamedTuple

from sqlalchemy import DateTime, ForeignKey, String, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from corridor.data.database import Model, db
from corridor.data.keys import key_digest

KEY_PREFIX = "cor_"  # secret scanners find leaked keys by it
SHOWN_CHARS = 12  # of a key, shown in the account's table: the prefix and 8 random characters
MAX_LIVE_KEYS = 10
EXPIRY_DAYS = (30, 90, 365)


def utcnow() -> dt.datetime:
    """Now in UTC to the second, naive: how every time is stored (SQLite keeps no zone)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)


class Account(Model):
    """A holder: an email (lower case, unique) and a password hash (Werkzeug's scrypt)."""

    __tablename__ = "accounts"
    __table_args__ = {"sqlite_autoincrement": True}  # an id is never reused: an old session cannot open a new account

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime())
    keys: Mapped[list[ApiKey]] = relationship(
        back_populates="account", cascade="all, delete-orphan", passive_deletes=True, order_by="ApiKey.id"
    )


class ApiKey(Model):
    """One of a holder's keys: its name, first characters and digest, never the key."""

    __tablename__ = "api_keys"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    shown: Mapped[str] = mapped_column(String(SHOWN_CHARS))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime())
    expires_at: Mapped[dt.datetime | None] = mapped_column(DateTime())
    last_used_at: Mapped[dt.datetime | None] = mapped_column(DateTime())
    account: Mapped[Account] = relationship(back_populates="keys")

    def expired(self, now: dt.datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now


class EmailTaken(Exception):
    """Another account has this email, in any case."""


class TooManyKeys(Exception):
    """The holder has MAX_LIVE_KEYS live keys already."""


class KeyRecord(NamedTuple):
    """What the hot path keeps of a live account key."""

    id: int
    expires_at: dt.datetime | None


def normal_email(email: str) -> str:
    return email.strip().lower()


# checked when no account has the email, so that an unknown email takes as long as a wrong password: the
# hash, with Werkzeug's default method, of a random text nobody kept
_STAND_IN_HASH = (
    "scrypt:32768:8:1$lGmV62vWyypx3ACL$efb06110694a2407076f9505f274188978de2d765a8191904a264db4a7a63720"
    "cf655b5eb47f8176f9761db22b16e68b8e03dee068972161c1951b960fbe0289"
)


def create_account(email: str, password: str) -> Account:
    account = Account(email=normal_email(email), password_hash=generate_password_hash(password), created_at=utcnow())
    db.session.add(account)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise EmailTaken() from None
    return account


def authenticate(email: str, password: str) -> Account | None:
    """The account with this email and password; None for a wrong password and an unknown email alike."""
    account = db.session.scalar(select(Account).where(Account.email == normal_email(email)))
    if account is None:
        check_password_hash(_STAND_IN_HASH, password)
        return None
    return account if check_password_hash(account.password_hash, password) else None


def create_key(account: Account, name: str, expires_days: int | None) -> tuple[str, ApiKey]:
    now = utcnow()
    # two requests at once must not both make the 11th: PostgreSQL locks the holder's row until commit; SQLite lets
    # one writer at a time in, so counting after the insert sees every other key made
    db.session.execute(select(Account.id).where(Account.id == account.id).with_for_update())
    key = KEY_PREFIX + secrets.token_urlsafe(32)  # 43 characters, 256 bits
    row = ApiKey(
        account=account,
        name=name,
        shown=key[:SHOWN_CHARS],
        digest=key_digest(key).hex(),
        created_at=now,
        expires_at=now + dt.timedelta(days=expires_days) if expires_days else None,
    )
    db.session.add(row)
    db.session.flush()
    unexpired = ApiKey.expires_at.is_(None) | (ApiKey.expires_at > now)
    live = select(func.count()).select_from(ApiKey).where(ApiKey.account_id == account.id, unexpired)
    if db.session.execute(live).scalar_one() > MAX_LIVE_KEYS:
        db.session.rollback()
        raise TooManyKeys()
    db.session.commit()
    return key, row


def revoke_key(key: ApiKey) -> str:
    db.session.delete(key)
    db.session.commit()
    return key.digest


def delete_account(account: Account) -> list[str]:
    digests = [key.digest for key in account.keys]
    db.session.delete(account)  # its keys with it
    db.session.commit()
    return digests


def find_key(digest: str) -> KeyRecord | None:
    """The key with this digest, live or expired; joined with its account, which a deleted one's is not."""
    row = db.session.execute(select(ApiKey.id, ApiKey.expires_at).join(Account).where(ApiKey.digest == digest)).first()
    db.session.rollback()  # the connection goes back to the pool at once
    return KeyRecord(*row) if row else None


def record_use(key_id: int, now: dt.datetime, every: dt.timedelta) -> None:
    """Set the key's last use to `now` unless one was written less than `every` ago (by any instance)."""
    db.session.execute(
        update(ApiKey)
        .where(ApiKey.id == key_id)
        .where(ApiKey.last_used_at.is_(None) | (ApiKey.last_used_at <= now - every))
        .values(last_used_at=now)
    )
    db.session.commit()
