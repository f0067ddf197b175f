"""Pictures drawn at build time as inline SVG (no chart library, nothing fetched).

Each function returns an SVG string with a <title> and <desc> as its text alternative; the page
puts the table it is drawn from next to it.
"""

from __future__ import annotations

import datetime as dt
import html
import math

from macros.dataset.text import visible_text
from macros.query.catalog import Catalog
from macros.query.site import Links, page_type
from macros.query.tables import Table


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def lifecycle_chart(catalog: Catalog, table: Table) -> str:
    """One bar per deprecated or removed thing, from the release that deprecated it to the one
    that removed it; an open bar runs to the newest release when it is still deprecated."""
    versions = [r.version for r in catalog.releases]
    label_width, step, bar_height, gap = 330, 70, 14, 6
    width = label_width + step * len(versions) + 20
    rows = table.rows
    height = 40 + (bar_height + gap) * len(rows)
    x = {v: label_width + step * i + step / 2 for i, v in enumerate(versions)}
    links = Links(page_type("compare-index").pattern)  # the chart is on a comparison page
    parts = [
        # Drawn at its own size (the figure scrolls on narrow screens): scaled down to fit a phone,
        # its labels would be 6 px.
        # A group, not an image: its bars are links.
        f'<svg class="atlas-chart" role="group" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="lc-chart-title lc-chart-desc" xmlns="http://www.w3.org/2000/svg">',
        '<title id="lc-chart-title">Deprecations and removals by release</title>',
        f'<desc id="lc-chart-desc">{len(rows)} deprecated or removed APIs and platforms. A bar starts at '
        "the release that deprecated it and ends at the release that removed it; an open-ended bar "
        "is still deprecated. The table below lists the same data.</desc>",
    ]
    for version in versions:
        parts.append(f'<text x="{x[version]}" y="16" text-anchor="middle" class="atlas-axis">{version}</text>')
        parts.append(f'<line x1="{x[version]}" y1="22" x2="{x[version]}" y2="{height}" class="atlas-grid"/>')
    for index, row in enumerate(rows):
        y = 30 + index * (bar_height + gap)
        deprecated, removed = row.cells[1].text, row.cells[2].text
        start = x.get(deprecated, x.get(removed, label_width))
        end = x.get(removed, label_width + step * len(versions))
        still = removed not in x
        name = visible_text(row.label)
        title = _e(f"{name}: deprecated {deprecated}, {'still deprecated' if still else 'removed ' + removed}")
        label = name if len(name) <= 48 else name[:47] + "…"
        parts.append(
            f'<text x="{label_width - 8}" y="{y + bar_height - 3}" text-anchor="end" '
            f'class="atlas-label">{_e(label)}</text>'
        )
        css = "atlas-bar-open" if still else "atlas-bar"
        bar = (
            f'<rect x="{start - 6}" y="{y}" width="{max(end - start + 12, 12)}" height="{bar_height}" '
            f'rx="4" class="{css}"><title>{title}</title></rect>'
        )
        link = row.cells[1].link or row.cells[2].link
        if link:  # each bar opens its item (the chart is finished HTML: links name built pages)
            bar = f'<a href="{_e(links.html(link))}" aria-label="{title}">{bar}</a>'
        parts.append(bar)
    parts.append("</svg>")
    return "".join(parts)


def cadence_chart(catalog: Catalog) -> str:
    """Releases on a time axis; circle area proportional to commits (hollow when unknown)."""
    releases = catalog.releases
    first = dt.date.fromisoformat(releases[0].date)
    last = dt.date.fromisoformat(releases[-1].date)
    span = max((last - first).days, 1)
    width, height, margin = 760, 190, 50
    largest = max((r.stats.commits or 0) for r in releases) or 1
    parts = [
        f'<svg class="atlas-chart" role="img" viewBox="0 0 {width} {height}" width="100%" '
        'aria-labelledby="cadence-title cadence-desc" xmlns="http://www.w3.org/2000/svg">',
        '<title id="cadence-title">Release cadence and size</title>',
        f'<desc id="cadence-desc">{len(releases)} releases from {releases[0].date} to {releases[-1].date}, '
        "placed by release date; the area of each circle is proportional to its number of commits. "
        "The table below lists the same data.</desc>",
        f'<line x1="{margin}" y1="110" x2="{width - margin}" y2="110" class="atlas-grid"/>',
    ]
    for release in releases:
        days = (dt.date.fromisoformat(release.date) - first).days
        cx = margin + (width - 2 * margin) * days / span
        commits = release.stats.commits
        radius = 6 + 26 * math.sqrt((commits or largest * 0.5) / largest)
        css = "atlas-dot" if commits else "atlas-dot-unknown"
        size = f"{commits:,} commits" if commits else "commits unknown"
        people = f"{release.stats.contributors:,} contributors" if release.stats.contributors else ""
        parts.append(
            f'<circle cx="{cx:.1f}" cy="110" r="{radius:.1f}" class="{css}">'
            f"<title>{_e(f'PyTorch {release.version}, {release.date}: {size} {people}'.strip())}</title>"
            "</circle>"
        )
        parts.append(f'<text x="{cx:.1f}" y="60" text-anchor="middle" class="atlas-axis">{release.version}</text>')
        parts.append(f'<text x="{cx:.1f}" y="165" text-anchor="middle" class="atlas-label">{release.date}</text>')
        parts.append(
            f'<text x="{cx:.1f}" y="181" text-anchor="middle" class="atlas-label">'
            f"{_e(size.replace(' commits', ''))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
