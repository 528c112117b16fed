"""SQLite schema migrations: NNNN_name.sql, applied in order, each in one transaction."""
