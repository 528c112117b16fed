"""A part of the service: a user's own settings — time zone, quiet hours, DMs, skipping
Confirm, reminder hours, the theme of the pictures only they see and the "you're next"
heads-up.

Owns: reading and changing a user's settings (their rows in the store). It sees only the
store; the service (bot/service/service.py) holds it as `GameService.user_settings`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from bot.service.errors import InvalidSettings
from bot.service.faults import refuse_store_faults
from bot.store import USER_THEMES, InvalidDataError, Store, UserSettings

#: "Leave this setting unchanged" in `Settings.update`.
UNCHANGED: Any = object()


@refuse_store_faults
class Settings:
    """Read and change a user's settings."""

    def __init__(self, store: Store) -> None:
        """The settings kept in `store`."""
        self.store = store

    async def get(self, user_id: int) -> UserSettings:
        """A user's settings."""
        return await self.store.get_user_settings(user_id)

    async def update(
        self,
        user_id: int,
        *,
        time_zone: str | None = UNCHANGED,
        quiet_hours: tuple[int, int] | None = UNCHANGED,
        dm_opt_in: bool = UNCHANGED,
        skip_confirm: bool = UNCHANGED,
        reminder_hours: int | None = UNCHANGED,
        theme: str | None = UNCHANGED,
        heads_up: bool = UNCHANGED,
    ) -> UserSettings:
        """Change some settings; quiet hours are (start, end) minutes after local midnight."""
        current = await self.store.get_user_settings(user_id)
        changes: dict[str, Any] = {}
        if time_zone is not UNCHANGED:
            if time_zone and time_zone not in time_zone_names():
                shown = time_zone if len(time_zone) <= 40 else time_zone[:37] + "..."
                raise InvalidSettings(
                    f"'{shown}' is not a time zone; use an IANA name like Europe/Berlin "
                    "(the suggestions list them)."
                )
            changes["time_zone"] = time_zone or None
        if quiet_hours is not UNCHANGED:
            start, end = quiet_hours if quiet_hours else (None, None)
            changes["quiet_start"], changes["quiet_end"] = start, end
        if dm_opt_in is not UNCHANGED:
            changes["dm_opt_in"] = bool(dm_opt_in)
        if skip_confirm is not UNCHANGED:
            changes["skip_confirm"] = bool(skip_confirm)
        if reminder_hours is not UNCHANGED:
            changes["reminder_hours"] = reminder_hours
        if theme is not UNCHANGED:
            if theme is not None and theme not in USER_THEMES:
                raise InvalidSettings(
                    f"There is no picture theme '{str(theme)[:40]}'; choose one of "
                    f"{', '.join(USER_THEMES)}."
                )
            changes["theme"] = theme
        if heads_up is not UNCHANGED:
            changes["heads_up"] = bool(heads_up)
        try:
            new = replace(current, **changes)
        except InvalidDataError as exc:
            raise InvalidSettings(f"Those settings cannot be used: {exc}.") from None
        return await self.store.put_user_settings(new)


@cache
def time_zone_names() -> frozenset[str]:
    """The IANA time zone names this machine knows (a folder such as 'Etc' is not one)."""
    return frozenset(available_timezones())
