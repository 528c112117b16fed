"""Database settings as text: telling a PostgreSQL URL from a file, and hiding passwords."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

#: URL schemes that select the PostgreSQL backend.
POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(database: object) -> bool:
    """Whether a database setting is a PostgreSQL URL (postgresql://...) and not a file."""
    return isinstance(database, str) and database.split(":", 1)[0].lower() in POSTGRES_SCHEMES


def redact_url(url: str) -> str:
    """The URL without its password, for logs and messages."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "(a database URL that cannot be read)"
    if password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
