"""The turn loop over many whole games: stalls, unpinged deciders, double pings and pings of
a player already playing (all must be 0).

Plays seeded random complete games through the service with a recording announcer, each seed
in the eight mixes (intro; full; full+Leeghwater; Colorado; Nile; full+Leeghwater+Colorado;
with automas: intro, full+Leeghwater), 2-4
players by seed, with the checks of tests/service/turnloop.py after every step, and prints
what they found.

With absences (the default: absences=1) every game has a turn clock (12, 24 or 48 hours and
each timeout policy, by seed), time passes between steps, and now and then the player to move
is absent for long enough that their time may run out, or sets time away; games that never
end are counted too.

Run: .venv/bin/python bench/turn_loop.py [games=500] [first_seed=1000] [absences=1]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchargs import numbers

from tests.service.turnloop import MIXES, Figures, play_checked, players_for


async def main(games: int, first: int, absences: bool = True) -> int:
    """Play the games; return the exit status (1 if any check failed)."""
    mixes = list(MIXES)
    by_mix = {mix: Figures(games=0) for mix in mixes}
    start, cpu = time.perf_counter(), time.process_time()
    played = 0
    with tempfile.TemporaryDirectory(prefix="turn-loop-") as tmp:
        # Each seed is played in every mix, so that each mix sees every player count.
        for seed in range(first, first + -(-games // len(mixes))):
            for mix in mixes:
                db = Path(tmp) / f"{mix}-{seed}.sqlite3"
                figures = await play_checked(mix, seed, players_for(seed), db, absences=absences)
                by_mix[mix].add(figures)
                db.unlink()
                played += 1
                if played % 60 == 0:
                    print(f"  {played} games, {time.perf_counter() - start:.0f} s", flush=True)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    total = Figures(games=0)
    print(
        f"{'mix':<26}{'games':>6}{'steps':>8}{'confirms':>9}{'forced':>7}{'skipped':>8}"
        f"{'stalls':>7}{'unpinged':>9}{'double':>7}{'playing':>8}{'no rem.':>8}"
    )
    for mix, figures in by_mix.items():
        total.add(figures)
        print(_row(mix, figures))
    print(_row("all", total))
    print(
        f"{total.games} games, {total.steps} steps in {elapsed:.1f} s "
        f"({elapsed / max(total.games, 1):.2f} s a game; the machine may be shared), "
        f"{cpu:.1f} s of CPU"
    )
    expiries = {k: v for k, v in sorted(total.kinds.items()) if k.startswith("expiry")}
    print(
        f"absences {total.absences}, time away set {total.away}, expiries {total.expiries} "
        f"{expiries}, games that never ended {total.unended}"
    )
    print(
        f"stalls {total.stalls}, unpinged deciders {total.unpinged}, "
        f"double pings {total.double_pings}, pings of a player already playing "
        f"{total.playing_pings}, deciders without a reminder "
        f"{total.missing_reminders}, heads-ups {total.heads_ups}"
    )
    for problem in total.problems[:20]:
        print("  ", problem)
    return 0 if total.clean and not total.problems else 1


def _row(name: str, f: Figures) -> str:
    return (
        f"{name:<26}{f.games:>6}{f.steps:>8}{f.confirms:>9}{f.forced_turns:>7}"
        f"{f.skipped_answers:>8}{f.stalls:>7}{f.unpinged:>9}{f.double_pings:>7}{f.playing_pings:>8}"
        f"{f.missing_reminders:>8}"
    )


if __name__ == "__main__":
    count, first_seed, with_absences = numbers(
        __doc__,
        ("games", 500, "games to play"),
        ("first_seed", 1000, "the first game's seed"),
        ("absences", 1, "1: clocked games with absences, 0: without"),
    )
    sys.exit(asyncio.run(main(count, first_seed, bool(with_absences))))
