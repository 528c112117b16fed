"""The turn clock's pure arithmetic (bot/service/clock.py): banks, charged time, deadlines."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.service import clock
from bot.service.clock import HOUR_MS, Terms
from bot.store import UserSettings

T24 = Terms(24 * HOUR_MS, "wait")
START = int(dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC).timestamp() * 1000)


def test_terms_from_options() -> None:
    assert clock.terms_of({"clock": "12h", "timeout": "skip"}) == Terms(12 * HOUR_MS, "skip")
    assert clock.terms_of({"clock": "none"}) is None
    assert clock.terms_of({}) is None
    assert clock.terms_of({"clock": "48h"}) == Terms(48 * HOUR_MS, "wait")
    assert T24.cap == 48 * HOUR_MS


def test_bank_returns_a_quarter_within_the_allowance_and_is_capped() -> None:
    assert clock.settle(T24, 10 * HOUR_MS, 3 * HOUR_MS) == 16 * HOUR_MS
    assert clock.settle(T24, 46 * HOUR_MS, 24 * HOUR_MS) == 48 * HOUR_MS  # the cap


def test_a_slow_turn_draws_on_the_bank_never_below_zero() -> None:
    assert clock.settle(T24, 48 * HOUR_MS, 30 * HOUR_MS) == 42 * HOUR_MS
    assert clock.settle(T24, 5 * HOUR_MS, 40 * HOUR_MS) == 0


def test_charged_time_leaves_free_spans_out() -> None:
    free = clock.merge([(20, 30), (25, 40), (60, 70), (5, 5)])
    assert free == [(20, 40), (60, 70)]
    assert clock.charged(0, 100, free) == 70
    assert clock.charged(30, 65, free) == 35 - 10 - 5
    assert clock.charged(50, 40, free) == 0


def test_reach_is_the_inverse_of_charged() -> None:
    free = clock.merge([(20, 40), (60, 70)])
    for budget in range(0, 80):
        at = clock.reach(0, budget, free)
        assert clock.charged(0, at, free) == budget
        # The earliest such moment outside a free span.
        assert not any(s < at < e for s, e in free)
    assert clock.reach(25, 10, free) == 50  # starts inside a free span


def test_clip_total_keeps_the_first_of_time_away() -> None:
    spans = [(0, 10), (20, 40)]
    assert clock.clip_total(spans, 5, 12) == [(5, 10), (20, 27)]
    assert clock.clip_total(spans, 0, 0) == []


def test_quiet_hours_in_the_players_zone_wrap_past_midnight() -> None:
    settings = UserSettings(1, time_zone="Europe/Berlin", quiet_start=22 * 60, quiet_end=7 * 60)
    spans = clock.quiet_spans(settings, START, START + 48 * HOUR_MS)
    # Berlin is UTC+1 in March before the change: quiet 21:00–06:00 UTC.
    first = (START + 9 * HOUR_MS, START + 18 * HOUR_MS)
    assert spans[0] == first
    assert spans[1] == (first[0] + 24 * HOUR_MS, first[1] + 24 * HOUR_MS)
    assert clock.quiet_spans(UserSettings(1), START, START + HOUR_MS) == []


def test_quiet_hours_push_the_deadline_back() -> None:
    settings = UserSettings(1, quiet_start=0, quiet_end=8 * 60)  # UTC 00:00–08:00
    turn = clock.player_turn(T24, START, 0, settings)
    # 12:00 → 24 charged hours, skipping 8 quiet hours each night: 20:00 the next day.
    assert turn.deadline() == START + 32 * HOUR_MS
    assert turn.used(turn.deadline()) == 24 * HOUR_MS


def test_reminders_at_half_the_allowance_the_bank_and_an_hour_before() -> None:
    turn = clock.player_turn(T24, START, 10 * HOUR_MS, UserSettings(1))
    assert turn.reminders() == (
        START + 12 * HOUR_MS,
        START + 24 * HOUR_MS,
        START + 33 * HOUR_MS,
    )
    assert turn.deadline() == START + 34 * HOUR_MS
    # Without a bank the bank's and the last call's reminders are one hour apart.
    empty = clock.player_turn(T24, START, 0, UserSettings(1))
    assert empty.reminders() == (START + 12 * HOUR_MS, START + 23 * HOUR_MS)


def test_time_away_stops_the_clock_up_to_the_games_limit() -> None:
    away = [(START + HOUR_MS, START + 100 * 24 * HOUR_MS)]
    turn = clock.player_turn(T24, START, 0, UserSettings(1), away=away, away_left=2 * 24 * HOUR_MS)
    assert turn.deadline() == START + (24 + 48) * HOUR_MS
    used = clock.away_used(turn, away, 2 * 24 * HOUR_MS, turn.deadline())
    assert used == 48 * HOUR_MS


def test_outages_are_not_charged() -> None:
    outage = [(START + 2 * HOUR_MS, START + 7 * HOUR_MS)]
    turn = clock.player_turn(T24, START, 0, UserSettings(1), outages=outage)
    assert turn.deadline() == START + 29 * HOUR_MS


@pytest.mark.parametrize("name", sorted(clock.CLOCKS))
def test_every_clock_has_a_deadline(name: str) -> None:
    terms = clock.terms_of({"clock": name})
    if terms is None:
        assert name == "none"
        return
    quiet = UserSettings(1, time_zone="Asia/Tokyo", quiet_start=60, quiet_end=23 * 60)
    turn = clock.player_turn(terms, START, terms.cap, quiet)
    assert turn.used(turn.deadline()) == terms.allowance + terms.cap
