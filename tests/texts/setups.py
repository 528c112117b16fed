"""Every setup the text check plays: intro and full, each expansion and allowed combination,
2-4 seats, and seats of each computer kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.rules.catalogue import CATALOGUE
from bot.service.expansions import with_automas

#: How a game seats its computer companies: the keyword arguments of `create_game` for
#: `count` of them. Adding a kind of computer seat is one line here.
SEAT_KINDS: dict[str, Any] = {
    "automa": lambda count, level: {"automa": count, "automa_level": level},
    "ai": lambda count, level: {"ai": count, "ai_level": ai_level(level)},
    # One AI player beside automas (the rest of the computers).
    "ai+automa": lambda count, level: {
        "ai": 1,
        "ai_level": ai_level(level),
        "automa": count - 1,
        "automa_level": level,
    },
}
LEVELS = ("easy", "medium", "hard", "expert")
#: The turn clocks the plain games take in turn (none, and each timeout policy): their
#: deadlines, reminders and expiries are read too.
CLOCKS: tuple[dict[str, str], ...] = (
    {},
    {"clock": "12h", "timeout": "skip"},
    {"clock": "12h", "timeout": "ai"},
    {"clock": "12h", "timeout": "wait"},
)
#: Computer kinds that play every board (the automa does not play every expansion).
EVERY_BOARD = ("ai",)


def ai_level(level: str) -> str:
    """The AI's level for a game otherwise seated at an automa `level`."""
    return "strong" if level in ("hard", "expert") else "casual"


@dataclass(frozen=True)
class Setup:
    """One game to play: its options and how many of its seats are computers."""

    setup: str
    expansions: tuple[str, ...]
    players: int
    computers: int = 0
    seat_kind: str = "automa"
    level: str = "medium"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """A short name for reports: 'full+leeghwater 3p (2 automa hard)'."""
        mix = "+".join((self.setup, *self.expansions))
        level = ai_level(self.level) if self.seat_kind == "ai" else self.level
        bots = f" ({self.computers} {self.seat_kind} {level})" if self.computers else ""
        clock = f" clock {self.extra['clock']} {self.extra['timeout']}" if self.extra else ""
        return f"{mix} {self.players}p{bots}{clock}"

    def options(self) -> dict[str, Any]:
        """`create_game`'s keyword arguments."""
        options: dict[str, Any] = {
            "players": self.players,
            "setup": self.setup,
            "expansions": self.expansions,
        }
        if self.computers:
            options.update(SEAT_KINDS[self.seat_kind](self.computers, self.level))
        options.update(self.extra)
        return options


def computer_mixes() -> set[tuple[str, ...]]:
    """The expansion mixes that take computer companies (automas)."""
    taken, _ = with_automas()
    ok = {n for n, info in CATALOGUE.expansions.items() if info.display_name in taken}
    return {combo for combo in CATALOGUE.combinations() if set(combo) <= ok}


def all_setups(rounds: int = 1) -> list[Setup]:
    """Each setup x mix x seat count once per round (seats and levels vary with the round),
    and each mix that takes computers with 1 to 3 of each kind."""
    found: list[Setup] = []
    computer_ok = computer_mixes()
    for r in range(rounds):
        for combo in CATALOGUE.combinations():
            for setup in ("intro", "full"):
                if any(setup not in CATALOGUE.info(n).setups for n in combo):
                    continue
                players = 2 + (r + len(combo) + (setup == "full")) % 3
                clock = CLOCKS[sum(1 for f in found if not f.computers) % len(CLOCKS)]
                found.append(Setup(setup, combo, players, extra=dict(clock)))
                if r == 0:
                    # An AI player on every board: 1 against the person(s), 2-4 seats.
                    seats = 2 + len(found) % 3
                    level = LEVELS[len(found) % len(LEVELS)]
                    kind = "ai+automa" if combo in computer_ok and seats > 2 else "ai"
                    found.append(Setup(setup, combo, seats, 1 if kind == "ai" else 2, kind, level))
                if combo in computer_ok:
                    for kind in ("automa",):
                        seats = 2 + (r + len(found)) % 3
                        computers = 1 + (r + len(found)) % (seats - 1) if seats > 2 else 1
                        level = LEVELS[(r + len(found)) % len(LEVELS)]
                        found.append(Setup(setup, combo, seats, computers, kind, level))
                        # A solo game: one person against the most computers.
                        if r == 0:
                            found.append(Setup(setup, combo, 4, 3, kind, LEVELS[-1 - len(combo)]))
    return found
