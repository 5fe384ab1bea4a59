"""The bounded table every cache keeps (``ulti_rules/recent.py``)."""

from __future__ import annotations

import threading

from ulti_rules.recent import Recent


def test_the_least_recently_used_goes_first() -> None:
    table: Recent[str, int] = Recent(3)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        table.put(key, value)
    assert table.get("a") == 1  # now the most recent
    table.put("d", 4)
    assert [table.get(k) for k in "abcd"] == [1, None, 3, 4]
    assert len(table) == 3


def test_a_weight_bound_drops_as_many_as_it_takes_and_refuses_what_alone_exceeds_it() -> None:
    table: Recent[str, str] = Recent(10, weight=10)
    table.put("a", "A", 4)
    table.put("b", "B", 4)
    table.put("c", "C", 5)  # 13 > 10: "a" goes
    assert (table.get("a"), table.get("b"), table.get("c"), table.held) == (None, "B", "C", 9)
    assert table.put("huge", "H", 11) == "H"  # handed back, not kept
    assert table.get("huge") is None and table.held == 9
    table.put("b", "B2", 1)  # replacing frees the old weight
    assert table.held == 6 and table.get("b") == "B2"


def test_setdefault_keeps_the_first_and_discard_forgets() -> None:
    table: Recent[str, list[int]] = Recent(4)
    first = table.setdefault("k", [1])
    assert table.setdefault("k", [2]) is first
    table.discard("k")
    table.discard("never there")
    assert table.get("k") is None and len(table) == 0 and table.held == 0
    table.put("x", [3])
    table.clear()
    assert len(table) == 0 and table.held == 0


def test_threads_sharing_a_table_keep_it_within_its_bounds() -> None:
    table: Recent[int, int] = Recent(50, weight=120)

    def work(offset: int) -> None:
        for i in range(2_000):
            key = (offset * 7 + i) % 300
            if table.get(key) is None:
                table.setdefault(key, key, 1 + key % 3)
            if i % 11 == 0:
                table.discard(key)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(table) <= 50 and table.held <= 120
    assert table.held == sum(1 + key % 3 for key in range(300) if table.get(key) is not None)


def test_items_are_listed_the_least_recently_used_first() -> None:
    """What a cache saves to disk, in the order that keeps the same entries when read back."""
    kept: Recent[str, int] = Recent(3)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        kept.put(key, value)
    assert kept.get("a") == 1
    kept.put("d", 4)  # b, the least recently used, goes
    assert kept.items() == [("c", 3), ("a", 1), ("d", 4)]
    listed = kept.items()
    listed.clear()  # a copy: the table keeps its own
    assert len(kept) == 3
