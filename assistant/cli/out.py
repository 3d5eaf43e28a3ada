"""Where a command's lines go: standard output or standard error, loading rich only where it shows.

A plain line is written as it is (no markup, no emoji codes: a value ":+1:" stays ":+1:"); a table is a
rich table in a terminal and plain columns when piped or redirected, with every value whole. A style
(dim, yellow) shows only in a terminal. So `glados memory list | cat` never imports rich (25 ms a start);
the chat and the voice loop use rich's own console (`.rich`).
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Literal, Sequence

if TYPE_CHECKING:
    from rich.console import Console

GAP = "  "      # between plain columns


class Out:
    def __init__(self, stream: Literal["stdout", "stderr"] = "stdout") -> None:
        self.stream = stream
        self._rich: Console | None = None

    @property
    def file(self):
        return sys.stderr if self.stream == "stderr" else sys.stdout   # looked up late: tests swap them

    @property
    def terminal(self) -> bool:
        return self.file.isatty()

    @property
    def rich(self) -> Console:
        """rich's console on the same stream (progress bars, tables, the chat); made on first use."""
        if self._rich is None:
            from rich.console import Console
            self._rich = Console(stderr=self.stream == "stderr", highlight=False, soft_wrap=True,
                                 width=None if self.terminal else PIPED_WIDTH)
        return self._rich

    def line(self, text: str, style: str | None = None) -> None:
        """One line as written; its style only in a terminal."""
        if style and self.terminal:
            self.rich.print(text, style=style, markup=False, highlight=False, emoji=False)
        else:
            print(text, file=self.file, flush=self.stream == "stderr")

    def table(self, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """A terminal table in a terminal; piped, a header and space-aligned columns, values whole."""
        if self.terminal:
            self.rich.print(rich_table(columns, rows))
        else:
            print(columns_text(columns, rows), file=self.file)


PIPED_WIDTH = 100_000     # piped or redirected output is never cut to a terminal's width: values come whole


def rich_table(columns: Sequence[str], rows: Sequence[Sequence[str]]):
    """rich's table of the cells as written: a value "[b]x[/b]" or ":+1:" is shown, not read as markup."""
    from rich.table import Table
    from rich.text import Text
    table = Table(show_edge=False, pad_edge=False)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def columns_text(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """'id        key       value' ...: each column as wide as its widest cell, no trailing spaces."""
    lines = [list(columns), *map(list, rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(columns))]
    return "\n".join(GAP.join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines)
