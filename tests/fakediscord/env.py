"""Point a bot process at a fake Discord through environment variables."""

from __future__ import annotations

import os

API_BASE_VAR = "BARRAGE_DISCORD_API_BASE"
GATEWAY_VAR = "BARRAGE_DISCORD_GATEWAY"
TOKEN_VAR = "BARRAGE_DISCORD_TOKEN"


def apply_endpoint_overrides_from_env(environ: dict[str, str] | None = None) -> bool:
    """Redirect discord.py's REST base and gateway URL when the variables are set.

    Call it before the client logs in. BARRAGE_DISCORD_API_BASE is the full REST base
    (e.g. http://127.0.0.1:PORT/api/v10) and BARRAGE_DISCORD_GATEWAY the websocket URL
    (e.g. ws://127.0.0.1:PORT/gateway/). Returns whether anything was overridden.
    """
    env = os.environ if environ is None else environ
    api_base, gateway = env.get(API_BASE_VAR), env.get(GATEWAY_VAR)
    if not api_base and not gateway:
        return False
    # Imported here so that merely importing this module stays cheap.
    import discord.gateway
    import discord.http
    import yarl

    if api_base:
        # Route.BASE is read for every route, including the interaction webhooks.
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        # A non-sharded Client never asks GET /gateway/bot; it uses this default.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return True
