"""Game content: the packaged data files, loaded once into frozen dataclasses and validated.

`load_content()` reads the base game's data files (bot/rules/data/*.toml, through
importlib.resources) and every expansion's (those its expansion.toml declares,
`bot.rules.declarations`), checks every id, cross-reference, reward key and number, and
returns one immutable `Content`. An expansion's rows of the shared tables (`shared.Table`:
the base game's private contracts, and every table an expansion's rule set declares) go
through the one row parser (`join_rows`) and join the game's tables marked with its set; the
rest of its data is its own (`Content.of(name)`). The package names no expansion's table: a
game's content, with every table its expansions' rule sets declare, is the catalogue's
(`bot.rules.catalogue.Catalogue.content()`). A broken file raises `ContentError` naming the
file, the table or id, and what is wrong, so a bad edit fails at start-up and never in the
middle of a game.

Ids are the reference data's ids unchanged (basins 1.., D1U/D1L, C1L/C1R, P5_0, HA.., EXIT_L,
companies, officers, contract ints, tile ids, management space ids, an expansion's rows' ids).
Expansion maps are largely reconstructed: their rows carry a `provenance` mapping (field -> "text" | "reconstructed") and `MapData.reconstructed` is True.
"""

from bot.rules.content.loading import (
    BASE_DATA_FILES,
    build_content,
    company_name,
    data_files,
    load_content,
    packaged_files,
    product_expansions,
)
from bot.rules.content.model import (
    AREAS,
    BASE_MAP_FILES,
    BASE_SETS,
    CONTRACT_KINDS,
    DAM_POSITIONS,
    EMPTY,
    INCOME_TRACKS,
    OBJECTIVE_VP_BY_PLACE,
    TILE_BUILDS,
    TILE_KINDS,
    Area,
    Basin,
    BonusTile,
    Choice,
    CommonBoard,
    Company,
    ConduitSpace,
    ConstructionSpace,
    Content,
    ContentError,
    Contract,
    ContractKind,
    Costs,
    CreditThreshold,
    DamPosition,
    DamSpace,
    EnergyTrack,
    HeadstreamTile,
    IncomeEntry,
    IncomeTrack,
    IntroductoryMatchup,
    ManagementSpace,
    MapData,
    NeutralDamArea,
    ObjectiveTile,
    Officer,
    PowerhouseSpace,
    Reward,
    RewardWording,
    TechTile,
    TileKind,
)
from bot.rules.content.reading import (
    DataFile,
    check_reward,
    freeze,
)
from bot.rules.content.shared import Table, join_rows
from bot.rules.content.tables import (
    PRIVATE_CONTRACTS,
    UNWORDED_REWARDS,
)

# Every public name of the modules above, importable from `bot.rules.content` as before the split.
__all__ = [
    "AREAS",
    "BASE_DATA_FILES",
    "BASE_MAP_FILES",
    "BASE_SETS",
    "CONTRACT_KINDS",
    "DAM_POSITIONS",
    "EMPTY",
    "INCOME_TRACKS",
    "OBJECTIVE_VP_BY_PLACE",
    "PRIVATE_CONTRACTS",
    "TILE_BUILDS",
    "TILE_KINDS",
    "UNWORDED_REWARDS",
    "Area",
    "Basin",
    "BonusTile",
    "Choice",
    "CommonBoard",
    "Company",
    "ConduitSpace",
    "ConstructionSpace",
    "Content",
    "ContentError",
    "Contract",
    "ContractKind",
    "Costs",
    "CreditThreshold",
    "DamPosition",
    "DamSpace",
    "DataFile",
    "EnergyTrack",
    "HeadstreamTile",
    "IncomeEntry",
    "IncomeTrack",
    "IntroductoryMatchup",
    "ManagementSpace",
    "MapData",
    "NeutralDamArea",
    "ObjectiveTile",
    "Officer",
    "PowerhouseSpace",
    "Reward",
    "RewardWording",
    "Table",
    "TechTile",
    "TileKind",
    "build_content",
    "check_reward",
    "company_name",
    "data_files",
    "freeze",
    "join_rows",
    "load_content",
    "packaged_files",
    "product_expansions",
]
