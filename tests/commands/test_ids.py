"""custom_ids: short, parseable, never a bare index, stale-proof by version."""

from __future__ import annotations

import re

from bot.commands import ids


def test_option_ids_carry_game_version_and_notation() -> None:
    """A short notation travels as itself."""
    custom_id = ids.option_id(12, 345, "tile anton_tile basic_conduit")
    match = re.fullmatch(ids.OPTION_TEMPLATE, custom_id)
    assert match and match["kind"] == "o"
    assert (match["game"], match["version"], match["token"]) == (
        "12", "345", "tile anton_tile basic_conduit"
    )  # fmt: skip


def test_long_or_odd_notations_become_checked_hashes() -> None:
    """A notation that would not fit (or holds ':') is named by a hash of it."""
    long = "build " + "x" * 120
    for notation in (long, "odd:colon"):
        custom_id = ids.option_id(1, 2, notation)
        assert len(custom_id) <= 100
        match = re.fullmatch(ids.OPTION_TEMPLATE, custom_id)
        assert match and match["kind"] == "h"
        assert ids.resolve(match["token"], ["other", notation], hashed=True) == notation
        assert ids.resolve(match["token"], ["other"], hashed=True) is None


def test_every_id_fits_and_matches_its_own_template() -> None:
    """Each builder's output matches its template and Discord's 100-character limit."""
    big = 10**12
    cases = [
        (ids.option_id(big, big, "confirm"), ids.OPTION_TEMPLATE),
        (ids.select_id(big, big, 3), ids.SELECT_TEMPLATE),
        (ids.page_id(big, big, 3), ids.PAGE_TEMPLATE),
        (ids.restart_id(big, big), ids.RESTART_TEMPLATE),
        (ids.play_id(big), ids.PLAY_TEMPLATE),
        (ids.lobby_id(big, "join"), ids.LOBBY_TEMPLATE),
        (ids.post_id(big, "c_netherlands"), ids.POST_TEMPLATE),
    ]
    templates = [t for _, t in cases]
    for custom_id, template in cases:
        assert len(custom_id) <= 100
        assert re.fullmatch(template, custom_id), custom_id
        # No id is claimed by two templates (discord.py routes by the first match).
        assert sum(bool(re.fullmatch(t, custom_id)) for t in templates) == 1, custom_id


def test_select_values_are_notations_or_hashes() -> None:
    """Values resolve case-insensitively, or by hash when too long."""
    assert ids.select_value("bank 2") == "bank 2"
    assert ids.resolve("BANK 2", ["bank 1", "bank 2"]) == "bank 2"
    long = "y" * 150
    value = ids.select_value(long)
    assert value.startswith("#") and len(value) <= 100
    assert ids.resolve(value, [long]) == long


def test_records_ids_fit_and_are_claimed_by_their_template_only() -> None:
    """The records' ids, with the longest filter, fit and no other template claims them."""
    from bot.commands import records
    from bot.store import StatsFilter

    user = 2**63 - 1
    widest = StatsFilter(4, "intro", ("leeghwater", "colorado", "nile"))
    cases = [
        (records.StatsPostButton(widest, 100, user).custom_id, records.STATS_POST_TEMPLATE),
        (records.HistoryPageButton(widest, user, 100_000).custom_id, records.HISTORY_PAGE_TEMPLATE),
        (records.HistoryOpenSelect(widest, user, 100_000).custom_id, records.HISTORY_OPEN_TEMPLATE),
        (records.ArchiveButton(2**53, "round").custom_id, records.ARCHIVE_TEMPLATE),
    ]
    others = [
        ids.OPTION_TEMPLATE, ids.SELECT_TEMPLATE, ids.PAGE_TEMPLATE, ids.RESTART_TEMPLATE,
        ids.PLAY_TEMPLATE, ids.LOBBY_TEMPLATE, ids.POST_TEMPLATE,
    ]  # fmt: skip
    templates = [t for _, t in cases] + others
    for custom_id, template in cases:
        assert len(custom_id) <= 100, custom_id
        assert re.fullmatch(template, custom_id), custom_id
        assert sum(bool(re.fullmatch(t, custom_id)) for t in templates) == 1, custom_id
    assert records.filter_of(re.fullmatch(records.STATS_POST_TEMPLATE, cases[0][0])) == widest
