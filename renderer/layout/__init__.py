"""Layout data: pixel geometry of every view, keyed by the engine's ids."""
