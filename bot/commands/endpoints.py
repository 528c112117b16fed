"""Where discord.py connects: Discord itself, or another endpoint named by the environment."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

log = logging.getLogger(__name__)

#: The full REST base, e.g. http://127.0.0.1:PORT/api/v10 (a test double or a proxy).
API_BASE_VAR = "BARRAGE_DISCORD_API_BASE"
#: The gateway websocket URL, e.g. ws://127.0.0.1:PORT/gateway/.
GATEWAY_VAR = "BARRAGE_DISCORD_GATEWAY"


def apply_endpoint_overrides(environ: Mapping[str, str] | None = None) -> bool:
    """Redirect discord.py's REST base and gateway when the variables are set.

    Call it before the client logs in. Returns whether anything was overridden.
    """
    env = os.environ if environ is None else environ
    api_base, gateway = env.get(API_BASE_VAR, "").strip(), env.get(GATEWAY_VAR, "").strip()
    if not api_base and not gateway:
        return False
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        # Route.BASE is read for every route, the interaction webhooks included.
        discord.http.Route.BASE = api_base.rstrip("/")
        log.warning("Discord REST base overridden by %s: %s", API_BASE_VAR, api_base)
    if gateway:
        # A non-sharded client never asks GET /gateway/bot; it connects to this default.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        log.warning("Discord gateway overridden by %s: %s", GATEWAY_VAR, gateway)
    return True
