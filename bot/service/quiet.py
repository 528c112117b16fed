"""Quiet hours in a player's own IANA time zone."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.store import UserSettings


def zone(name: str | None) -> dt.tzinfo:
    """The player's time zone (UTC when unset or unknown)."""
    if not name:
        return dt.UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # e.g. a folder such as "Etc"
        return dt.UTC


def in_quiet_hours(settings: UserSettings, now_ms: int) -> bool:
    """True when `now_ms` falls in the player's quiet hours."""
    if settings.quiet_start is None or settings.quiet_end is None:
        return False
    start, end = settings.quiet_start, settings.quiet_end
    if start == end:
        return False
    local = dt.datetime.fromtimestamp(now_ms / 1000, zone(settings.time_zone))
    minute = local.hour * 60 + local.minute
    if start < end:
        return start <= minute < end
    return minute >= start or minute < end  # wraps past midnight, e.g. 22:00–07:00


def quiet_end(settings: UserSettings, now_ms: int) -> int:
    """When the quiet hours that contain `now_ms` end (UTC ms); `now_ms` if not quiet."""
    if not in_quiet_hours(settings, now_ms):
        return now_ms
    assert settings.quiet_end is not None
    tz = zone(settings.time_zone)
    local = dt.datetime.fromtimestamp(now_ms / 1000, tz)
    end_time = dt.time(settings.quiet_end // 60, settings.quiet_end % 60)
    for days in (0, 1):
        day = local.date() + dt.timedelta(days=days)
        candidate = dt.datetime.combine(day, end_time, tzinfo=tz)
        if candidate > local:
            return int(candidate.timestamp() * 1000)
    raise AssertionError("quiet hours end within a day")


def not_quiet(settings: UserSettings, when_ms: int) -> int:
    """`when_ms`, or the end of the quiet hours it falls in."""
    return quiet_end(settings, when_ms)
