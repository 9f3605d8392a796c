"""Human tables (rich) by default, ``--json`` for scripts."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


def emit(rows: Sequence[dict[str, Any]], columns: Sequence[str], as_json: bool, title: str | None = None) -> None:
    if as_json:
        json.dump(list(rows), sys.stdout, default=str)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*("" if r.get(c) is None else str(r.get(c)) for c in columns))
    Console(width=200 if not sys.stdout.isatty() else None).print(table)


def emit_obj(obj: Any, as_json: bool) -> None:
    if as_json:
        json.dump(obj, sys.stdout, default=str)
        sys.stdout.write("\n")
    else:
        from rich.console import Console
        from rich.pretty import Pretty

        Console().print(Pretty(obj))
