"""Renderer for feed readers: the Atom feed of releases (`feed.xml`), dated from the data."""

from __future__ import annotations

import datetime as dt
import re
from xml.sax import saxutils

from macros.dataset.text import text_html, visible_text
from macros.query.catalog import Catalog
from macros.query.site import page_url

#: Characters XML 1.0 does not allow (its `Char` production): a feed holding one is not XML, and
#: feed readers drop the whole feed. The data rules refuse them in text; this keeps the feed valid
#: whatever reaches it (the site name comes from mkdocs.yml, not the data).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """Text for an XML element or attribute: escaped, without characters XML 1.0 forbids."""
    return saxutils.escape(_NOT_XML.sub("", text), {'"': "&quot;"})


def atom_feed(catalog: Catalog, site_url: str, title: str) -> str:
    """An Atom (RFC 4287) feed of releases, newest first. Dates come from the data, not the clock.
    Summaries are the text a reader sees on the page: no Markdown marks."""
    base = site_url.rstrip("/") + "/"

    def stamp(date: str) -> str:
        return dt.date.fromisoformat(date).strftime("%Y-%m-%dT00:00:00Z")

    entries = []
    for release in reversed(catalog.releases):
        url = page_url(site_url, "release", version=release.version)
        entries.append(
            "  <entry>\n"
            f"    <title>PyTorch {escape(release.version)}</title>\n"
            f'    <link rel="alternate" type="text/html" href="{escape(url)}"/>\n'
            f"    <id>{escape(url)}</id>\n"
            f"    <updated>{stamp(release.date)}</updated>\n"
            f"    <published>{stamp(release.date)}</published>\n"
            f'    <summary type="text">{escape(visible_text(text_html(release.summary)))}</summary>\n'
            "  </entry>\n"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"  <title>{escape(title)}: PyTorch releases</title>\n"
        f'  <link rel="self" type="application/atom+xml" href="{escape(base)}feed.xml"/>\n'
        f'  <link rel="alternate" type="text/html" href="{escape(base)}"/>\n'
        f"  <id>{escape(base)}feed.xml</id>\n"
        f"  <updated>{stamp(catalog.latest.date)}</updated>\n"
        "  <author><name>PyTorch Release Atlas</name></author>\n" + "".join(entries) + "</feed>\n"
    )
