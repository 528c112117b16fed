"""Shared tables: `[[rows]]` that any expansion's data file may add to, and their one parser.

A `Table` declares a kind of row: the data files' array of tables it reads (`[[name]]`), the
field that identifies a row, and the function that reads one row into its typed record. The
base game declares the tables its own content joins (`[[private_contract]]` rows join the
contracts); an expansion declares its tables in its rule set (`RULES.table(...)`), and the
catalogue builds the content with every table its expansions declare
(`bot.rules.catalogue.Catalogue.content`). `join_rows` is the one parser: it reads every
declared table of a data file the same way, so a new expansion adds a table without editing
this package. A reader gets the rows through the table itself: `WORKS.of(game.content)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from bot.rules.content.model import Content
from bot.rules.content.reading import DataFile

#: A row's key (its id).
K = TypeVar("K")
#: A row's typed record.
R = TypeVar("R")

#: Reads one row: (the data file, the row, where it is for messages, the file's own content
#: set: the default of the row's `set`) -> its record; fails through `DataFile.fail`.
RowReader = Callable[[DataFile, Mapping[str, Any], str, str], R]


@dataclass(frozen=True, eq=False, slots=True)
class Table(Generic[K, R]):
    """A kind of row the data files may add to, and how one row is read.

    `name` is the data files' array of tables (`[[name]]`); `key` the field that identifies a
    row (unique across every file: a second row with the same key is a content error); `what`
    how a row is called in those errors ("External Work"); `read` reads one row into its
    record. `piece` is the piece kind its rows are named for in event sources (the wording's
    `{building}`), "" when none; its records then have a `name`.
    """

    name: str
    key: str
    what: str
    read: RowReader[R]
    piece: str = ""

    def of(self, content: Content) -> Mapping[K, R]:
        """This table's rows in a content, by key, in the order the files give them."""
        try:
            rows = content.tables[self.name]
        except KeyError:
            raise KeyError(
                f"the content has no table {self.name!r}: build it with the rule sets that "
                "declare it (the catalogue's content)"
            ) from None
        return cast("Mapping[K, R]", rows)


def join_rows(
    f: DataFile,
    own_set: str,
    tables: Iterable[Table[Any, Any]],
    into: Mapping[str, dict[Any, Any]],
) -> None:
    """A data file's rows of the declared tables join `into[table.name]` (key -> record).

    The one parser of shared rows: each row is read by its table's `read` (its `set` is the
    file's own content set by default, so a game without that set never draws it), and a key
    already in the table is refused. Tables the file does not have are skipped.
    """
    for table in tables:
        if table.name not in f.data:
            continue
        found = into[table.name]
        for row in f.rows(table.name):
            where = f"[[{table.name}]] {row.get(table.key)}"
            record = table.read(f, row, where, own_set)
            if table.key not in row:
                raise f.fail(where, f"missing field {table.key!r}")
            key = row[table.key]
            if key in found:
                raise f.fail(where, f"{table.what} {key} already exists")
            found[key] = record
