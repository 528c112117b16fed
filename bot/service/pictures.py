"""A part of the service, what the pictures need besides the state: who plays each seat, the
theme, and alt text.

Owns: how a picture names its players, its theme and its alt text, over the store (a user's
theme), the config (the server's theme) and the adapter's `PeopleNamer`, given at
construction.

The service knows who sits where; an adapter tells it what people are called (`PeopleNamer`:
Discord's display names and usernames, the console's --names). The renderer gets names as
data (`renderer.people.Player`). Channel pictures are drawn in the game's theme (one picture
serves everyone), a player's private pictures in their own (`/barrage settings theme:`).
Every picture carries alt text: what it shows, whose turn it is, each company's score and
what the last turn did (`renderer.describe.alt_text`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.service.loading import Loaded
from bot.service.types import Line, ServiceConfig, render_lines
from bot.store import USER_THEMES, Store

#: Looks up (display name, username) of users in a server: the adapter's (None: nobody named).
PeopleNamer = Callable[[int, Sequence[int]], Awaitable[Mapping[int, tuple[str, str]]]]
#: The themes a game or a player may choose (renderer.theme.THEMES).
THEME_CHOICES = USER_THEMES


def seat_fallback(seat: int) -> str:
    """What a picture calls a seat whose player's name it cannot draw: 'Player 2'."""
    return f"Player {seat + 1}"


class Pictures:
    """The people, theme and alt text of a game's pictures."""

    def __init__(
        self, store: Store, config: ServiceConfig, people_namer: PeopleNamer | None = None
    ) -> None:
        """Pictures of `store`'s games; `people_namer`: how people are called in a server
        (the adapter's; None: nobody is named, each is "Player N")."""
        self.store = store
        self.config = config
        self.people_namer = people_namer

    async def names(self, guild_id: int, users: Sequence[int]) -> Mapping[int, tuple[str, str]]:
        """(display name, username) of each user the adapter knows ({} without one)."""
        if self.people_namer is None or not users:
            return {}
        try:
            return await self.people_namer(guild_id, tuple(dict.fromkeys(users)))
        except Exception:  # a lookup that fails leaves the picture with "Player N"
            return {}

    async def players(self, loaded: Loaded, state: Any) -> tuple[Any, ...]:
        """Who plays each company of ``state``, as the renderer takes them (names as data)."""
        from renderer.people import Player

        companies = getattr(state, "companies", None) or {}
        if not companies:
            return ()
        known = await self.names(loaded.meta.guild_id, [u for u in loaded.seats if u])
        out = []
        for cid, company in companies.items():
            seat = company.seat
            user = loaded.user_at_seat(seat)
            seat_kind = loaded.computer_of(cid)
            if seat_kind is not None and seat_kind.kind == "ai":
                # An AI player (at its own seat, or playing a person's): marked with its level.
                out.append(Player(cid, computer=seat_kind))
                continue
            if user is None:
                out.append(Player(cid))  # an automa: the renderer marks it from the state
                continue
            display, username = known.get(user, ("", ""))
            fallback = username if username else seat_fallback(seat)
            out.append(
                Player(cid, display, fallback if fallback != display else seat_fallback(seat))
            )
        return tuple(out)

    def game_theme(self, loaded: Loaded) -> str:
        """The theme of the pictures posted in a game's channel."""
        theme = loaded.options.get("theme")
        return theme if theme in THEME_CHOICES else self.config.theme

    async def user_theme(self, user_id: int | None, loaded: Loaded | None = None) -> str:
        """The theme of a user's private pictures: theirs, else the game's, else the server's."""
        if user_id is not None:
            settings = await self.store.get_user_settings(user_id)
            theme = getattr(settings, "theme", None)
            if theme in THEME_CHOICES:
                return str(theme)
        return self.game_theme(loaded) if loaded is not None else self.config.theme

    async def alt(
        self,
        loaded: Loaded,
        state: Any,
        what: str,
        players: tuple[Any, ...],
        *,
        last: Sequence[Line] = (),
        changed: Sequence[str] = (),
        since: str = "",
        deadlines: Sequence[tuple[str, int]] = (),
    ) -> str:
        """A picture's alt text (at most 1,024 characters)."""
        from renderer.describe import alt_text

        text = ""
        if last:
            users = [u for line in last for u in line.users]
            known = await self.names(loaded.meta.guild_id, users)
            text = render_lines(last, lambda u: known.get(u, ("", ""))[0] or "a player")
        return alt_text(
            state,
            what,
            players=players,
            last_turn=text.splitlines(),
            changed=changed,
            changed_since=since,
            deadlines=deadlines,
        )


def _within(text: str) -> str:
    """An alt text within Discord's 1,024 characters (cut at a word)."""
    from renderer.describe import ALT_LIMIT
    from renderer.describe import _within as cut

    return cut(text, ALT_LIMIT)


def leaderboard_alt(view: Any, names: Mapping[int, str]) -> str:
    """The leaderboard picture's alt text: the ranked players, then the companies."""
    players = "; ".join(
        f"{s.place}. {names.get(int(s.key), 'a player')}: {s.wins} of {s.games} games won, "
        f"{s.mean_vp:.0f} VP on average"
        for s in view.players[:10]
        if s.place is not None
    )
    companies = "; ".join(f"{s.name}: {s.wins} of {s.games} won" for s in view.companies)
    return _within(
        f"Leaderboard of {view.matched} finished games. Players: {players or 'none ranked yet'}. "
        f"Companies: {companies or 'none'}."
    )


def charts_alt(game: Any, names: Mapping[int, str]) -> str:
    """A finished game's charts' alt text: each seat's VP and energy by round."""
    from bot.rules.content import company_name

    seats = "; ".join(
        f"{company_name(s.company)}"
        + (f" ({names[s.user_id]})" if s.user_id in names else " (automa)" if s.automa else "")
        + f": {s.vp} VP, energy by round {', '.join(str(e) for e in s.energy_by_round) or 'none'}"
        for s in sorted(game.result.seats, key=lambda s: s.rank)
    )
    return _within(f"Charts of Barrage game {game.number}: VP by source and energy. {seats}.")


def replay_alt(game: Any, pace: str, names: Mapping[int, str]) -> str:
    """A replay's alt text: what it animates and how the game ended."""
    from bot.rules.content import company_name

    ranking = ", ".join(
        f"{s.rank}. {company_name(s.company)}"
        + (f" ({names[s.user_id]})" if s.user_id in names else "")
        + f" {s.vp} VP"
        for s in sorted(game.result.seats, key=lambda s: s.rank)
    )
    return _within(
        f"Animated replay of Barrage game {game.number}, the map one frame per {pace}. "
        f"Final ranking: {ranking}."
    )
