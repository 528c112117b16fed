"""The text notation: its grammar, and explanations for well-formed but illegal moves.

Grammar (one verb, then its arguments; ids as in the data files, case-insensitive):

| notation | meaning |
|---|---|
| `build` | take the next construction space of your company board |
| `<space id>` e.g. `turbine_plus2_left` | place engineers on that management space |
| `bank`, then `engineers 3` | put engineers on the Bank |
| `base D5U`, `elevation D5U`, `conduit C1L`, `powerhouse P5_0` | what to build and where (`… none` declines a free one) |
| `tile basic_base` | the technology tile to build with |
| `tile anton_tile adv_2_base` | Anton Krylov's tile, imitating a tile on his wheel |
| `pay 4e`, `pay 2m`, `pay 1e 9c` | the payment: excavators, mixers, credits instead of machinery |
| `produce D1L C1L 2` | two drops from dam D1L through conduit C1L (`produce none` declines) |
| `contract 201` / `contract none` | fulfil a contract, or none |
| `take 201`, `discard 201` | take a face-up private contract; discard one over the limit |
| `drops HA HB` / `drops none` | water drops placed on headstreams, in order |
| `machines 1e0m` | machinery of your choice: 1 excavator, 0 mixers |
| `confirm` | end your turn |
| `pick usa`, `start 3` | full-game draft: a company/officer pair, then a starting contract |
| `patent_1` … `patent_3`; `patent 2` | Patent Office spaces; a free tile's slot (a reward) |
| `build_free`, `pass` | build with an engineer-free tile; stop acting with no engineers left |
| `mahiri`, then `copy viktor_fiesler` | Mahiri's action space: copy an officer, then act |

Rule sets add their own verbs (`RuleSet.verb`; an expansion's are listed in its package's
docstring); a game's grammar is its rule tables' `verbs`. Explanations of well-formed but
illegal moves are in `bot.rules.illegal`.

Notation is a stored format: once released, the parser keeps accepting every form above.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.rules.errors import MalformedNotation
from bot.rules.rulebook import RuleSet

#: Verbs only, the same in every game.
RULES: RuleSet[Any] = RuleSet("notation")
_ID = r"[A-Za-z0-9_]+"

for _verb, _args in {
    "build": r"",
    "bank": r"",
    "confirm": r"",
    "engineers": r"\d{1,2}",
    "base": rf"{_ID}",
    "elevation": rf"{_ID}",
    "conduit": rf"{_ID}",
    "powerhouse": rf"{_ID}",
    "tile": rf"{_ID}( {_ID})?",
    "pay": r"(\d+[emc])( \d+[emc]){0,2}|0",
    "produce": rf"{_ID} {_ID} \d{{1,2}}|none",
    "contract": r"\d+|none",
    "take": r"\d+",
    "discard": r"\d+",
    "drops": rf"{_ID}( {_ID})*|none",
    "machines": r"\d+e\d+m",
}.items():
    RULES.verb(_verb, _args)

_SPACE_ID = re.compile(r"[a-z][a-z0-9_]*$")


def check_syntax(verbs: Mapping[str, re.Pattern[str]], text: str) -> None:
    """Raise MalformedNotation unless `text` is a notation of the grammar of these verbs."""
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    pattern = verbs.get(verb)
    if pattern is None:
        if not rest and _SPACE_ID.match(verb):
            return  # an action space id (management board or an expansion's)
        known = ", ".join(f"`{verb}`" for verb in sorted(verbs))
        raise MalformedNotation(
            f"'{text}' is not a move: it should start with an action space id or one of: {known}"
        )
    if not pattern.fullmatch(rest):
        example = {
            "pay": "pay 4e",
            "produce": "produce D1L C1L 2",
            "drops": "drops HA HB",
            "machines": "machines 1e1m",
            "engineers": "engineers 3",
        }.get(verb, f"{verb} …")
        raise MalformedNotation(f"'{text}' is malformed: '{verb}' is written like '{example}'")
