"""Ruleset files parsed once per content: a club file's base is not parsed again for each club.

Every club file ``extends:`` a bundled ruleset, and most take the Four Aces fragment
too; loading ten club files read and parsed ``wikipedia.yaml`` ten times, at about
14 ms a time, where reading its bytes and hashing them takes 0.03 ms. The parsed
document is kept under the SHA-256 of the file's bytes, so a file that changed is
parsed afresh whatever its timestamp says, and two paths to the same text share one
entry. Only documents that parsed are kept (a file with an error is read again, and
reports again).

Callers get a copy of the data (a ruleset's mappings and lists, copied in about
0.25 ms), so no caller can change what the next one reads; the positions are shared,
read-only. The cache is bounded by entries and by the nodes of the documents it holds
(not by their texts' bytes: 200 bytes of aliases can expand to 100,000 nodes), the
least recently used dropped first, so a long-running program that has seen thousands of
club files holds only the last few, and a file within the reader's bounds takes at
most its own share.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import MappingProxyType

from ..recent import Recent
from .reads import note_file
from .safe_yaml import MAX_BYTES, YamlDocument, copied, decode, load_text, read_bytes

ENTRIES = 32
"""Documents kept at most: a chain is a few files, a program uses a few chains."""
NODES = 25_000
"""The documents kept hold at most this many nodes (keys, list items, values) in all:
``wikipedia.yaml`` has 703. A document larger than this alone (the reader allows 100,000,
aliases expanded) is parsed every time it is read."""


class ParsedFiles:
    """YAML documents by the digest of their bytes, within ``ENTRIES`` and ``NODES``."""

    def __init__(self, entries: int = ENTRIES, nodes: int = NODES) -> None:
        self._documents: Recent[tuple[bytes, int], YamlDocument] = Recent(entries, nodes)

    def __len__(self) -> int:
        return len(self._documents)

    @property
    def held(self) -> int:
        """The nodes of the documents kept."""
        return self._documents.held

    def read(self, path: Path, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
        """The document in ``path``, as ``safe_yaml.read_file`` reads it (YamlError alike)."""
        raw = read_bytes(path, max_bytes=max_bytes)
        key = (hashlib.sha256(raw).digest(), max_bytes)
        note_file(path, key[0])
        document = self._documents.get(key)
        if document is None:
            parsed = load_text(decode(raw), max_bytes=max_bytes)
            document = YamlDocument(parsed.data, MappingProxyType(dict(parsed.positions)))
            document = self._documents.setdefault(key, document, len(document.positions))
        return YamlDocument(copied(document.data), document.positions, key[0])

    def clear(self) -> None:
        self._documents.clear()


PARSED = ParsedFiles()
"""The ruleset files read by this process (``finding._read``)."""
