"""Read an HTML table the way a reader does: (row heading, column heading) -> cell text.

Spans are expanded (a cell with colspan=2 stands under both headings), so a shifted heading row or a
missing cell moves values under the wrong heading and the comparison with the model fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from bs4 import BeautifulSoup, Tag

#: Decorations that are not the value: change markers, unknown-reason notes, dispute badges.
DECORATIONS = ".atlas-changed, .atlas-unknown, .atlas-disputed, sup.atlas-cite"


@dataclass(frozen=True)
class Grid:
    headings: list[str]  # the header row, first column included
    rows: list[list[str]]  # body rows, spans expanded

    def cell(self, row_heading: str, column_heading: str) -> str:
        rows = [row for row in self.rows if row[0] == row_heading]
        assert len(rows) == 1, f"{len(rows)} rows headed {row_heading!r}"
        assert self.headings.count(column_heading) == 1, f"column {column_heading!r} in {self.headings}"
        return rows[0][self.headings.index(column_heading)]

    def row_headings(self) -> list[str]:
        return [row[0] for row in self.rows]


def cell_text(cell: Tag) -> str:
    """Visible text of the value, lines kept apart (<br>), decorations dropped."""
    cell = BeautifulSoup(str(cell), "html.parser").find(cell.name)
    for decoration in cell.select(DECORATIONS):
        decoration.decompose()
    for br in cell.find_all("br"):
        br.replace_with("\n")
    return "\n".join(" ".join(line.split()) for line in cell.get_text().split("\n")).strip()


def _expand(rows: list[Tag]) -> list[list[str]]:
    grid: list[list[str]] = []
    pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows still to fill) from rowspans
    for tr in rows:
        line: list[str] = []
        cells = iter(tr.find_all(["th", "td"], recursive=False))
        column = 0
        while True:
            if column in pending:
                text, left = pending.pop(column)
                line.append(text)
                if left > 1:
                    pending[column] = (text, left - 1)
                column += 1
                continue
            cell = next(cells, None)
            if cell is None:
                break
            text = cell_text(cell)
            for _ in range(int(cell.get("colspan", 1))):
                if int(cell.get("rowspan", 1)) > 1:
                    pending[column] = (text, int(cell["rowspan"]) - 1)
                line.append(text)
                column += 1
        grid.append(line)
    return grid


def read_table(table: Tag) -> Grid:
    head = table.find("thead")
    header_rows = head.find_all("tr") if head else [table.find("tr")]
    body = table.find("tbody") or table
    body_rows = [tr for tr in body.find_all("tr", recursive=False) if tr not in header_rows]
    headings = _expand(header_rows)[-1]
    rows = _expand(body_rows)
    for row in rows:
        assert len(row) == len(headings), f"a row of {len(row)} cells under {len(headings)} headings: {row}"
    assert len(set(headings)) == len(headings), f"repeated heading in {headings}"
    return Grid(headings, rows)
