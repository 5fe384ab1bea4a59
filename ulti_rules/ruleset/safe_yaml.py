"""Untrusted YAML, read safely and within bounds, with the position of every key.

A club file may come from a stranger: it must not run code (only plain tags), hang
(an alias bomb, a 50 MB file) or crash the reader (10,000-deep nesting). PyYAML's own
composer is recursive and checks nothing, so this module composes the parser's events
itself, iteratively, and enforces every bound as the events arrive, before any Python
recursion or expansion happens. It also refuses duplicate keys, which PyYAML silently
resolves in favour of the last one.

The parser is libyaml's where PyYAML was built with it (speed), the pure-Python one
otherwise; both give the same events and marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Problem
from ..quoting import QUOTED, shorten

MAX_BYTES = 1024 * 1024
"""A ruleset is a few kilobytes; anything over 1 MiB is refused unread."""
MAX_DEPTH = 64
"""Nested mappings and lists, aliases expanded; a ruleset needs about six."""
MAX_NODES = 100_000
"""Nodes in the document with every alias expanded: bounds alias bombs."""
MAX_ALIASES = 1_000
"""Aliases to a mapping or a list."""
EXPANSION = 2
"""The text of the document with every alias expanded may be at most this many times the
size limit: a short anchor repeated is fine, a long text repeated a thousand times is a bomb."""

KeyPath = tuple[str | int, ...]
"""Where a node sits: mapping keys and list indexes from the top (``("ladder", 3)``)."""

_CORE = "tag:yaml.org,2002:"
_STR = _CORE + "str"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
_MERGE_TAG = _CORE + "merge"
_KIND_OF = {bool: "true/false", int: "a number", float: "a number", type(None): "null"}
_KINDS = {ScalarNode: "text", SequenceNode: "a list", MappingNode: "a mapping"}


@dataclass(frozen=True)
class Mark:
    """A 1-based line and column."""

    line: int
    column: int


@dataclass(frozen=True)
class Position:
    """Where a node was written: its key (or list item), and its value."""

    key: Mark
    value: Mark


@dataclass(frozen=True)
class YamlIssue:
    """One thing wrong with the YAML itself, before any schema is applied."""

    mark: Mark | None
    message: str
    path: KeyPath = ()


class YamlError(Exception):
    """The YAML could not be read; ``issues`` lists what was wrong, positioned."""

    def __init__(self, issues: list[YamlIssue]) -> None:
        self.issues = issues
        super().__init__("; ".join(issue.message for issue in issues))


def yaml_problems(exc: YamlError, display: str) -> list[Problem]:
    """The problems of a document that could not be read as (bounded, safe) YAML."""
    return [
        Problem(
            display,
            issue.mark.line if issue.mark else None,
            issue.mark.column if issue.mark else None,
            ".".join(str(p) for p in issue.path),
            issue.message,
        )
        for issue in exc.issues
    ]


def describe(value: Any, *, quote: bool = True) -> str:
    """What a wrong value is, for a message: ``true/false``, ``text ('10')``, ``a list``;
    without ``quote`` only its kind (for a file that may not be ours to show).

    Here, beside the reader, so that a module reading files says what it found without
    importing the pydantic types of ``scalars`` (which re-exports it)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        if not quote:
            return "a number"
        big = isinstance(value, int) and abs(value) >= 10**QUOTED
        return "a number (too long to show)" if big else f"a number ({value})"
    if isinstance(value, str):
        return f"text ({shorten(value)!r})" if quote else "text"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "a list"
    return "a mapping"


@dataclass(frozen=True)
class YamlDocument:
    """Plain data (dicts, lists, scalars) and the position of every node in it."""

    data: Any
    positions: Mapping[KeyPath, Position] = field(default_factory=dict)


def read_file(path: Path, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Read one YAML document from ``path``, refusing big files before reading them."""
    return load_text(read_text(path, max_bytes=max_bytes), max_bytes=max_bytes)


def read_text(path: Path, *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path``: a regular file of at most ``max_bytes``, else YamlError."""
    return decode(read_bytes(path, max_bytes=max_bytes))


def read_bytes(path: Path, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``: a regular file of at most ``max_bytes``, else YamlError."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise YamlError([YamlIssue(None, "not a regular file")])
        if size > max_bytes:
            raise YamlError([_too_big(size, max_bytes)])
        with path.open("rb") as stream:
            raw = stream.read(max_bytes + 1)  # the size can change, or lie (a device)
    except OSError as exc:
        raise YamlError([YamlIssue(None, f"cannot read the file: {exc.strerror or exc}")]) from None
    if len(raw) > max_bytes:
        raise YamlError([_too_big(len(raw), max_bytes)])
    return raw


def decode(raw: bytes) -> str:
    """``raw`` as UTF-8 text (a byte-order mark dropped), else YamlError at its line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlError(
            [YamlIssue(Mark(line, 1), f"not UTF-8 text (byte 0x{raw[exc.start]:02x})")]
        ) from None
    return text


def load_text(text: str, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Read one YAML document from ``text`` within the bounds of this module."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise YamlError([_too_big(len(text.encode("utf-8", "surrogatepass")), max_bytes)])
    loader = _new_loader(text)
    loader.max_chars = EXPANSION * max_bytes
    try:
        node = loader.compose_bounded(text)
        if node is None:
            return YamlDocument(None, {})
        return _Builder(loader).build(node)
    finally:
        loader.dispose()


def _new_loader(text: str) -> _BoundedComposer:
    """A loader for ``text``; the pure-Python reader checks every character at once."""
    try:
        return _LOADER(text)
    except yaml.reader.ReaderError as exc:
        raise YamlError([_reader_issue(exc, text)]) from None


def read_heading(
    path: Path, keys: Collection[str], *, max_bytes: int = MAX_BYTES
) -> dict[str, Any] | None:
    """The top-level entries of a mapping file up to the first of ``keys``, read only as
    far as that key: ``ulti rulesets`` wants the title of two thousand files, not their
    ladders. A value that is not plain text shows as ``NOT_TEXT``, except a mapping
    of plain text to plain text (a title in each language), which is a dict.

    None when a quick read cannot tell (no mapping, a merge key, an alias, a duplicate
    key or a syntax error on the way): read the whole file then. Without any of
    ``keys`` the whole top-level mapping is read and the dict has all its keys.
    """
    try:
        text = read_text(path, max_bytes=max_bytes)
        loader = _new_loader(text)
    except YamlError:
        return None
    try:
        return _heading(loader, frozenset(keys))
    except (yaml.YAMLError, YamlError):
        return None
    finally:
        loader.dispose()


NOT_TEXT = object()
"""What :func:`read_heading` gives for a value that is not plain text."""


def _heading(loader: _BoundedComposer, keys: frozenset[str]) -> dict[str, Any] | None:
    def event() -> Any:
        return loader.get_event()  # type: ignore[no-untyped-call]

    event()  # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    event()  # document start
    if not isinstance(event(), yaml.MappingStartEvent):
        return None
    found: dict[str, Any] = {}
    while True:
        key = event()
        if isinstance(key, yaml.MappingEndEvent):
            return found
        if not isinstance(key, yaml.ScalarEvent):
            return None
        if loader._tag(key, ScalarNode) != _STR or key.value in found:
            return None  # a merge key (<<), a key that is no text, a duplicate
        value = event()
        if isinstance(value, yaml.ScalarEvent):
            text = loader._tag(value, ScalarNode) == _STR
            found[key.value] = value.value if text else NOT_TEXT
        elif isinstance(value, yaml.MappingStartEvent):
            found[key.value] = _text_mapping(loader, event)
        elif isinstance(value, yaml.SequenceStartEvent):
            _skip(event, 1)
            found[key.value] = NOT_TEXT
        else:
            return None  # an alias: its value is written elsewhere
        if key.value in keys:
            return found


def _text_mapping(loader: _BoundedComposer, event: Callable[[], Any]) -> Any:
    """A mapping of text to text (a title in each language), its start read; NOT_TEXT
    (and the rest of it skipped) if it holds anything else."""
    found: dict[str, str] = {}
    while True:
        key = event()
        if isinstance(key, yaml.MappingEndEvent):
            return found
        value = event() if isinstance(key, yaml.ScalarEvent) else key
        text = (
            isinstance(key, yaml.ScalarEvent)
            and isinstance(value, yaml.ScalarEvent)
            and loader._tag(key, ScalarNode) == _STR
            and loader._tag(value, ScalarNode) == _STR
            and key.value not in found
        )
        if not text:
            if isinstance(value, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                _skip(event, 1)
            _skip(event, 1)  # the rest of the mapping
            return NOT_TEXT
        found[key.value] = value.value


def _skip(event: Callable[[], Any], depth: int) -> None:
    """Read events until ``depth`` open mappings and lists are closed."""
    while depth:
        inner = event()
        if isinstance(inner, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
        elif isinstance(inner, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1


def _too_big(size: int, max_bytes: int) -> YamlIssue:
    return YamlIssue(
        None,
        f"the file is {_megabytes(size)}; files over {_megabytes(max_bytes)} are not read",
    )


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def _mark(mark: Any) -> Mark:
    return Mark(mark.line + 1, mark.column + 1)


def _marks(event: Any) -> tuple[Any, Any]:
    """An event's start and end marks (libyaml's Mark type is not PyYAML's)."""
    return event.start_mark, event.end_mark


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


if TYPE_CHECKING:
    _ComposerBase = yaml.SafeLoader
else:
    _ComposerBase = object


class _Frame:
    """An open mapping or list while its events arrive."""

    __slots__ = ("anchor", "chars", "height", "key", "node", "size")

    def __init__(self, node: SequenceNode | MappingNode, anchor: str | None) -> None:
        self.node = node
        self.anchor = anchor
        self.size = 1
        self.chars = 0
        self.height = 1
        self.key: Node | None = None


class _BoundedComposer(_ComposerBase):
    """The part of a safe loader that composes: iterative and bounded.

    Timestamps and the ``=`` value tag resolve as text: nothing read here has dates,
    and a title like ``2024-05-01`` should stay what it looks like.
    """

    max_chars: int = EXPANSION * MAX_BYTES
    """Characters of scalar text in the document with every alias expanded."""

    def _event(self) -> Any:
        return self.get_event()  # type: ignore[no-untyped-call]

    def compose_bounded(self, text: str = "") -> Node | None:
        """The single document's node graph, or None for an empty file.

        ``text`` is the document itself, for a hint on what a syntax error means.
        """
        try:
            self._event()  # stream start
            if self.check_event(yaml.StreamEndEvent):
                return None
            self._event()  # document start
            root = self._compose_root()
            self._event()  # document end
            if not self.check_event(yaml.StreamEndEvent):
                second = self._event()
                raise YamlError(
                    [
                        YamlIssue(
                            _mark(second.start_mark),
                            "the file must hold one YAML document; this is a second one",
                        )
                    ]
                )
            return root
        except yaml.MarkedYAMLError as exc:
            raise YamlError([_syntax_issue(exc, text)]) from None
        except yaml.reader.ReaderError as exc:
            raise YamlError([_reader_issue(exc, text)]) from None
        except yaml.YAMLError as exc:
            raise YamlError([YamlIssue(None, str(exc))]) from None

    def _compose_root(self) -> Node:
        stack: list[_Frame] = []
        anchors: dict[str, tuple[Node, int, int, int]] = {}  # node, size, height, chars
        open_anchors: set[str] = set()
        total = 0
        total_chars = 0
        aliases = 0

        def fail(event: Any, message: str) -> YamlError:
            return YamlError([YamlIssue(_mark(event.start_mark), message)])

        # The loop runs once per event (a thousand in a bundled ruleset): names are bound
        # here, and a plain scalar, the usual event, is resolved without a method call.
        get_event: Any = self.get_event
        resolve: Any = self.resolve
        scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
        max_chars = self.max_chars
        node: Node
        while True:
            event = get_event()
            if type(event) is scalar_event and event.anchor is None:
                tag = event.tag
                if tag is None or tag == "!":
                    tag = resolve(ScalarNode, event.value, event.implicit)
                else:
                    tag = self._tag(event, ScalarNode)
                start, end = _marks(event)
                node = ScalarNode(tag, event.value, start, end, event.style)
                size, height, chars = 1, 0, len(event.value)
            elif isinstance(event, alias_event):
                if event.anchor in open_anchors:
                    raise fail(event, f"alias *{event.anchor} refers to a node that contains it")
                if event.anchor not in anchors:
                    raise fail(event, f"alias *{event.anchor} has no anchor before it")
                node, size, height, chars = anchors[event.anchor]
                if not isinstance(node, ScalarNode):
                    aliases += 1
                    if aliases > MAX_ALIASES:
                        raise fail(event, f"more than {MAX_ALIASES} aliases to mappings or lists")
                if len(stack) + height > MAX_DEPTH:
                    raise fail(event, f"nested deeper than {MAX_DEPTH} levels (aliases expanded)")
            elif isinstance(event, yaml.ScalarEvent):
                tag = self._tag(event, ScalarNode)
                start, end = _marks(event)
                node = ScalarNode(tag, event.value, start, end, event.style)
                size, height, chars = 1, 0, len(event.value)
                if event.anchor is not None:
                    self._check_new_anchor(event, anchors, open_anchors)
                    anchors[event.anchor] = (node, size, height, chars)
            elif isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                if len(stack) >= MAX_DEPTH:
                    raise fail(event, f"nested deeper than {MAX_DEPTH} levels")
                total += 1
                if total > MAX_NODES:
                    raise fail(event, f"more than {MAX_NODES} nodes (aliases expanded)")
                collection: SequenceNode | MappingNode
                start, _ = _marks(event)
                if isinstance(event, yaml.SequenceStartEvent):
                    tag = self._tag(event, SequenceNode)
                    collection = SequenceNode(tag, [], start, None, event.flow_style)
                else:
                    tag = self._tag(event, MappingNode)
                    collection = MappingNode(tag, [], start, None, event.flow_style)
                if event.anchor is not None:
                    self._check_new_anchor(event, anchors, open_anchors)
                    open_anchors.add(event.anchor)
                stack.append(_Frame(collection, event.anchor))
                continue
            elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
                frame = stack.pop()
                node = frame.node
                node.end_mark = event.end_mark
                size, height, chars = frame.size, frame.height, frame.chars
                if frame.anchor is not None:
                    open_anchors.discard(frame.anchor)
                    anchors[frame.anchor] = (node, size, height, chars)
                if not stack:
                    return node
                self._attach(stack[-1], node, size, height, chars)
                continue
            else:  # pragma: no cover - the parser emits nothing else inside a document
                raise fail(event, f"unexpected {type(event).__name__}")
            # a scalar, or an alias counted as the whole node it repeats
            total += size
            if total > MAX_NODES:
                raise fail(event, f"more than {MAX_NODES} nodes (aliases expanded)")
            total_chars += chars
            if total_chars > max_chars:
                raise fail(
                    event,
                    f"more than {_megabytes(max_chars)} of text with aliases expanded "
                    "(an alias repeats its anchor's whole text)",
                )
            if not stack:
                return node
            self._attach(stack[-1], node, size, height, chars)

    @staticmethod
    def _check_new_anchor(
        event: Any, anchors: Mapping[str, object], open_anchors: set[str]
    ) -> None:
        if event.anchor in anchors or event.anchor in open_anchors:
            raise YamlError(
                [YamlIssue(_mark(event.start_mark), f"anchor &{event.anchor} is defined twice")]
            )

    @staticmethod
    def _attach(parent: _Frame, node: Node, size: int, height: int, chars: int) -> None:
        parent.size += size
        parent.chars += chars
        parent.height = max(parent.height, height + 1)
        if isinstance(parent.node, SequenceNode):
            parent.node.value.append(node)
        elif parent.key is None:
            parent.key = node
        else:
            parent.node.value.append((parent.key, node))
            parent.key = None

    def _tag(self, event: Any, kind: type[Node]) -> str:
        """The node's tag; any tag beyond plain data is refused, by name."""
        tag: str | None = event.tag
        if tag is None or tag == "!":
            implicit = event.implicit if kind is ScalarNode else True
            value = event.value if kind is ScalarNode else None
            resolved: str = self.resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
            return resolved
        allowed = (
            _SCALAR_TAGS
            if kind is ScalarNode
            else {_CORE + ("seq" if kind is SequenceNode else "map")}
        )
        if tag not in allowed:
            raise YamlError(
                [
                    YamlIssue(
                        _mark(event.start_mark),
                        f"tag {_short_tag(tag)} is not allowed on {_KINDS[kind]}: only plain "
                        "YAML is read (mappings, lists, text, numbers, true/false, null)",
                    )
                ]
            )
        return tag


def _reader_issue(exc: yaml.reader.ReaderError, text: str) -> YamlIssue:
    """A character YAML does not allow in a file (a raw control character), at its line
    and column, in one line."""
    position = exc.position
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    char = exc.character
    code = ord(char) if isinstance(char, str) else char
    return YamlIssue(
        Mark(line, column),
        f"U+{code:04X} is a control character, and control characters cannot be written in "
        f'a YAML file: remove it, or write it as an escape inside double quotes ("\\x{code:02x}")'
        if code < 0x100
        else f"U+{code:04X} cannot be written in a YAML file: remove it",
    )


def _syntax_issue(exc: yaml.MarkedYAMLError, text: str = "") -> YamlIssue:
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or exc.context or "invalid YAML"
    if exc.problem and exc.context:
        message = f"{exc.problem} ({exc.context})"
    if exc.problem and "maximum nesting depth" in exc.problem:  # libyaml's own bound (1000)
        message = f"nested deeper than {MAX_DEPTH} levels"
    hint = _syntax_hint(exc, text)
    if hint:
        message += f": {hint}"
    return YamlIssue(_mark(mark) if mark is not None else None, message)


def _syntax_hint(exc: yaml.MarkedYAMLError, text: str) -> str:
    """What a parser message usually means in a hand-written file, in a person's words.

    The parser says what it expected; a club organiser needs to hear "a tab", "the
    indentation", "quote the value" or "this bracket is never closed".
    """
    problem, context = exc.problem or "", exc.context or ""
    at, opened = exc.problem_mark, exc.context_mark
    lines = text.splitlines()
    line = lines[at.line] if at is not None and 0 <= at.line < len(lines) else ""
    if "\t" in line[: (at.column + 1) if at is not None else 0] or "'\\t'" in problem:
        return "a tab character: YAML indents with spaces only; replace the tab with spaces"
    if "mapping values are not allowed" in problem:
        return (
            "a ': ' where none can be; quote a value that holds one "
            '(title: "Club: our rules"), put a nested key on a line of its own, and check '
            "the indentation and that the line above ends its key with ':'"
        )
    if "escape" in problem:
        return (
            "an escape in double quotes must stand for a character: \\ud800 to \\udfff "
            "are halves of a UTF-16 pair, not characters, and \\U goes up to \\U0010ffff; "
            "write the character itself"
        )
    if opened is None:
        return "check the indentation" if "block" in context else ""
    where = f"line {opened.line + 1}, column {opened.column + 1}"
    if "flow mapping" in context or "flow sequence" in context:
        brackets = "{}" if "mapping" in context else "[]"
        return (
            f"the '{brackets[0]}' at {where} is not closed with '{brackets[1]}', "
            "or a ',' is missing between its items"
        )
    if "quoted scalar" in context:
        return f"the quote at {where} is never closed"
    if "block mapping" in context:
        if line.lstrip().startswith("- "):
            return "a list item ('- ') where this mapping expects 'key: value' lines"
        return (
            "check the indentation: the keys of one mapping start in the same column "
            f"(this mapping's first key is at {where})"
        )
    if "block collection" in context:
        return (
            "check the indentation: every item of a list starts with '- ' in the same "
            f"column (this list's first item is at {where})"
        )
    return ""


_BOOL_1_2 = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
"""YAML 1.2's true and false. PyYAML reads YAML 1.1, where yes, no, on, off, y and n are
true and false too: a club's ``require_trick: yes`` or a title ``No`` would turn into a
boolean without a word, where the docs promise true/false as such."""

_BoundedComposer.yaml_implicit_resolvers = {
    first: [
        (tag, _BOOL_1_2 if tag == _CORE + "bool" else regexp)
        for tag, regexp in resolvers
        if tag not in (_CORE + "timestamp", _CORE + "value")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _PyLoader(_BoundedComposer, yaml.SafeLoader):
    """Pure-Python parser: used where PyYAML was built without libyaml."""


_LOADER: type[_BoundedComposer] = _PyLoader
if hasattr(yaml, "CSafeLoader"):

    class _CLoader(_BoundedComposer, yaml.CSafeLoader):
        """libyaml's parser: the same events, several times faster."""

    _LOADER = _CLoader


class _Builder:
    """Turns the bounded node graph into plain data, recording every node's position.

    Aliases are expanded into copies (the composer bounded their total size), so the
    data holds no shared or recursive structure.
    """

    def __init__(self, loader: _BoundedComposer) -> None:
        self._loader = loader
        self.positions: dict[KeyPath, Position] = {}
        self.issues: dict[tuple[Mark | None, str], YamlIssue] = {}

    def build(self, root: Node) -> YamlDocument:
        start = _mark(root.start_mark)
        data = self._build(root, (), start)
        if self.issues:
            raise YamlError(
                sorted(
                    self.issues.values(),
                    key=lambda i: (i.mark.line, i.mark.column) if i.mark else (0, 0),
                )
            )
        return YamlDocument(data, self.positions)

    def _issue(self, node: Node, message: str, path: KeyPath) -> None:
        mark = _mark(node.start_mark)
        self.issues.setdefault((mark, message), YamlIssue(mark, message, path))

    def _build(self, node: Node, path: KeyPath, key_mark: Mark) -> Any:
        self.positions[path] = Position(key_mark, _mark(node.start_mark))
        if isinstance(node, SequenceNode):
            return [
                self._build(item, (*path, i), _mark(item.start_mark))
                for i, item in enumerate(node.value)
            ]
        if isinstance(node, MappingNode):
            return {
                key: self._build(value, (*path, key), mark)
                for key, mark, value in self._entries(node, path)
            }
        return self._scalar(node, path)

    def _scalar(self, node: Node, path: KeyPath) -> Any:
        if _SURROGATE.search(node.value):  # libyaml refuses "\ud800"; PyYAML's reader not
            self._issue(
                node,
                f"{shorten(node.value)!r} holds half of a UTF-16 pair (\\ud800 to \\udfff), "
                "which is not a character; write the character itself",
                path,
            )
            return None
        if node.tag == _STR:
            return node.value  # what the constructor returns, without its cost per value
        try:
            return self._loader.construct_object(node)
        except (yaml.YAMLError, ValueError, KeyError, TypeError):
            shown = shorten(node.value)
            self._issue(node, f"cannot read {shown!r} as {_short_tag(node.tag)}", path)
            return None

    def _entries(self, node: MappingNode, path: KeyPath) -> list[tuple[str, Mark, Node]]:
        """The mapping's (key, key position, value node), merge keys (``<<``) applied."""
        entries: dict[str, tuple[str, Mark, Node]] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merges.append(value_node)
                continue
            if not isinstance(key_node, ScalarNode):
                self._issue(key_node, f"a key must be text, not {_KINDS[type(key_node)]}", path)
                continue
            key = self._scalar(key_node, path)
            if not isinstance(key, str):
                if key is not None or key_node.tag == _CORE + "null":
                    self._issue(
                        key_node,
                        f"key {shorten(key_node.value)!r} is read as "
                        f"{_KIND_OF.get(type(key), 'not text')}; "
                        f"quote it: '{shorten(key_node.value)}'",
                        path,
                    )
                continue
            key_mark = _mark(key_node.start_mark)
            if key in entries:
                first = entries[key][1]
                self._issue(
                    key_node,
                    f"duplicate key '{shorten(key)}' (first set at line {first.line}); "
                    "YAML would silently keep only the last",
                    (*path, key),
                )
                continue
            entries[key] = (key, key_mark, value_node)
        for merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            for source in sources:
                if not isinstance(source, MappingNode):
                    self._issue(merge, "'<<' merges a mapping or a list of mappings", path)
                    continue
                for key, key_mark, value_node in self._entries(source, path):
                    entries.setdefault(key, (key, key_mark, value_node))
        return list(entries.values())
