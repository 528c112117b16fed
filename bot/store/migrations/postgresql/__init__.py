"""PostgreSQL schema migrations: NNNN_name.sql, the same steps as SQLite's, in this dialect."""
