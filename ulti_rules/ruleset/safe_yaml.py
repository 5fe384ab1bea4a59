"""Untrusted YAML, read safely and within bounds, with the position of every key.

A club file may come from a stranger: it must not run code (only plain tags), hang
(an alias bomb, a 50 MB file) or crash the reader (10,000-deep nesting). PyYAML's own
composer is recursive and checks nothing, so this module reads the parser's events
itself, in one pass and without recursion, into plain data and positions, and enforces
every bound as the events arrive, before any alias is copied. It also refuses duplicate
keys, which PyYAML silently resolves in favour of the last one.

The parser is libyaml's where PyYAML was built with it (speed), the pure-Python one
otherwise; both give the same events and marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..quoting import describe as describe  # imported from here too
from ..quoting import shorten
from ..said import Said
from .headings import NOT_TEXT as NOT_TEXT  # what a heading holds for a value that is no text

# Their home is yaml_data.py (no PyYAML); imported from here too.
from .yaml_data import MAX_BYTES as MAX_BYTES
from .yaml_data import KeyPath as KeyPath
from .yaml_data import Mark as Mark
from .yaml_data import Position as Position
from .yaml_data import YamlDocument as YamlDocument
from .yaml_data import YamlError as YamlError
from .yaml_data import YamlIssue as YamlIssue
from .yaml_data import copied as copied
from .yaml_data import decode as decode
from .yaml_data import megabytes, too_big
from .yaml_data import read_bytes as read_bytes
from .yaml_data import read_text as read_text
from .yaml_data import values_in as values_in
from .yaml_data import yaml_problems as yaml_problems

MAX_DEPTH = 64
"""Nested mappings and lists, aliases expanded; a ruleset needs about six."""
MAX_NODES = 100_000
"""Nodes in the document with every alias expanded: bounds alias bombs."""
MAX_ALIASES = 1_000
"""Aliases to a mapping or a list."""
EXPANSION = 2
"""The text of the document with every alias expanded may be at most this many times the
size limit: a short anchor repeated is fine, a long text repeated a thousand times is a bomb."""

_CORE = "tag:yaml.org,2002:"
_STR = _CORE + "str"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SCALAR_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null"))
_MERGE_TAG = _CORE + "merge"
_REMEMBERED = 4096
"""How many distinct plain scalars a reading remembers the tag and value of."""
_KIND_OF = {bool: "true/false", int: "a number", float: "a number", type(None): "null"}
_KINDS = {ScalarNode: "text", SequenceNode: "a list", MappingNode: "a mapping"}
_T = TypeVar("_T")


def read_file(path: Path, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Read one YAML document from ``path``, refusing big files before reading them."""
    return load_text(read_text(path, max_bytes=max_bytes), max_bytes=max_bytes)


def load_text(text: str, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Read one YAML document from ``text`` within the bounds of this module."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise YamlError([too_big(len(text.encode("utf-8", "surrogatepass")), max_bytes)])
    loader = _new_loader(text)
    loader.max_chars = EXPANSION * max_bytes
    try:
        return _Reader(loader).read(text)
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


def _mark(mark: Any) -> Mark:
    return Mark(mark.line + 1, mark.column + 1)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


if TYPE_CHECKING:
    _ComposerBase = yaml.SafeLoader
else:
    _ComposerBase = object


class _BoundedComposer(_ComposerBase):
    """A safe loader's parser and resolver, read by :class:`_Reader`: only plain tags.

    Timestamps and the ``=`` value tag resolve as text: nothing read here has dates,
    and a title like ``2024-05-01`` should stay what it looks like.
    """

    max_chars: int = EXPANSION * MAX_BYTES
    """Characters of scalar text in the document with every alias expanded."""

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
                        Said(
                            "tag {tag} is not allowed on {kind}: only plain YAML is read "
                            "(mappings, lists, text, numbers, true/false, null)",
                            tag=_short_tag(tag),
                            kind=_KINDS[kind],
                        ),
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
    if code < 0x100:
        return YamlIssue(
            Mark(line, column),
            Said(
                "U+{code} is a control character, and control characters cannot be written "
                "in a YAML file: remove it, or write it as an escape inside double quotes "
                '("{escape}")',
                code=f"{code:04X}",
                escape=f"\\x{code:02x}",
            ),
        )
    return YamlIssue(
        Mark(line, column),
        Said("U+{code} cannot be written in a YAML file: remove it", code=f"{code:04X}"),
    )


def _syntax_issue(exc: yaml.MarkedYAMLError, text: str = "") -> YamlIssue:
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or exc.context or "invalid YAML"
    if exc.problem and exc.context:
        message = f"{exc.problem} ({exc.context})"
    if exc.problem and "maximum nesting depth" in exc.problem:  # libyaml's own bound (1000)
        message = f"nested deeper than {MAX_DEPTH} levels"
    hint = _syntax_hint(exc, text)
    if hint:  # the parser's words are English; the hint is said in the reader's language
        message = Said("{problem}: {hint}", problem=message, hint=hint)
    return YamlIssue(_mark(mark) if mark is not None else None, message)


def _syntax_hint(exc: yaml.MarkedYAMLError, text: str) -> Said | None:
    """What a parser message usually means in a hand-written file, in a person's words.

    The parser says what it expected; a club organiser needs to hear "a tab", "the
    indentation", "quote the value" or "this bracket is never closed".
    """
    problem, context = exc.problem or "", exc.context or ""
    at, opened = exc.problem_mark, exc.context_mark
    lines = text.splitlines()
    line = lines[at.line] if at is not None and 0 <= at.line < len(lines) else ""
    if "\t" in line[: (at.column + 1) if at is not None else 0] or "'\\t'" in problem:
        return Said("a tab character: YAML indents with spaces only; replace the tab with spaces")
    if "mapping values are not allowed" in problem:
        return Said(
            "a ': ' where none can be; quote a value that holds one "
            '(title: "Club: our rules"), put a nested key on a line of its own, and check '
            "the indentation and that the line above ends its key with ':'"
        )
    if "escape" in problem:
        return Said(
            "an escape in double quotes must stand for a character: \\ud800 to \\udfff "
            "are halves of a UTF-16 pair, not characters, and \\U goes up to \\U0010ffff; "
            "write the character itself"
        )
    if opened is None:
        return Said("check the indentation") if "block" in context else None
    where = Said("line {line}, column {column}", line=opened.line + 1, column=opened.column + 1)
    if "flow mapping" in context or "flow sequence" in context:
        brackets = "{}" if "mapping" in context else "[]"
        return Said(
            "the '{opening}' at {where} is not closed with '{closing}', or a ',' is missing "
            "between its items",
            opening=brackets[0],
            closing=brackets[1],
            where=where,
        )
    if "quoted scalar" in context:
        return Said("the quote at {where} is never closed", where=where)
    if "block mapping" in context:
        if line.lstrip().startswith("- "):
            return Said("a list item ('- ') where this mapping expects 'key: value' lines")
        return Said(
            "check the indentation: the keys of one mapping start in the same column (this "
            "mapping's first key is at {where})",
            where=where,
        )
    if "block collection" in context:
        return Said(
            "check the indentation: every item of a list starts with '- ' in the same "
            "column (this list's first item is at {where})",
            where=where,
        )
    return None


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


_LIVE = 1 << 30
"""The ``dead`` of a node that is kept. Any other value is the depth of the innermost
node around it (or itself) that is not kept for its role: a copy keeps an entry dead
when the reason lies inside what is copied, and takes the liveness of its new place
when the reason lay outside."""

_KEY, _SKIP, _MERGE, _NAME = 0, 1, 2, 3
"""What a node is to its mapping: a key's value, a value that is not kept (its key is a
duplicate or no text), what ``<<`` merges, or a key."""


class _Anchor:
    """A node written with an anchor (``&name``), as an alias (``*name``) repeats it."""

    __slots__ = (
        "chars",
        "data",
        "depth",
        "height",
        "issues",
        "log",
        "path",
        "size",
        "start",
        "tag",
        "text",
    )

    def __init__(self, data: Any, path: KeyPath, start: Mark, depth: int) -> None:
        self.data = data
        self.path = path
        self.start = start
        self.depth = depth
        self.tag: str | None = None  # a scalar's tag and text (an alias may be a key)
        self.text = ""
        self.size = self.height = self.chars = 0
        self.log = self.issues = (0, 0)  # what it wrote in the reader's two logs


class _Open:
    """An open mapping or list while its events arrive."""

    __slots__ = (
        "anchor",
        "chars",
        "data",
        "dead",
        "depth",
        "height",
        "issues_at",
        "keys",
        "log_at",
        "merges",
        "path",
        "pending",
        "role",
        "size",
        "start",
    )

    def __init__(
        self, data: Any, path: KeyPath, start: Mark, role: int, depth: int, dead: int
    ) -> None:
        self.data = data
        self.path = path
        self.start = start
        self.role = role
        self.depth = depth
        self.dead = dead
        self.anchor: str | None = None
        self.size = self.height = 1
        self.chars = self.log_at = self.issues_at = 0
        self.pending: tuple[int, Any, Mark | None] | None = None  # the key just read
        self.keys: dict[str, Mark] = {}  # a mapping's own keys, for duplicates
        self.merges: list[tuple[Mark, list[_Source]]] = []  # its ``<<`` values


_Source = tuple[
    Any, KeyPath, int, list[tuple[KeyPath, Position, int]], list[tuple[YamlIssue, int, bool]]
]
"""What ``<<`` merges: a mapping's data, the path and depth it was read at, and the
entries of the reader's position and issue logs that were written below it."""


class _Reader:
    """One pass over the parser's events: plain data, every node's position, and every
    bound enforced as the events arrive, before any copy of an alias is made.

    No node graph is kept. A node with an anchor is remembered with the stretch of the
    position and issue logs it wrote, and an alias is its data copied, with those
    entries written again where the alias stands. A value that is not kept (a duplicate
    key's, a key that is a mapping, what ``<<`` merges) is still read, for the bounds
    and its anchors, and its entries are logged as dead: they count only where an alias
    or a merge repeats them. ``<<`` is merged when its mapping ends, own keys first.
    """

    def __init__(self, loader: _BoundedComposer) -> None:
        self.loader = loader
        self.log: list[tuple[KeyPath, Position, int]] = []
        self.issue_log: list[tuple[YamlIssue, int, bool]] = []  # keyed: about its last key
        self.anchors: dict[str, _Anchor] = {}
        self.open_anchors: set[str] = set()
        self.total = 0
        self.total_chars = 0
        self.aliases = 0
        # A plain scalar's tag depends on its text alone, and so does the number, truth
        # value or null it stands for: PyYAML's resolver and constructors are Python code
        # (regular expressions, a dozen calls), and files repeat the same few values.
        self.plain_tags: dict[str, str] = {}
        self.constructed: dict[tuple[str, str], Any] = {}

    def read(self, text: str) -> YamlDocument:
        """The single document, or a document of None for an empty file."""
        loader: Any = self.loader
        try:
            loader.get_event()  # stream start
            if loader.check_event(yaml.StreamEndEvent):
                return YamlDocument(None, {})
            loader.get_event()  # document start
            data = self._root()
            loader.get_event()  # document end
            if not loader.check_event(yaml.StreamEndEvent):
                second = loader.get_event()
                raise YamlError(
                    [
                        YamlIssue(
                            _mark(second.start_mark),
                            Said("the file must hold one YAML document; this is a second one"),
                        )
                    ]
                )
        except yaml.MarkedYAMLError as exc:
            raise YamlError([_syntax_issue(exc, text)]) from None
        except yaml.reader.ReaderError as exc:
            raise YamlError([_reader_issue(exc, text)]) from None
        except yaml.YAMLError as exc:
            raise YamlError([YamlIssue(None, str(exc))]) from None
        issues: dict[tuple[Mark | None, str], YamlIssue] = {}
        for issue, dead, _ in self.issue_log:
            if dead == _LIVE:
                issues.setdefault((issue.mark, issue.message), issue)
        if issues:
            raise YamlError(
                sorted(
                    issues.values(),
                    key=lambda i: (i.mark.line, i.mark.column) if i.mark else (0, 0),
                )
            )
        positions = {path: where for path, where, dead in self.log if dead == _LIVE}
        return YamlDocument(data, positions)

    def _root(self) -> Any:
        stack: list[_Open] = []
        parent: _Open | None
        log, issue_log = self.log, self.issue_log
        loader: Any = self.loader
        # The loop runs once per event (a thousand in a bundled ruleset): names are bound
        # here, and a plain scalar, the usual event, is read without a method call.
        get_event, resolve, tag_of = loader.get_event, loader.resolve, loader._tag
        plain_tags = self.plain_tags
        scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
        mapping_start, sequence_start = yaml.MappingStartEvent, yaml.SequenceStartEvent
        mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
        max_chars = loader.max_chars
        surrogate = _SURROGATE.search
        key_mark: Mark | None
        while True:
            event = get_event()
            kind = type(event)
            if kind is mapping_end or kind is sequence_end:
                frame = stack.pop()
                if frame.merges:
                    self._merge(frame)
                if frame.anchor is not None:
                    self.open_anchors.discard(frame.anchor)
                    record = _Anchor(frame.data, frame.path, frame.start, frame.depth)
                    record.size, record.height = frame.size, frame.height
                    record.chars = frame.chars
                    record.log = (frame.log_at, len(log))
                    record.issues = (frame.issues_at, len(issue_log))
                    self.anchors[frame.anchor] = record
                if not stack:
                    return frame.data
                parent = stack[-1]
                parent.size += frame.size
                parent.chars += frame.chars
                if frame.height >= parent.height:
                    parent.height = frame.height + 1
                self._place(
                    parent,
                    frame.role,
                    frame.data,
                    frame.path,
                    frame.start,
                    frame.depth,
                    frame.log_at,
                    frame.issues_at,
                )
                continue
            # Where the new node goes: its path, its role, its key's position, whether
            # it is kept (``dead``), and whether what is wrong with it as a key is (``say``).
            depth = len(stack)
            if not depth:
                parent = None
                path: KeyPath = ()
                role, dead, key_mark = _KEY, _LIVE, None
            else:
                parent = stack[-1]
                pending = parent.pending
                if type(parent.data) is list:
                    path = (*parent.path, len(parent.data))
                    role, dead, key_mark = _KEY, parent.dead, None
                elif pending is None:
                    path, role, key_mark = parent.path, _NAME, None
                    dead = depth
                else:
                    parent.pending = None
                    role, key, key_mark = pending
                    if role == _KEY:
                        path, dead = (*parent.path, key), parent.dead
                    else:
                        path = parent.path
                        dead = depth
            say = dead if role != _NAME else parent.dead  # type: ignore[union-attr]
            lo, ilo = len(log), len(issue_log)
            if kind is scalar_event:
                value = event.value
                tag = event.tag
                if tag is None and event.implicit[0]:  # plain: the text alone decides
                    tag = plain_tags.get(value)
                    if tag is None:
                        tag = resolve(ScalarNode, value, event.implicit)
                        if len(plain_tags) < _REMEMBERED:
                            plain_tags[value] = tag
                elif tag is None or tag == "!":
                    tag = resolve(ScalarNode, value, event.implicit)
                else:
                    tag = tag_of(event, ScalarNode)
                at = event.start_mark
                start = Mark(at.line + 1, at.column + 1)
                log.append((path, Position(key_mark or start, start), dead))
                if tag == _STR and surrogate(value) is None:
                    data = value
                elif role == _NAME and tag == _MERGE_TAG:
                    data = None
                else:
                    data = self._scalar(tag, value, start, path, say)
                size, height, chars = 1, 0, len(value)
                if event.anchor is not None:
                    self._check_new_anchor(event)
                    record = _Anchor(data, path, start, depth)
                    record.tag, record.text = tag, value
                    record.size, record.chars = 1, chars
                    record.log, record.issues = (lo, len(log)), (ilo, len(issue_log))
                    self.anchors[event.anchor] = record
                self.total += 1
            elif kind is alias_event:
                record = self._alias(event, depth)
                start = record.start
                tag, value = record.tag, record.text
                log.append((path, Position(key_mark or start, start), dead))
                if tag is None:  # a scalar has nothing below it, and is read again below
                    self._repeat(record, path, depth, dead)
                    data = copied(record.data)
                elif tag == _STR and surrogate(value) is None:
                    data = value
                elif role == _NAME and tag == _MERGE_TAG:
                    data = None
                else:  # read again where it stands: what is wrong with it is said here
                    data = self._scalar(tag, value, start, path, say)
                size, height, chars = record.size, record.height, record.chars
                if role == _NAME and tag is None:
                    what = "a list" if type(data) is list else "a mapping"
                    self._issue(start, f"a key must be text, not {what}", path, say)
                self.total += size
            elif kind is mapping_start or kind is sequence_start:
                if depth >= MAX_DEPTH:
                    raise self._fail(event, f"nested deeper than {MAX_DEPTH} levels")
                self.total += 1
                if self.total > MAX_NODES:
                    raise self._fail(event, f"more than {MAX_NODES} nodes (aliases expanded)")
                start = _mark(event.start_mark)
                if kind is sequence_start:
                    tag_of(event, SequenceNode)
                    frame = _Open([], path, start, role, depth, dead)
                else:
                    tag_of(event, MappingNode)
                    frame = _Open({}, path, start, role, depth, dead)
                if event.anchor is not None:
                    self._check_new_anchor(event)
                    self.open_anchors.add(event.anchor)
                    frame.anchor = event.anchor
                if role == _NAME:  # about where it stands: not repeated by an alias of it
                    what = "a list" if kind is sequence_start else "a mapping"
                    self._issue(start, f"a key must be text, not {what}", path, say)
                frame.log_at, frame.issues_at = lo, len(issue_log)
                log.append((path, Position(key_mark or start, start), dead))
                stack.append(frame)
                continue
            else:  # pragma: no cover - the parser emits nothing else inside a document
                raise self._fail(event, f"unexpected {kind.__name__}")
            # a scalar, or an alias counted as the whole node it repeats
            if self.total > MAX_NODES:
                raise self._fail(event, f"more than {MAX_NODES} nodes (aliases expanded)")
            self.total_chars += chars
            if self.total_chars > max_chars:
                raise self._fail(
                    event,
                    f"more than {megabytes(max_chars)} of text with aliases expanded "
                    "(an alias repeats its anchor's whole text)",
                )
            if parent is None:
                return data
            parent.size += size
            parent.chars += chars
            if height >= parent.height:
                parent.height = height + 1
            if role == _KEY:
                if type(parent.data) is list:
                    parent.data.append(data)
                else:
                    parent.data[path[-1]] = data
            elif role != _NAME:
                self._place(parent, role, data, path, start, depth, lo, ilo)
            elif tag == _STR and type(data) is str and data not in parent.keys:
                parent.keys[data] = start  # a key, as most are
                parent.pending = (_KEY, data, start)
            else:
                self._named(parent, data, tag, value, start, say)

    # ------------------------------------------------------------------ keys and values

    def _named(
        self, mapping: _Open, key: Any, tag: str | None, text: str, mark: Mark, say: int
    ) -> None:
        """A mapping's key has been read (``tag`` None: a mapping or a list, said)."""
        if tag == _MERGE_TAG:
            mapping.pending = (_MERGE, None, None)
        elif tag is None:
            mapping.pending = (_SKIP, None, None)
        elif not isinstance(key, str):
            if key is not None or tag == _CORE + "null":
                self._issue(
                    mark,
                    Said(
                        "key {key} is read as {kind}; quote it: '{text}'",
                        key=repr(shorten(text)),
                        kind=_KIND_OF.get(type(key), "not text"),
                        text=shorten(text),
                    ),
                    mapping.path,
                    say,
                )
            mapping.pending = (_SKIP, None, None)
        elif key in mapping.keys:
            self._issue(
                mark,
                Said(
                    "duplicate key '{key}' (first set at line {line}); YAML would silently keep "
                    "only the last",
                    key=shorten(key),
                    line=mapping.keys[key].line,
                ),
                (*mapping.path, key),
                say,
                keyed=True,
            )
            mapping.pending = (_SKIP, None, None)
        else:
            mapping.keys[key] = mark
            mapping.pending = (_KEY, key, mark)

    def _place(
        self,
        parent: _Open,
        role: int,
        data: Any,
        path: KeyPath,
        start: Mark,
        depth: int,
        lo: int,
        ilo: int,
    ) -> None:
        """A node read whole goes where its role says."""
        if role == _KEY:
            if type(parent.data) is list:
                parent.data.append(data)
            else:
                parent.data[path[-1]] = data
        elif role == _MERGE:
            if type(data) is list:  # each item's entries, sorted out in one pass
                n = len(path)
                logs: list[list[tuple[KeyPath, Position, int]]] = [[] for _ in data]
                issues: list[list[tuple[YamlIssue, int, bool]]] = [[] for _ in data]
                for entry in self.log[lo:]:
                    if len(entry[0]) > n:
                        logs[int(entry[0][n])].append(entry)  # an item's index
                for said in self.issue_log[ilo:]:
                    if len(said[0].path) > n:
                        issues[int(said[0].path[n])].append(said)
                sources = [
                    (item, (*path, i), depth + 1, logs[i], issues[i]) for i, item in enumerate(data)
                ]
            else:
                sources = [(data, path, depth, self.log[lo:], self.issue_log[ilo:])]
            parent.merges.append((start, sources))
        elif role == _NAME:  # a mapping or a list written as a key
            parent.pending = (_SKIP, None, None)

    def _merge(self, mapping: _Open) -> None:
        """``<<``: each key of the merged mappings the mapping does not have, the first
        mapping to have it winning, with its positions (and its problems) moved."""
        for mark, sources in mapping.merges:
            for data, path, depth, logged, issued in sources:
                if type(data) is not dict:
                    self._issue(
                        mark,
                        "'<<' merges a mapping or a list of mappings",
                        mapping.path,
                        mapping.dead,
                    )
                    continue
                moved = self._moved(path, depth, mapping.path, mapping.dead)
                merged = [key for key in data if key not in mapping.data]
                for key in merged:  # a ``<<`` value is nobody else's: an alias was copied
                    mapping.data[key] = data[key]
                below: dict[Any, list[tuple[KeyPath, Position, int]]] = {}
                n = len(mapping.path)
                for entry in moved(logged):
                    if len(entry[0]) > n:
                        below.setdefault(entry[0][n], []).append(entry)
                for key in merged:
                    self.log.extend(below.get(key, ()))
                # what is wrong with the merged mapping's keys, and below the keys it gives
                self._issues_moved(moved, issued, frozenset(merged), n)

    @staticmethod
    def _moved(
        source: KeyPath, depth: int, target: KeyPath, target_dead: int
    ) -> Callable[[Iterable[tuple[KeyPath, _T, int]]], Iterator[tuple[KeyPath, _T, int]]]:
        """Log entries read below ``source`` (at ``depth``), written again below ``target``
        (whose ``dead`` is ``target_dead``): a path keeps what lies below the source. An
        entry dead for a reason inside the source is dead in every copy, and is left out:
        copied along, nested merges doubled the logs at every level."""
        n = len(source)

        def moved(entries: Iterable[tuple[KeyPath, _T, int]]) -> Iterator[tuple[KeyPath, _T, int]]:
            for path, thing, dead in entries:
                if not depth < dead < _LIVE:
                    yield (*target, *path[n:]), thing, target_dead

        return moved

    def _scalar(self, tag: str, text: str, mark: Mark, path: KeyPath, say: int) -> Any:
        if _SURROGATE.search(text):  # libyaml refuses "\ud800"; PyYAML's reader not
            self._issue(
                mark,
                f"{shorten(text)!r} holds half of a UTF-16 pair (\\ud800 to \\udfff), "
                "which is not a character; write the character itself",
                path,
                say,
            )
            return None
        if tag == _STR:
            return text
        key = (tag, text)
        if key in self.constructed:
            return self.constructed[key]
        try:
            value = self.loader.construct_object(ScalarNode(tag, text))
        except (yaml.YAMLError, ValueError, KeyError, TypeError, IndexError, ArithmeticError):
            # ``!!int ''`` and ``!!float ''`` are an IndexError in PyYAML's constructor
            self._issue(mark, f"cannot read {shorten(text)!r} as {_short_tag(tag)}", path, say)
            return None
        if len(self.constructed) < _REMEMBERED:  # numbers, true/false, null: immutable
            self.constructed[key] = value
        return value

    # ------------------------------------------------------------------ anchors and aliases

    def _alias(self, event: Any, depth: int) -> _Anchor:
        name = event.anchor
        if name in self.open_anchors:
            raise self._fail(event, f"alias *{name} refers to a node that contains it")
        record = self.anchors.get(name)
        if record is None:
            raise self._fail(event, f"alias *{name} has no anchor before it")
        if record.tag is None:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise self._fail(event, f"more than {MAX_ALIASES} aliases to mappings or lists")
        if depth + record.height > MAX_DEPTH:
            raise self._fail(event, f"nested deeper than {MAX_DEPTH} levels (aliases expanded)")
        # the bounds of the whole document, before anything is copied (an alias bomb)
        if self.total + record.size > MAX_NODES:
            raise self._fail(event, f"more than {MAX_NODES} nodes (aliases expanded)")
        max_chars = self.loader.max_chars
        if self.total_chars + record.chars > max_chars:
            raise self._fail(
                event,
                f"more than {megabytes(max_chars)} of text with aliases expanded "
                "(an alias repeats its anchor's whole text)",
            )
        return record

    def _repeat(self, record: _Anchor, path: KeyPath, depth: int, dead: int) -> None:
        """What the anchored node wrote below itself, written again below ``path``."""
        moved = self._moved(record.path, record.depth, path, dead)
        lo, hi = record.log
        self.log.extend(moved(self.log[lo + 1 : hi]))
        self._issues_moved(moved, self.issue_log[slice(*record.issues)])

    def _issues_moved(
        self,
        moved: Callable[[Iterable[tuple[KeyPath, Any, int]]], Iterator[Any]],
        issued: list[tuple[YamlIssue, int, bool]],
        keys: frozenset[Any] | None = None,
        at: int = 0,
    ) -> None:
        """The ``issued`` entries of the issue log, logged again where ``moved`` puts them;
        with ``keys``, only those of the mapping at depth ``at`` of the path and below
        these keys of it."""
        again = self.issue_log
        for path, (issue, keyed), dead in moved(
            (issue.path, (issue, keyed), dead) for issue, dead, keyed in issued
        ):
            owner = path[:-1] if keyed else path
            if keys is None or len(owner) == at or owner[at] in keys:
                again.append((YamlIssue(issue.mark, issue.message, path), dead, keyed))

    def _check_new_anchor(self, event: Any) -> None:
        if event.anchor in self.anchors or event.anchor in self.open_anchors:
            raise self._fail(event, f"anchor &{event.anchor} is defined twice")

    # ------------------------------------------------------------------ problems

    def _issue(
        self, mark: Mark, message: str, path: KeyPath, dead: int, *, keyed: bool = False
    ) -> None:
        """Log an issue at ``path``; ``keyed``: it is about the key ``path`` ends with (a
        duplicate), and belongs to the mapping, not to that key's value."""
        self.issue_log.append((YamlIssue(mark, message, path), dead, keyed))

    @staticmethod
    def _fail(event: Any, message: str) -> YamlError:
        return YamlError([YamlIssue(_mark(event.start_mark), message)])
