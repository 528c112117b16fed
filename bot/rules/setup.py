"""Game setup: every pile shuffled once by the engine's PRNG, in a fixed, documented order.

Draw order from `SplitMix64(seed)` (changing it changes every game, so it is part of the
engine version): introductory pairings to seats and first turn order — or, in the full game,
the draft's draws (`bot.rules.draft`: company boards, officers, starting contracts, first
picker, Mahiri's spare officers) — then headstream tiles, bonus tiles, objective tile, national
contracts, the three private contract piles (green, yellow, red), neutral dams (mountain, hill,
plain), in the full game the Patent Office piles I, II, III (`bot.rules.patent`), then
whatever expansions set up.

The full game (rulebook "Full Game Player Setup"): the players draft their companies, officers
and starting contracts (decisions before round 1); no wild basic tiles; all six base bonus
tiles are shuffled and five placed; the Patent Office is in play. An expansion's
`content_sets` add its boards, officers, bonus, objective and advanced tiles and contracts to
these pools (`extend_content` adds their data to the game's content), and a map of one of its
sets may be played; any other expansion map is refused. The 4/5-player map
(`map="five_player"`) may be chosen for 4 players (reference README, uncertainty 8).

The introductory game (rulebook "Introductory Player Setup"): the four fixed pairings of
company, officer and starting contract are dealt at random to the seats (for 2 or 3 players
a random subset), and the first turn order is random — the rulebook's table fixes an order we
do not have (reference uncertainty 13), so a random one stands in for it. Each company gets
the four basic technology tiles plus the wild tile, no Patent Office, and the bonus tile for
advanced technology is left out.

Expansions (`bot.rules.hooks`): their `content_sets` add bonus tiles, the objective tile and
private contracts of those sets to the shuffled pools. An expansion with its own map
(`Expansion.map`) puts a game left on the default "base" map onto it (`resolve_options`); a
map that belongs to an expansion's set is refused without that expansion.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.automa.deck import deal_decks
from bot.rules.automa.seats import economy, make_automa, seat_level
from bot.rules.catalogue import CATALOGUE, Catalogue, open_game
from bot.rules.content import Content
from bot.rules.draft import deal_draft, start_draft
from bot.rules.engine import ENGINE_VERSION, Game
from bot.rules.hooks import Hooks
from bot.rules.patent import deal_patent_office
from bot.rules.prng import SplitMix64
from bot.rules.state import NEUTRAL, Company, Dam, GameOptions, GameState

BASIC_TILES = ("basic_base", "basic_elevation", "basic_conduit", "basic_powerhouse")
PRIVATE_LEVELS = ("green", "yellow", "red")


class SetupError(ValueError):
    """Options that do not describe a game the engine can set up."""


SETUPS = ("intro", "full")  # what `GameOptions.setup` may be


def maps_for(players: int) -> list[str]:
    """The base-game maps a game of this many players may be set up on (offered by the service)."""
    return ["base", "five_player"] if players == 4 else ["base"]


def resolve_options(options: GameOptions, catalogue: Catalogue | None = None) -> GameOptions:
    """The options a game is set up with: an expansion's own map replaces the default map."""
    catalogue = catalogue or CATALOGUE
    if options.map != "base":
        return options
    known = [name for name in options.expansions if name in catalogue]
    own = catalogue.own_map(known)
    return replace(options, map=own) if own else options


def check_options(
    options: GameOptions, content: Content, catalogue: Catalogue | None = None
) -> None:
    """Refuse impossible options with a clear message."""
    if not 2 <= options.players <= 4:
        raise SetupError(f"Barrage is played by 2 to 4 players, not {options.players}")
    if options.setup not in SETUPS:
        raise SetupError(f"setup must be 'intro' or 'full', not {options.setup!r}")
    if options.map not in content.maps:
        raise SetupError(f"unknown map {options.map!r}; maps: {', '.join(content.maps)}")
    if options.map == "five_player" and options.players != 4:
        raise SetupError("the 4/5-player map is played by 4 players")
    if len(options.automa) > economy().max_automas:
        raise SetupError(
            f"at most {economy().max_automas} automas may play, not {len(options.automa)}"
        )
    if any(not 0 <= level <= 3 for level in options.automa):
        raise SetupError("automa levels are 0 (easy), 1 (medium), 2 (hard) or 3 (expert)")
    catalogue = catalogue or CATALOGUE
    for name in options.expansions:
        if name not in catalogue:
            known = ", ".join(sorted(catalogue.expansions)) or "none yet"
            raise SetupError(f"unknown expansion {name!r}; available: {known}")
    reason = catalogue.refuse(options)
    if reason:
        raise SetupError(reason)
    owner = content.maps[options.map].set
    if owner in catalogue and owner not in options.expansions:
        raise SetupError(
            f"the {options.map} map belongs to the {owner} expansion this game does not use; "
            "choose it too"
        )


def _deal_introductory(state: GameState, content: Content, rng: SplitMix64) -> None:
    """Deal the fixed introductory pairings to the seats and draw the first turn order."""
    options = state.options
    matchups = list(content.introductory_matchups)
    rng.shuffle(matchups)
    for seat, matchup in enumerate(matchups[: options.players]):
        officer = content.officers[matchup.officer]
        start = officer.starting_resources
        company = Company(
            id=matchup.company,
            seat=seat,
            officer=matchup.officer,
            credits=start.get("credits", 6),
            excavators=start.get("excavators", 6),
            mixers=start.get("mixers", 4),
            engineers=start.get("engineers", 12),
            vp=content.common.starting_vp,
            tiles=[*BASIC_TILES, "basic_wild"],
            contracts=[matchup.starting_contract],
        )
        company.tiles.extend(officer.special_tiles)
        level = seat_level(options, seat)
        if level is not None:
            make_automa(
                company, level, dict(content.common.starting_resources), officer.special_tiles
            )
        state.companies[company.id] = company
        state.seats.append(company.id)
    order = list(state.seats)
    rng.shuffle(order)
    state.turn_order = order


def new_game(
    options: GameOptions, content: Content | None = None, catalogue: Catalogue | None = None
) -> Game:
    """Set up a new game and advance it to the first decision."""
    catalogue = catalogue or CATALOGUE
    content = content or (catalogue or CATALOGUE).content()
    options = resolve_options(options, catalogue)
    check_options(options, content, catalogue)
    content = catalogue.game_content(content, options.expansions)
    full = options.setup == "full"
    sets = catalogue.content_sets(options.expansions)
    rng = SplitMix64(options.seed)
    state = GameState(options=options, engine_version=ENGINE_VERSION)
    if full:
        deal_draft(state, content, rng, sets)
    else:
        _deal_introductory(state, content, rng)

    game_map = content.maps[options.map]
    tiles = [tile.id for tile in content.headstream_tiles]
    rng.shuffle(tiles)
    state.headstream_tiles = dict(zip(game_map.headstreams, tiles, strict=False))
    state.headstream_water = dict.fromkeys(game_map.headstreams, 0)

    bonus = [
        tile.id
        for tile in content.bonus_tiles.values()
        if tile.set in sets and (full or tile.in_introductory_game)
    ]
    rng.shuffle(bonus)
    state.bonus_tiles = bonus[: content.costs.rounds]

    objectives = [tile.id for tile in content.objective_tiles.values() if tile.set in sets]
    rng.shuffle(objectives)
    state.objective = objectives[0]

    nationals = [c.id for c in content.contracts_of_kind("national") if c.set in sets]
    rng.shuffle(nationals)
    state.national_offer = nationals[: options.players - 1]

    for level in PRIVATE_LEVELS:
        pile = [c.id for c in content.contracts_of_kind(level) if c.set in sets]
        rng.shuffle(pile)
        state.private_offer[level] = pile[:2]
        state.private_piles[level] = pile[2:]

    for area in game_map.neutral_dam_areas:
        candidates = list(area.candidate_dam_spaces)
        for _ in range(area.count):
            space = candidates.pop(rng.below(len(candidates)))
            state.dams[space] = Dam(
                owner=NEUTRAL, level=area.dam_level, water=game_map.neutral_dam_drops
            )
    if full:
        deal_patent_office(state, content, rng, sets)

    game = open_game(state, content, catalogue)
    if not full:
        for company in state.companies.values():
            for new_company in game.hooked(Hooks.new_company):
                new_company(game, company)
    for setup in game.hooked(Hooks.setup):
        setup(game, rng)
    deal_decks(state, rng)
    state.stack.append({"kind": "round_start"})
    if full:
        start_draft(game)
    else:
        state.phase = "income"
    game.advance()
    return game
