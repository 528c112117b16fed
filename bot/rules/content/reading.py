"""Reading helpers of the content loader: one parsed data file with error helpers that name it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, cast

from bot.rules.content.model import (
    AREAS,
    BASE_SETS,
    Choice,
    ContentError,
    Reward,
)

# ---------------------------------------------------------------------------------------------
# Reading helpers
# ---------------------------------------------------------------------------------------------


def freeze(value: Any) -> Any:
    """Deep-freeze parsed TOML: tables -> MappingProxyType, arrays -> tuple."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


class DataFile:
    """One parsed data file with error helpers that name it (what a table's row reader reads
    with: `bot.rules.content.shared.Table`)."""

    def __init__(
        self,
        name: str,
        data: dict[str, Any],
        sets: tuple[str, ...] = BASE_SETS,
        rewards: frozenset[str] = frozenset(),
    ) -> None:
        """Wrap parsed data; `sets` and `rewards` are the content sets and reward keys known."""
        self.name = name
        self.data = data
        self.sets = sets
        self.rewards = rewards

    def fail(self, where: str, message: str) -> ContentError:
        """An error naming this file and the table/id."""
        return ContentError(f"{self.name}: {where}: {message}")

    def table(self, key: str) -> dict[str, Any]:
        """A required table."""
        value = self.data.get(key)
        if not isinstance(value, dict):
            raise self.fail(f"[{key}]", "missing table")
        return value

    def rows(self, key: str) -> list[dict[str, Any]]:
        """A required array of tables."""
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
            raise self.fail(f"[[{key}]]", "missing array of tables")
        return value

    def get(
        self,
        row: Mapping[str, Any],
        where: str,
        key: str,
        kind: type | tuple[type, ...],
        default: Any = ...,
    ) -> Any:
        """A field of a row, type-checked (bool is never accepted as int)."""
        if key not in row:
            if default is not ...:
                return default
            raise self.fail(where, f"missing field {key!r}")
        value = row[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(where, f"field {key!r} must be {_kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(where, f"field {key!r} must be {_kind_name(kinds)}, not {value!r}")
        return value

    def int_in(
        self, row: Mapping[str, Any], where: str, key: str, lo: int, hi: int, default: Any = ...
    ) -> int:
        """An int field within [lo, hi]."""
        value = self.get(row, where, key, int, default)
        if value is not None and not lo <= value <= hi:
            raise self.fail(where, f"field {key!r} = {value} is outside {lo}..{hi}")
        return cast("int", value)

    def str_list(
        self, row: Mapping[str, Any], where: str, key: str, default: Any = ...
    ) -> tuple[str, ...]:
        """A list of strings."""
        value = self.get(row, where, key, list, default)
        if not all(isinstance(v, str) for v in value):
            raise self.fail(where, f"field {key!r} must list strings")
        return tuple(value)

    def int_list(
        self, row: Mapping[str, Any], where: str, key: str, default: Any = ...
    ) -> tuple[int, ...]:
        """A list of ints."""
        value = self.get(row, where, key, list, default)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(where, f"field {key!r} must list integers")
        return tuple(value)

    def one_of(
        self,
        row: Mapping[str, Any],
        where: str,
        key: str,
        allowed: Iterable[Choice],
        default: Any = ...,
    ) -> Choice:
        """A string field from a fixed set (typed as the set's members)."""
        allowed = tuple(allowed)
        value = self.get(row, where, key, str, default)
        if value not in allowed:
            raise self.fail(where, f"field {key!r} = {value!r} is not one of {', '.join(allowed)}")
        return cast("Choice", value)

    def one_of_or_none(
        self, row: Mapping[str, Any], where: str, key: str, allowed: Iterable[Choice]
    ) -> Choice | None:
        """An optional string field from a fixed set: None when the row leaves it out."""
        return self.one_of(row, where, key, allowed) if key in row else None

    def reward(self, row: Mapping[str, Any], where: str, key: str, default: Any = ...) -> Reward:
        """A reward/effect table whose keys are all known."""
        value = self.get(row, where, key, dict, default)
        check_reward(value, lambda msg: self.fail(where, f"{key}: {msg}"), self.rewards)
        return cast("Reward", freeze(value))

    def unique(self, rows: Iterable[Mapping[str, Any]], table: str, key: str = "id") -> None:
        """Ids of a table are unique."""
        seen: set[Any] = set()
        for r in rows:
            if key not in r:
                raise self.fail(f"[[{table}]]", f"a row has no {key!r}: {dict(r)!r}")
            if r[key] in seen:
                raise self.fail(f"[[{table}]] {r[key]}", f"duplicate {key}")
            seen.add(r[key])


def _kind_name(kinds: tuple[type, ...]) -> str:
    """Human name of the accepted types."""
    names = {
        int: "an integer",
        str: "a string",
        bool: "true/false",
        list: "an array",
        dict: "a table",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def check_reward(
    table: Mapping[str, Any], fail: Callable[[str], ContentError], known: Iterable[str]
) -> None:
    """Every key is known (`Content.rewards`); values are int, bool, str or lists of them."""
    known = frozenset(known)
    for key, value in table.items():
        if key not in known:
            raise fail(f"unknown reward key {key!r}")
        if key == "one_of":
            if not isinstance(value, list | tuple) or not all(
                isinstance(v, dict | Mapping) for v in value
            ):
                raise fail("one_of must list reward tables")
            for option in value:
                check_reward(option, fail, known)
        elif isinstance(value, list | tuple):
            if not all(isinstance(v, int | str) for v in value):
                raise fail(f"{key} must list integers or strings")
            if key == "build_base_in_areas" and not all(v in AREAS for v in value):
                raise fail(f"{key} names an unknown area in {value!r}")
        elif not isinstance(value, int | str):
            raise fail(f"{key} = {value!r} is not an integer, true/false or a string")


def _provenance(f: DataFile, row: Mapping[str, Any], where: str) -> Mapping[str, str]:
    """The row's provenance marks, checked."""
    marks = f.get(row, where, "provenance", dict, {})
    for key, mark in marks.items():
        if mark not in ("text", "reconstructed"):
            raise f.fail(
                where, f"provenance of {key!r} must be 'text' or 'reconstructed', not {mark!r}"
            )
    return MappingProxyType(dict(marks))
