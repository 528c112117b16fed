"""Start-up refuses early and says exactly what to fix: the token's shape, every bad setting
at once, unusable database files (with the backup to restore), and no voice warnings."""

from __future__ import annotations

import asyncio
import base64
import logging
import shutil
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.__main__ import serve
from bot.commands.client import BarrageBot
from bot.config import ENV_TOKEN, BackupConfig, Config, DatabaseConfig, load_config
from bot.config import token_problem as problem
from bot.rules import catalogue as catalogue_module
from bot.rules.catalogue import CATALOGUE, Catalogue
from bot.rules.content import ContentError, packaged_files
from bot.rules.declarations import ExpansionInfo
from bot.service import GameService, RendererPool
from bot.service.expansions import content_problem, missing_drawings
from bot.store import SqliteStore, Store
from tests.test_config_startup import _start

GOOD = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789-_"


def test_a_token_of_discords_shape_passes() -> None:
    assert problem(GOOD) is None
    assert base64.urlsafe_b64decode("MTIzNDU2Nzg5MDEyMzQ1Njc4OQ==") == b"1234567890123456789"


@pytest.mark.parametrize(
    ("token", "hint"),
    [
        ("paste-the-token-here", "the placeholder from the README"),
        ("paste-the-bot-token-here", "the placeholder from the README"),
        (f"Bot {GOOD}", "it starts with 'Bot ': leave that out"),
        (f"bot {GOOD}", "it starts with 'Bot '"),
        (f'"{GOOD}"', "it has quotes around it"),
        (f"'{GOOD}'", "it has quotes around it"),
        ("1234567890123456789", "it is a number (the application id?)"),
        ("a" * 32, "the OAuth2 client secret"),
        ("abc", "not shaped like a bot token"),
        (GOOD.replace(".", "", 1), "not shaped like a bot token"),  # two parts
        ("bm90IGFuIGlk" + GOOD[GOOD.index(".") :], "not shaped like a bot token"),  # "not an id"
        (GOOD[:-40], "not shaped like a bot token"),  # cut short
        (GOOD[:30] + " " + GOOD[30:], "spaces or line breaks"),
    ],
)
def test_a_wrong_token_gets_a_hint_without_being_repeated(token: str, hint: str) -> None:
    found = problem(token)
    assert found is not None and hint in found
    assert GOOD not in found and GOOD[:24] not in found
    with pytest.raises(Exception) as info:
        load_config(env={ENV_TOKEN: token})
    assert hint in str(info.value) and ENV_TOKEN in str(info.value)


def test_every_bad_setting_is_reported_at_once_and_nothing_connects(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[logging]\nlevel = "LOUD"\n[backup]\nkeep = 0\ninterval_hours = "daily"\n'
        "[render]\nworkers = -1\n[database]\npth = 'x'\n[extra]\na = 1\n"
    )
    result = _start(tmp_path, token="paste-the-token-here")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert all(line.startswith("barrage-bot: config error: ") for line in lines), lines
    for key in (
        "discord.token",
        "logging.level",
        "backup.keep",
        "backup.interval_hours",
        "render.workers",
        "unknown setting database.pth",
        "unknown section or setting 'extra'",
    ):
        assert sum(key in line for line in lines) == 1, (key, lines)
    assert len(lines) == 7
    assert not (tmp_path / "barrage.sqlite3").exists()


def test_check_config_refuses_a_damaged_database_and_names_the_backup(tmp_path: Path) -> None:
    database = tmp_path / "barrage.sqlite3"
    con = sqlite3.connect(database)
    con.execute("CREATE TABLE t (x)")
    con.executemany("INSERT INTO t VALUES (?)", [("y" * 500,)] * 200)
    con.commit()
    con.close()
    backups = tmp_path / "backups"
    backups.mkdir()
    shutil.copy(database, backups / "barrage-20260101-000000-000.sqlite3")
    shutil.copy(database, backups / "barrage-20260102-000000-000.sqlite3")
    with database.open("r+b") as fh:
        fh.truncate(database.stat().st_size // 2)
    result = _start(tmp_path, "--check-config", token=GOOD)
    assert result.returncode == 1
    [line] = [line for line in result.stderr.splitlines() if " ERROR " in line]
    assert "database.path: database barrage.sqlite3 is truncated" in line
    assert "cp backups/barrage-20260102-000000-000.sqlite3 barrage.sqlite3" in line


async def test_serve_refuses_an_unusable_file_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_text("hello\n")
    config = Config(
        discord=load_config(env={ENV_TOKEN: GOOD}).discord,
        database=DatabaseConfig(path=path),
        backup=BackupConfig(directory=tmp_path / "none-yet"),
    )

    async def never(config: Config, store: Store, stop: asyncio.Event) -> int:
        raise AssertionError("the bot must not start")

    assert await serve(config, run=never) == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    message = errors[0].getMessage()
    assert message.startswith(f"database.path: database {path} is not an SQLite database")
    assert "there is no backup in" in message
    assert path.read_text() == "hello\n"


async def test_starting_the_client_logs_no_voice_warnings(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # As on a fresh start: discord.py warns once per process, at the first client.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    service = GameService(store, clock=lambda: 0, renderer_pool=RendererPool(kind="inline"))
    try:
        with caplog.at_level(logging.DEBUG):
            BarrageBot(service, clock=lambda: 0)
    finally:
        await store.close()
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_every_expansion_of_the_product_has_its_drawing_module() -> None:
    assert missing_drawings() == []


def test_a_missing_drawing_module_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogue = Catalogue(packages=["tests.rules.toy"])
    assert missing_drawings(catalogue) == []
    toy = replace(catalogue.info("toy"), drawing="tests.rules.toy.no_such_drawing")
    monkeypatch.setitem(catalogue.__dict__, "expansions", {**catalogue.expansions, "toy": toy})
    assert missing_drawings(catalogue) == [
        "expansion 'toy' (tests.rules.toy): its drawing module tests.rules.toy.no_such_drawing "
        "does not exist"
    ]


def test_a_drawing_module_without_its_drawing_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module that imports but hands the renderer no typed `DRAWING` is refused too."""
    catalogue = Catalogue(packages=["tests.rules.toy"])
    toy = replace(catalogue.info("toy"), drawing="tests.rules.toy.help")
    monkeypatch.setitem(catalogue.__dict__, "expansions", {**catalogue.expansions, "toy": toy})
    assert missing_drawings(catalogue) == [
        "expansion 'toy' (tests.rules.toy): its drawing module tests.rules.toy.help defines no "
        "DRAWING (a renderer.expansions.drawing.Drawing)"
    ]


async def test_serve_refuses_to_start_without_a_drawing_module(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    nile = replace(CATALOGUE.info("nile"), drawing="renderer.expansions.gone")
    monkeypatch.setitem(CATALOGUE.__dict__, "expansions", {**CATALOGUE.expansions, "nile": nile})
    config = Config(
        discord=load_config(env={ENV_TOKEN: GOOD}).discord,
        database=DatabaseConfig(path=tmp_path / "games.sqlite3"),
        backup=BackupConfig(directory=tmp_path / "backups"),
    )

    async def never(config: Config, store: Store, stop: asyncio.Event) -> int:
        raise AssertionError("the bot must not start")

    assert await serve(config, run=never) == 1
    [error] = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.startswith("expansion 'nile' (bot.rules.expansions.nile): its drawing module")
    assert "renderer.expansions.gone does not exist; set `drawing` in its expansion.toml" in error
    assert not (tmp_path / "games.sqlite3").exists()  # refused before the database was opened


def test_a_broken_row_of_an_expansions_table_is_named_before_any_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The content, every table the expansions' rules declare included, is read at start-up."""
    catalogue = Catalogue(packages=["tests.rules.toy"])
    assert content_problem(catalogue) is None
    broken = Catalogue(packages=["tests.rules.toy"])

    def files(infos: Iterable[ExpansionInfo] | None = None) -> dict[str, str]:
        found = packaged_files(infos)
        found["toy.toml"] = found["toy.toml"].replace("vp = 3", "vp = 9")
        return found

    monkeypatch.setattr(catalogue_module, "packaged_files", files)
    assert content_problem(broken) == ("toy.toml: [[plaque]] gold: field 'vp' = 9 is outside 0..5")


async def test_serve_refuses_to_start_when_the_game_data_is_broken(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> None:
        raise ContentError("leeghwater.toml: [[external_work]] A1: field 'pile' = 'D' is wrong")

    monkeypatch.setattr(CATALOGUE, "content", broken)
    config = Config(
        discord=load_config(env={ENV_TOKEN: GOOD}).discord,
        database=DatabaseConfig(path=tmp_path / "games.sqlite3"),
        backup=BackupConfig(directory=tmp_path / "backups"),
    )

    async def never(config: Config, store: Store, stop: asyncio.Event) -> int:
        raise AssertionError("the bot must not start")

    assert await serve(config, run=never) == 1
    [error] = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert error == (
        "the game data cannot be loaded: leeghwater.toml: [[external_work]] A1: "
        "field 'pile' = 'D' is wrong"
    )
    assert not (tmp_path / "games.sqlite3").exists()  # refused before the database was opened
