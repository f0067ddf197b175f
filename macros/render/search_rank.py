"""Search ranking: a boost for each entry of the search index (Material's lunr), so that the entry
whose own title is about what the reader typed comes before entries that name it in passing.

Why: Material scores a title match 1000 times a text match, but turns length normalization off
(`b = 0`) for every field. Every title that contains "TorchScript" then scores the same, and the
tie goes to the entry whose body repeats the word most: the 2.10 deprecation of TorchScript, whose
body says `torch.jit`, came eighth. lunr multiplies an entry's score by its `boost`, so each entry
gets here what the title field lacks:

- BM25's length normalization of the title, with lunr's own constants (k1 = 1.2, b = 0.75): a
  word in a four-word title says more about the entry than the same word in a ten-word title;
- a weight for changes a reader must act on (breaking, deprecation, removal, regression) over the
  platform notes and features that mention the same words: "cuda 13" brings `pip install torch`
  getting CUDA 13.0 before the cuDNN and NCCL versions of the CUDA 13 wheels.

Pure: entries in, entries out (the hook hands over the search plugin's entries before it writes).

`trim_entries` also keeps out of the index what nobody searches for but every first visit would
download (the index is fetched on every page load; at 800 items it was 305 KB compressed, over
half of a guide's first visit): the text of the "Sources" sections (the registry and each page's
list: a source is read on the page, its title links there), the citation marks `[1]` and the
lines listing pull request numbers. Titles stay, so a section is still found by its heading.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

from macros.dataset.vocabulary import SEARCH_WEIGHED_KINDS

#: lunr's BM25 constants (its defaults, which Material keeps for k1 and sets b to 0 for).
K1 = 1.2
B = 0.75
#: An entry for a kind the reader has to act on (the vocabulary's SEARCH_WEIGHED_KINDS) weighs this much more.
ACTION_WEIGHT = 1.5

_TAG = re.compile(r"<[^>]+>")
#: The anchor of the sources section of every page that cites (macros/dataset/checks.py reserves it).
SOURCES_ANCHOR = "sources"
#: A citation mark as the pages write it (`<sup>[1]</sup>`, with its links) and a pull-request line.
_CITATION = re.compile(r"\s*<sup>(?:(?!</sup>).)*\[\d+\](?:(?!</sup>).)*</sup>", re.S)
_PR_LINE = re.compile(r"<p>Pull requests?: (?:(?!</p>).)*</p>", re.S)


def trim_entries(entries: Iterable[MutableMapping[str, Any]]) -> None:
    """Drop from each entry's text what no reader searches for (see the module's docstring)."""
    for entry in entries:
        if str(entry.get("location", "")).partition("#")[2] == SOURCES_ANCHOR:
            entry["text"] = ""
            continue
        text = str(entry.get("text", ""))
        entry["text"] = _PR_LINE.sub("", _CITATION.sub("", text))


def title_length(title: str, separator: re.Pattern[str]) -> int:
    """Words of an entry's title as the search index splits them (its HTML tags dropped)."""
    return sum(1 for word in separator.split(html.unescape(_TAG.sub("", title))) if word)


def rank_entries(entries: Iterable[MutableMapping[str, Any]], separator: str, kind_of: Mapping[str, str]) -> None:
    """Set `boost` on each entry. `separator`: the index's word separator (mkdocs.yml);
    `kind_of`: an item's kind by its anchor (the part of `location` after `#`)."""
    entries = list(entries)
    if not entries:
        return
    split = re.compile(separator)
    lengths = [title_length(str(entry.get("title", "")), split) for entry in entries]
    average = max(1.0, sum(lengths) / len(lengths))
    for entry, length in zip(entries, lengths, strict=True):
        # BM25's term-frequency part for one occurrence, relative to what b = 0 gives (1).
        boost = (K1 + 1) / (1 + K1 * (1 - B + B * length / average))
        anchor = str(entry.get("location", "")).partition("#")[2]
        if kind_of.get(anchor) in SEARCH_WEIGHED_KINDS:
            boost *= ACTION_WEIGHT
        entry["boost"] = round(boost, 3)
