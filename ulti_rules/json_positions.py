"""Where keys sit in a JSON text, found without a second reader.

A ledger is read with ``json`` (fast), which keeps no positions; the positioned YAML
reader would give them but takes over a second for a large file. Only the few keys that
problems name need a place, so this module walks the text to them alone: each mapping
or list on their way is stepped through with the ``json`` module's own scanner, which
skips every other value at C speed. The positions are the YAML reader's
(``yaml_data.Position``): 1-based, a key's where the key is written, a list item's
where the item starts.

Call it only on a text ``json`` has read: it trusts the text's syntax.
"""

from __future__ import annotations

import bisect
import json
import json.scanner
import re
from collections.abc import Callable, Iterable
from typing import Any

from .ruleset.yaml_data import KeyPath, Mark, Position

_SPACE = re.compile(r"[ \t\n\r]*")
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""Line breaks as YAML counts them, so that a line is the one an editor shows."""


def json_positions(text: str, paths: Iterable[KeyPath]) -> dict[KeyPath, Position]:
    """The position of each of ``paths`` found in ``text``, and of each path leading to
    one (so that a path the text lacks is placed at its nearest ancestor)."""
    wanted: dict[Any, Any] = {}
    for path in paths:
        node = wanted
        for segment in path:
            node = node.setdefault(segment, {})
    walker = _Walker(text)
    start = walker.space(0)
    walker.mark((), start)
    if start < len(text):
        walker.walk(start, wanted, ())
    return walker.found


class _Walker:
    def __init__(self, text: str) -> None:
        self.text = text
        decoder: Any = json.JSONDecoder()  # the scanner takes its settings (typeshed: no)
        self.scan: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(decoder)
        self.breaks = [match.end() for match in _BREAK.finditer(text)]
        self.found: dict[KeyPath, Position] = {}

    def space(self, index: int) -> int:
        match = _SPACE.match(self.text, index)
        return match.end() if match else index

    def mark(self, path: KeyPath, index: int) -> None:
        line = bisect.bisect_right(self.breaks, index)
        line_start = self.breaks[line - 1] if line else 0
        mark = Mark(line + 1, index - line_start + 1)
        self.found[path] = Position(mark, mark)

    def skip(self, index: int) -> int:
        """The index after the value that starts at ``index``."""
        end: int = self.scan(self.text, index)[1]
        return end

    def walk(self, index: int, wanted: dict[Any, Any], path: KeyPath) -> int:
        """Step through the mapping or list at ``index`` (any other value: skip it),
        marking the wanted keys; the index after it."""
        text = self.text
        if not wanted or text[index] not in "{[":
            return self.skip(index)
        closing = "}" if text[index] == "{" else "]"
        index = self.space(index + 1)
        number = 0
        while text[index] != closing:
            key: str | int = number
            at = index
            if closing == "}":
                key, index = self.scan(text, index)
                index = self.space(self.space(index) + 1)  # past the ':'
            if key in wanted:
                self.mark((*path, key), at)
                index = self.walk(index, wanted[key], (*path, key))
            else:
                index = self.skip(index)
            index = self.space(index)
            if text[index] == ",":
                index = self.space(index + 1)
            number += 1
        return index + 1
