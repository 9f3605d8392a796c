"""Independent checks of a Kafka -> Delta table: DuckDB's delta extension (loaded from the
`duckdb-extension-delta` wheel, no download) next to delta-rs."""

from __future__ import annotations

import glob
import os
from typing import Any


def delta_extension_path() -> str:
    import duckdb
    import duckdb_extension_delta

    root = os.path.dirname(duckdb_extension_delta.__file__)
    found = glob.glob(os.path.join(root, "extensions", f"v{duckdb.__version__}", "delta.duckdb_extension"))
    if not found:
        raise RuntimeError(
            f"duckdb-extension-delta has no extension for duckdb {duckdb.__version__} under {root}; install the "
            "same version of both"
        )
    return found[0]


def duckdb_connection() -> Any:
    """A DuckDB connection with the delta extension loaded from its wheel (never from the network)."""
    import duckdb

    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    con.execute(f"LOAD '{delta_extension_path()}'")
    return con


def duckdb_positions(table_path: str) -> dict[str, int]:
    """Rows, distinct (topic, partition, offset) and duplicated positions as DuckDB reads the table."""
    con = duckdb_connection()
    try:
        literal = table_path.replace("'", "''")
        con.execute(f"CREATE VIEW t AS SELECT * FROM delta_scan('{literal}')")
        rows, distinct = con.execute('SELECT count(*), count(DISTINCT (topic, partition, "offset")) FROM t').fetchone()
        dupes = con.execute(
            'SELECT count(*) FROM (SELECT topic, partition, "offset" FROM t GROUP BY ALL HAVING count(*) > 1)'
        ).fetchone()[0]
        keys = con.execute("SELECT count(DISTINCT key) FROM t").fetchone()[0]
    finally:
        con.close()
    return {"rows": rows, "distinct_positions": distinct, "duplicated_positions": dupes, "distinct_keys": keys}


__all__ = ["delta_extension_path", "duckdb_connection", "duckdb_positions"]
