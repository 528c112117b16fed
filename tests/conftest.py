"""Fixtures for the whole suite: one throwaway PostgreSQL server per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pgtestserver import TestPostgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TestPostgres]:
    """A PostgreSQL server for this session, started on first use and stopped at the end.

    There is no skipping: where no server can be started the tests that need one fail,
    saying what is missing.
    """
    server = TestPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: TestPostgres) -> Iterator[str]:
    """An empty database of its own for one test (a schema of its own, dropped afterwards)."""
    url = postgres_server.new_schema()
    yield url
    postgres_server.drop_schema(url)


@pytest.fixture(scope="session", autouse=True)
def _texts_on_flat_colours_are() -> Iterator[None]:
    """Every picture the suite draws checks that a text said to be drawn on a flat colour
    (`renderer.draw.text`'s ``on``) is: the renderer pastes such texts blended beforehand."""
    from renderer.draw import check_flat

    with check_flat():
        yield
