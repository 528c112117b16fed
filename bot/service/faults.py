"""A failing database becomes a refusal: the service's commands never leak a disk error."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.service.errors import CannotSave
from bot.store import StoreUnavailable

C = TypeVar("C", bound=type)

#: The errors of a database that is down for a while (the store logged it once already):
#: background loops stay quiet about them and try again at their next round.
DATABASE_DOWN = (StoreUnavailable, CannotSave)


def refuse_store_faults(cls: C) -> C:
    """Class decorator: each public coroutine method turns StoreUnavailable into CannotSave.

    The store has already logged the fault (once per outage) and changed nothing, so the
    caller only has to tell the user; the next command tries the database again.
    """
    # The commands live in the class's bases (one per responsibility): wrap each once, here.
    for name in dir(cls):
        member = inspect.getattr_static(cls, name)
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, _guarded(member))
    return cls


def _guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """`method`, with StoreUnavailable re-raised as CannotSave."""

    @functools.wraps(method)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except StoreUnavailable as exc:
            raise CannotSave(writing=exc.writing) from exc

    return guarded


async def every(
    interval_s: float,
    stop: asyncio.Event,
    step: Callable[[], Awaitable[object]],
    what: str,
    log: logging.Logger,
) -> None:
    """Run `step` now and then every `interval_s` until `stop` is set: a database that is
    down is waited for (a debug line), any other failure logged and tried at the next beat."""
    while not stop.is_set():
        try:
            await step()
        except DATABASE_DOWN as exc:
            log.debug("%s: waiting for the database: %s", what, exc)
        except Exception:
            log.exception("%s failed; trying again later", what)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval_s)
