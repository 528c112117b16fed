"""Officer scenarios of the full game written in the position format."""

from __future__ import annotations

from bot.rules.position import load_position

FULL = '[game]\nsetup = "full"\nplayers = 4\nturn_order = ["germany", "usa", "italy", "france"]\n'


def test_graziano_level_3_dam_holds_a_fourth_drop() -> None:
    game = load_position(
        FULL + 'phase = "water_flow"\nrun = "phase"\nheadstream_water = { HA = 1, HB = 1 }\n'
        '[company.germany]\nofficer = "graziano_del_monte"\n'
        '[company.usa]\nofficer = "wilhelm_adler"\n'
        '[map]\nD1L = { owner = "germany", level = 3, water = 3 }\n'
        'D2L = { owner = "usa", level = 3, water = 3 }\n'
    )
    assert game.state.dams["D1L"].water == 4
    assert game.state.dams["D2L"].water == 3  # an ordinary level-3 dam is full at 3


def test_anton_tile_copies_a_tile_on_the_wheel_with_its_effect() -> None:
    game = load_position(
        FULL + '[company.germany]\nofficer = "anton_krylov"\ntiles = ["anton_tile", "basic_base"]\n'
        'mixers = 10\nwheel = [{ segment = 1, tiles = ["adv_3_powerhouse"] }]\n'
        '[map]\nP6_0 = "germany"\n'
    )
    events = []
    for notation in ("build", "powerhouse P5_0"):  # tile and payment: one option each, automatic
        events += game.apply(notation, "germany")
    assert any(
        e.kind == "auto" and e.data["notation"] == "tile anton_tile adv_3_powerhouse"
        for e in events
    )
    assert "anton_tile" in game.state.companies["germany"].wheel_tiles()
    vp = sum(e.amount for e in events if e.kind == "vp" and e.source == "tile:adv_3_powerhouse")
    assert vp == 6  # 3 VP per powerhouse built, this one included


def test_mahiri_copies_wilhelm_for_the_rest_of_her_turn() -> None:
    game = load_position(
        FULL
        + '[company.germany]\nofficer = "mahiri_sekibo"\ntiles = ["basic_base"]\nexcavators = 3\n'
        '[company.usa]\nofficer = "wilhelm_adler"\n'
        '[company.italy]\nofficer = "solomon_p_jordan"\n'
        '[company.france]\nofficer = "viktor_fiesler"\n'
    )
    game.apply("mahiri", "germany")
    assert sorted(game.decision().notations) == [
        "copy solomon_p_jordan",
        "copy viktor_fiesler",
        "copy wilhelm_adler",
    ]
    for notation in ("copy wilhelm_adler", "build", "base D1L"):
        game.apply(notation, "germany")
    company = game.state.companies["germany"]
    assert company.excavators == 0  # Wilhelm's 3 excavators in the mountains
    assert "copied_officer" not in company.extra
