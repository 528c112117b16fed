"""The terminal console: play Barrage through the game service without Discord.

Usage (`python -m bot console --help` says it for players):

    python -m bot console [--players 2|3|4] [--names Ann,Bob,...] [--db FILE] [--seed S]
            [--setup intro|full] [--expansions NAMES] [--out DIR] [--new]
            [--automa 0|1|2|3] [--automa-level easy|medium|hard|expert]
        Hot seat: several local players share the terminal. The game is kept in FILE
        (default: barrage-console.sqlite3 in the working directory) after every move, with
        its players' `--names`, and the same command (or no options at all) continues it
        later. Options for a new game that the kept one does not have are refused with
        status 2, naming the way out: `--new` abandons the kept game (it stays in the file)
        and starts a new one, another `--db FILE` keeps both. The prompt names who must
        decide; type an option's number, its notation (several separated by ';'), or one of
        `options`, `restart` (this turn's moves), `undo` (the last confirmed turn, for the
        player who confirmed it), `board [map|shared|company|full] [company]`, `company
        [X]` (a company by name, in any case), `score`, `log [N]`, `help`, `quit`. Board
        images are written to DIR, named after the game's number and the turn. Players are
        called by `--names` (default Player 1, Player 2...) wherever Discord would mention
        them. `quit`, Ctrl-D (end of input) and a finished game exit with status 0;
        Ctrl-C exits at once with 130. The game is saved either way.

    python -m bot console --autoplay --players N --seed S --out DIR [--setup intro|full]
            [--expansions NAMES] [--automa N --automa-level L] [--turns N]
        Plays a complete game with random legal moves against a temporary SQLite file
        (or --db FILE), writes every announcement's image to DIR and prints the final
        scores; exits 0 only when the game reached its final scoring (with `--turns N`: stops
        after N committed turns, with status 0).

    --replay [round|turn] (with either): when the game ends, also write its replay, an
        animated GIF of the map (one frame per round, or per committed turn), to DIR.
    python -m bot console --db FILE --replay-of N [--replay turn] [--out DIR]
        Writes the replay of the database's finished game #N to DIR and stops.

`--automa N` seats N automa companies (computer opponents playing by their cards) after the
people: `--players` counts both (by default one person and the automas), so `--automa 2`
alone is a solo game against two automas. Their turns are played at once after each person's
Confirm and told in the turn message.

`--expansions` takes comma-separated expansion names (`--help` lists them and the playable
combinations, from the catalogue: some need `--setup full`, some bring their own board). An
unknown name, a refused combination or a --db file that is not a usable database exits
with status 2 and one line on stderr.
"""

from __future__ import annotations

from bot.console.app import main

__all__ = ["main"]
