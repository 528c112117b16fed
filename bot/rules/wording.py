"""What players read for the engine's ids: the names of pieces and the sources of events.

An event's source ("contract:12", "bonus:powerhouses", "end:building:cofferdam") says what
caused a change; players read it as the wording of the longest source key it starts with
(`Content.sources`: the base game's rewards.toml `[source]` and each expansion's declaration
`[sources]`). In that wording `{}` is the rest of the source after the key, `{id}` everything
after the first ":", and `{tile}`, `{building}`, `{objective}`, `{bonus}`, `{space}`,
`{officer}`, `{company}` the name of the piece the rest names. Nothing here prints an id it
does not know: an unknown source or piece raises `UnknownName` (tests play every rule, so a
new source without wording fails them), and `source_text` of an unknown source reads "".
"""

from __future__ import annotations

import re
from typing import Any

from bot.rules.content import Content, load_content

SIDES = {"left": "left", "right": "right"}
_PLACEHOLDER = re.compile(r"\{(\w*)\}")


class UnknownName(KeyError):
    """An id or a source with no wording: its name must be added to the data."""


def space_name(space_id: str, content: Content | None = None) -> str:
    """A management board space as players read it: 'Turbine Station: Produce +2 (right)'."""
    c = content or load_content()
    for space in c.management_spaces:
        if space.id == space_id:
            section = SECTION_NAMES.get(space.section, space.section)
            side = f" ({space.side})" if space.side in SIDES else ""
            if space.name == section:
                return f"{section}{side}"
            return f"{section}: {space.name}{side}"
    raise UnknownName(f"no management space {space_id!r}")


SECTION_NAMES = {
    "turbine_station": "Turbine Station",
    "water_management": "Water Management",
    "bank": "Bank",
    "workshop": "Workshop",
    "machinery_shop": "Machinery Shop",
    "contract_office": "Contract Office",
    "patent_office": "Patent Office",
}


def piece_name(kind: str, piece: str, content: Content | None = None) -> str:
    """The name of one piece of content ('tile', 'objective', 'bonus', 'space', 'officer',
    'company', or the kind a shared table's rows are, `Table.piece`): 'adv_2_wild' ->
    'Wild II'."""
    c = content or load_content()
    table: Any = {
        "tile": c.tiles,
        "objective": c.objective_tiles,
        "bonus": c.bonus_tiles,
        "officer": c.officers,
        "company": c.companies,
    }.get(kind)
    if table is None:
        table = c.named(kind)
    if kind == "space":
        return space_name(piece, c)
    if table is None:
        raise UnknownName(f"no kind of piece {kind!r}")
    found = table.get(piece)
    if found is None:
        raise UnknownName(f"no {kind} {piece!r}")
    return str(found.name)


def source_text(source: str, content: Content | None = None, *, strict: bool = False) -> str:
    """What players read for an event source: 'contract:12' -> 'contract 12'.

    An unknown source reads "" (a line then shows the change without its cause), or raises
    `UnknownName` when `strict`.
    """
    c = content or load_content()
    key = max((k for k in c.sources if source == k or source.startswith(k)), key=len, default="")
    if not key:
        if strict:
            raise UnknownName(f"no wording for the source {source!r}")
        return ""
    rest = source[len(key) :].removeprefix(":")
    whole = source.split(":", 1)[1] if ":" in source else ""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if not name:
            return rest
        if name == "id":
            return whole
        try:
            return piece_name(name, rest, c)
        except UnknownName:
            if strict:
                raise
            return ""

    return _PLACEHOLDER.sub(fill, c.sources[key]).strip()


# -- the score sheet's rows ---------------------------------------------------------------

#: The base game's row of each event source prefix ("income:base:2" -> "Income").
SCORE_ROWS = {
    "income": "Income",
    "contract": "Contracts",
    "scoring": "Energy track",
    "bonus": "Bonus tiles",
    "objective": "Objective",
    "conduit-use": "Conduits lent",
    "tile": "Technology tiles",
    "automa": "Automa actions",
}
#: The end of the game's row, after the expansions' (theirs may name "end:..." sources).
END_ROWS = {"end": "End (resources, water)"}
OTHER_ROW = "Other"


def score_rows(infos: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The row of each event source prefix, and of sources named by how they start, for a
    game with these expansions (`ExpansionInfo`s in hook order): the base game's, then each
    expansion's (its declaration's `score`), then the end of the game's."""
    rows, prefixes = dict(SCORE_ROWS), {}
    for info in infos:
        for source, row in info.score.items():
            if source.endswith("*"):
                prefixes[source.removesuffix("*")] = row
            else:
                rows[source] = row
    rows.update(END_ROWS)
    return rows, prefixes


def score_row(source: str, rows: dict[str, str], prefixes: dict[str, str]) -> str:
    """The score row of one source: a prefix match first, then its first two parts ("end:
    building"), then its first part; "Other" when none names it."""
    for prefix, row in prefixes.items():
        if source.startswith(prefix):
            return row
    parts = source.split(":")
    return rows.get(":".join(parts[:2])) or rows.get(parts[0]) or OTHER_ROW
