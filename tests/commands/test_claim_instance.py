"""The bot's outbox claims name its deployment slot: the application and its shards."""

from __future__ import annotations

from bot.commands.client import default_instance


def test_one_process_serving_every_shard_is_one_slot_whatever_the_host() -> None:
    assert default_instance(123, {}) == "app 123 shards all"
    assert default_instance(123, {"shard_id": None, "shard_ids": None}) == "app 123 shards all"


def test_processes_serving_shard_sets_are_different_slots() -> None:
    assert default_instance(123, {"shard_ids": [2, 0]}) == "app 123 shards 0,2"
    assert default_instance(123, {"shard_id": 1}) == "app 123 shards 1"
    assert default_instance(124, {}) != default_instance(123, {})
