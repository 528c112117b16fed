"""Invariants every reachable state must satisfy, checked after every action in playouts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.rules import Game
from bot.rules.construction import pieces_by_location
from bot.rules.contracts import contract_limit
from bot.rules.events import Event
from bot.rules.state import STRUCTURE_KINDS


@dataclass
class Ledger:
    """Running sums of the events of one game, to compare with the state."""

    start: dict[str, dict[str, int]]
    tiles: dict[str, Counter]
    sums: dict[str, Counter] = field(default_factory=dict)
    energy: Counter = field(default_factory=Counter)
    water_in: int = 0
    water_out: int = 0

    @classmethod
    def of(cls, game: Game) -> Ledger:
        """Record the starting position of a freshly set-up game."""
        start = {}
        tiles = {}
        for cid, company in game.state.companies.items():
            start[cid] = {
                "credits": company.credits,
                "vp": company.vp,
                "excavators": company.excavators + sum(s.excavators for s in company.wheel),
                "mixers": company.mixers + sum(s.mixers for s in company.wheel),
                "engineers": game.content.officers[company.officer].starting_resources.get(
                    "engineers", 12
                ),
            }
            level = game.automa_level(cid)
            if level is not None and level < 3:  # below Expert: the board's own resources
                start[cid]["engineers"] = game.content.common.starting_resources["engineers"]
            tiles[cid] = Counter(company.tiles + company.wheel_tiles())
        ledger = cls(start=start, tiles=tiles)
        ledger.sums = {cid: Counter() for cid in start}
        ledger.water_in = sum(d.water for d in game.state.dams.values()) + sum(
            game.state.headstream_water.values()
        )
        return ledger

    def add(self, events: list[Event]) -> None:
        """Account for the events of one action."""
        for event in events:
            if event.kind in ("credits", "vp", "excavators", "mixers") and event.company:
                self.sums[event.company][event.kind] += event.amount
            elif event.kind == "energy":
                self.energy[event.company] += event.amount
            elif event.kind == "round":
                self.energy.clear()
            elif event.kind == "tile_taken" and event.company:
                self.tiles[event.company][event.data["tile"]] += 1  # the Patent Office
            elif event.kind == "headstream":
                self.water_in += event.amount
            elif event.kind == "drop_placed":
                self.water_in += 1
            elif event.kind == "drop_added":
                self.water_in += event.amount  # a drop from the supply straight into a dam
            elif event.kind == "drop_removed":
                self.water_out += event.amount  # a drop leaves a dam for the supply (irrigation)
            elif event.kind == "water":
                if event.source not in ("water-flow", "released"):
                    self.water_in += 1  # a new drop placed straight into the river
                if event.data.get("exit"):
                    self.water_out += 1


def check(game: Game, ledger: Ledger) -> None:
    """Assert every invariant; messages say which one broke."""
    state = game.state
    for cid, company in state.companies.items():
        for key in ("credits", "excavators", "mixers", "engineers", "vp", "energy"):
            assert getattr(company, key) >= 0, f"{cid} has negative {key}"
        start = ledger.start[cid]
        assert company.credits == start["credits"] + ledger.sums[cid]["credits"], (
            f"{cid} credits drift"
        )
        assert company.vp == start["vp"] + ledger.sums[cid]["vp"], f"{cid} VP != start + VP events"
        if game.automa_level(cid) is not None:
            assert company.credits == 0 and not company.contracts, f"automa {cid} holds credits"
        wheel_e = sum(s.excavators for s in company.wheel)
        wheel_m = sum(s.mixers for s in company.wheel)
        assert company.excavators + wheel_e == start["excavators"] + ledger.sums[cid]["excavators"]
        assert company.mixers + wheel_m == start["mixers"] + ledger.sums[cid]["mixers"]
        assert Counter(company.tiles + company.wheel_tiles()) == ledger.tiles[cid], f"{cid} tiles"
        if state.phase != "finished":
            assert company.energy == ledger.energy[cid], f"{cid} energy != energy events this round"
        # Engineers: supply + management spaces + construction spaces = the company's engineers.
        on_spaces = sum(
            n for placements in state.spaces.values() for who, n in placements if who == cid
        )
        used = company.construction_spaces_used
        on_board = sum(s.engineers for s in game.content.common.construction_spaces[:used])
        on_board += company.extra.get("automa_construction", 0)  # an automa's single space
        assert company.engineers + on_spaces + on_board == start["engineers"], f"{cid} engineers"
        # Pieces: the board's counts match the map.
        counts = Counter(kind for kind, _b, _s in pieces_by_location(game, cid))
        for kind in STRUCTURE_KINDS:
            assert company.placed[kind] == counts[kind], f"{cid} {kind} pieces"
            assert company.placed[kind] <= game.content.common.pieces[kind]
        if not state.turn_open:
            assert len(company.contracts) <= contract_limit(game, cid), f"{cid} contracts"
    for space_id, dam in state.dams.items():
        assert 1 <= dam.level <= 3
        assert 0 <= dam.water <= game.dam_capacity(space_id), f"{space_id} overfull"
    held = sum(d.water for d in state.dams.values()) + sum(state.headstream_water.values())
    assert held == ledger.water_in - ledger.water_out, "water not conserved"
