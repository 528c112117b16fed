"""The exported-game document: one JSON object holding everything needed to replay a game."""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.store.base import STATUSES, check_int64
from bot.store.errors import InvalidDataError, InvalidExportError

EXPORT_FORMAT = "barrage-bot/game"
EXPORT_FORMAT_VERSION = 1
#: Limits checked before a file is parsed: its size, and how deeply arrays and objects nest
#: (an export nests 4 deep; Python's parser recurses once per level).
MAX_EXPORT_BYTES = 5 * 1024 * 1024
MAX_EXPORT_DEPTH = 64
#: bytes.translate tables: brackets to +1/-1 steps (as 2 and 0), everything else dropped.
_OPENERS, _CLOSERS = b"[{", b"]}"
_STEPS = bytes(2 if b in _OPENERS else 0 for b in range(256))
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _OPENERS + _CLOSERS)


def nesting_depth(data: bytes) -> int:
    """How deeply arrays and objects nest in JSON text, without parsing it (no recursion).

    Brackets inside strings do not count. Exact for valid JSON and for every valid prefix
    of invalid JSON, which is all a parser reads before it gives up.
    """
    # Drop escaped backslashes, then escaped quotes: every quote left delimits a string.
    plain = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(plain.split(b'"')[::2])
    steps = outside.translate(_STEPS, _NOT_BRACKETS)
    # Depth after each bracket = (sum of steps) - (brackets so far); the deepest is the max.
    depths = map(operator.sub, itertools.accumulate(steps), itertools.count(1))
    return max(depths, default=0)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_export(data: bytes | str) -> dict[str, Any]:
    """Parse an export file's bytes; InvalidExportError, before parsing, if it is too large
    or nests too deeply, or if it is not a JSON object."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_EXPORT_BYTES:
        raise InvalidExportError(
            f"the file is {len(raw) / 1048576:.1f} MB; an export is at most "
            f"{MAX_EXPORT_BYTES // 1048576} MB"
        )
    depth = nesting_depth(raw)
    if depth > MAX_EXPORT_DEPTH:
        raise InvalidExportError(
            f"the file nests lists and objects {depth} deep; an export nests at most "
            f"{MAX_EXPORT_DEPTH} deep"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidExportError("the file is not UTF-8 text") from None
    try:
        doc = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as exc:
        raise InvalidExportError(f"the file is not valid JSON ({str(exc)[:120]})") from None
    if not isinstance(doc, dict):
        raise InvalidExportError("the document must be a JSON object")
    return doc


@dataclass(frozen=True, slots=True)
class ParsedExport:
    """An export document whose shape has been checked, ready to insert."""

    status: str
    options: dict[str, Any]
    seed: int
    engine_version: str
    creator_id: int
    created_at: int
    ended_at: int | None
    seats: list[dict[str, Any]]
    #: (seq, created_at, record) in order, seq = 1..N.
    log: list[tuple[int, int, dict[str, Any]]]


def _field(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    """Fetch doc[key] if it has the expected type, else raise InvalidExportError naming it."""
    name = f"{where}{key}"
    if key not in doc:
        raise InvalidExportError(f"export: missing field {name!r}")
    value = doc[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise InvalidExportError(f"export: field {name!r} has the wrong type (bool)")
    if not isinstance(value, kind):
        raise InvalidExportError(
            f"export: field {name!r} has the wrong type ({type(value).__name__})"
        )
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            check_int64(value, name)
        except InvalidDataError as exc:
            raise InvalidExportError(f"export: {exc}") from None
    return value


def parse_export(doc: Mapping[str, Any]) -> ParsedExport:
    """Check an export document's shape and return its parts; InvalidExportError if wrong."""
    if not isinstance(doc, Mapping):
        raise InvalidExportError("export: the document must be a JSON object")
    if doc.get("format") != EXPORT_FORMAT:
        raise InvalidExportError(f"export: 'format' must be {EXPORT_FORMAT!r}")
    version = _field(doc, "format_version", int)
    if version != EXPORT_FORMAT_VERSION:
        raise InvalidExportError(
            f"export: format_version {version} is not supported (expected {EXPORT_FORMAT_VERSION})"
        )
    status = _field(doc, "status", str)
    if status not in STATUSES:
        raise InvalidExportError(f"export: unknown status {status!r}")
    ended_at = doc.get("ended_at")
    if ended_at is not None:
        ended_at = _field(doc, "ended_at", int)
    seats = []
    for i, seat in enumerate(_field(doc, "seats", list)):
        where = f"seats[{i}]."
        if not isinstance(seat, Mapping):
            raise InvalidExportError(f"export: seats[{i}] must be an object")
        replaced = seat.get("replaced_at")
        if replaced is not None:
            replaced = _field(seat, "replaced_at", int, where)
        seats.append(
            {
                "seat": _field(seat, "seat", int, where),
                "user_id": _field(seat, "user_id", int, where),
                "joined_at": _field(seat, "joined_at", int, where),
                "replaced_at": replaced,
            }
        )
    current = [s["seat"] for s in seats if s["replaced_at"] is None]
    if len(current) != len(set(current)) or any(s < 0 for s in current):
        raise InvalidExportError("export: two current occupants of one seat, or a negative seat")
    log = []
    for i, entry in enumerate(_field(doc, "log", list)):
        where = f"log[{i}]."
        if not isinstance(entry, Mapping):
            raise InvalidExportError(f"export: log[{i}] must be an object")
        seq = _field(entry, "seq", int, where)
        if seq != i + 1:
            raise InvalidExportError(f"export: log[{i}].seq is {seq}, expected {i + 1}")
        record = _field(entry, "record", dict, where)
        if not isinstance(record.get("kind"), str) or not record["kind"]:
            raise InvalidExportError(f"export: log[{i}].record needs a string 'kind'")
        log.append((seq, _field(entry, "at", int, where), record))
    engine_version = _field(doc, "engine_version", str)
    if not engine_version:
        raise InvalidExportError("export: 'engine_version' is empty")
    return ParsedExport(
        status=status,
        options=dict(_field(doc, "options", dict)),
        seed=_field(doc, "seed", int),
        engine_version=engine_version,
        creator_id=_field(doc, "creator_id", int),
        created_at=_field(doc, "created_at", int),
        ended_at=ended_at,
        seats=seats,
        log=log,
    )
