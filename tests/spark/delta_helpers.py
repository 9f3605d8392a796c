"""Reading Delta tables back in the Delta sink tests: delta-rs, and DuckDB's delta extension as the
independent reader (loaded from the `duckdb-extension-delta` wheel: no download at run time)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from examples.delta_check import duckdb_connection


def duckdb_query(table_path: str, sql: str) -> pa.Table:
    """Run `sql` with the table as `t` (DuckDB's delta_scan)."""
    con = duckdb_connection()
    try:
        con.execute(f"CREATE VIEW t AS SELECT * FROM delta_scan('{table_path}')")
        return con.execute(sql).to_arrow_table()
    finally:
        con.close()


def delta_rs_table(table_path: str, columns: list[str] | None = None) -> pa.Table:
    from deltalake import DeltaTable

    return DeltaTable(table_path).to_pyarrow_table(columns=columns)


def positions(table: pa.Table) -> list[tuple[str, int, int]]:
    """(topic, partition, offset) of every row, sorted (duplicates kept)."""
    return sorted(
        zip(
            table.column("topic").to_pylist(),
            table.column("partition").to_pylist(),
            table.column("offset").to_pylist(),
            strict=True,
        )
    )


def logged_adds(table_path: str) -> list[dict[str, Any]]:
    """Every add action in the table's JSON commits, as written (no checkpoint parsing)."""
    import json
    from pathlib import Path

    adds = []
    for commit in sorted((Path(table_path) / "_delta_log").glob("*.json")):
        for line in commit.read_text().splitlines():
            action = json.loads(line)
            if "add" in action:
                adds.append(action["add"])
    return adds
