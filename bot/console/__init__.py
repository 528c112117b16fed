"""The terminal console: play Barrage through the game service without Discord.

Usage:

    python -m bot console --players 3 [--seed S] [--setup intro|full] [--expansions NAMES]
            [--out DIR] [--db FILE]
        Hot seat: several local players share the terminal. The prompt names who must
        decide; type a notation (or its option number), several separated by ';', or one of
        `options`, `restart`, `undo`, `board [map|shared|company|full] [company]`,
        `score`, `log [N]`, `help`, `quit`. Board images are written to DIR.

    python -m bot console --autoplay --players N --seed S --out DIR [--setup intro|full]
            [--expansions NAMES]
        Plays a complete game with random legal moves against a temporary SQLite file,
        writes every announcement's image to DIR and prints the final scores; exits 0 only
        when the game reached its final scoring.

`--expansions` takes comma-separated expansion names (`--help` lists them and the playable
combinations, from the catalogue: some need `--setup full`, some bring their own board). An
unknown name or a refused combination exits with status 2 and one line on stderr.
"""

from __future__ import annotations

from bot.console.app import main

__all__ = ["main"]
