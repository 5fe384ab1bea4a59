"""The cache of ruleset headings (``ulti_rules/ruleset/headings.py``): `ulti rulesets`
reads a file's title once, and again only when the file changed."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ulti_rules.ruleset import headings, safe_yaml
from ulti_rules.ruleset.cache_folder import CACHE_ENV
from ulti_rules.ruleset.finding import HEADING, find_fragments, find_rulesets

from cli_in_process import Ran
from test_cli_startup import modules_after, run_main

Listing = dict[str, tuple[str, bool]]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache in a folder of the test's own, what the process knew forgotten before
    and after (as if each listing were a new command)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    headings.forget()
    yield folder
    headings.forget()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every heading read from a file (by PyYAML) from now on."""
    calls: list[Path] = []
    real = safe_yaml.read_heading

    def counting(path: Path, keys: Any, **options: Any) -> Any:
        calls.append(Path(path))
        return real(path, keys, **options)

    monkeypatch.setattr(safe_yaml, "read_heading", counting)
    return calls


def listing() -> Listing:
    """Every ruleset and fragment found, with its title, as a new command lists them."""
    headings.forget()
    found = [*find_rulesets(), *find_fragments()]
    return {source.name: (source.title, source.fragment) for source in found}


def club(folder: Path, name: str, title: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f'name: {name}\ntitle: "{title}"\nextends: wikipedia\n', "utf-8")
    return path


def test_a_second_listing_reads_no_heading_and_lists_the_same(
    cache: Path, reads: list[Path], sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(headings, "RACY_NS", 0)  # the club file was written just now
    club(sealed_user_folders, "club", "Our club")
    first = listing()
    assert first["club"] == ("Our club", False) and first["wikipedia"][0]
    assert len(reads) >= 6 and (cache / headings.FILE_NAME).is_file()
    reads.clear()
    assert listing() == first
    assert reads == []
    monkeypatch.setenv(CACHE_ENV, "")  # and the same without the cache
    assert listing() == first
    assert len(reads) >= 6


def test_an_edited_title_is_read_again_even_at_the_same_size_and_time(
    cache: Path, reads: list[Path], sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The change time moves with every write, and no program can set it back."""
    monkeypatch.setattr(headings, "RACY_NS", 0)
    path = club(sealed_user_folders, "club", "Title A")
    before = path.stat()
    assert listing()["club"] == ("Title A", False)
    club(sealed_user_folders, "club", "Title B")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    reads.clear()
    assert listing()["club"] == ("Title B", False)
    assert reads == [path]


def test_a_file_changed_within_two_seconds_is_read_every_time(
    cache: Path, reads: list[Path], sealed_user_folders: Path
) -> None:
    path = club(sealed_user_folders, "club", "Fresh")
    assert listing()["club"] == ("Fresh", False)
    reads.clear()
    assert listing()["club"] == ("Fresh", False)
    assert set(reads) == {path}  # the bundled files, long unchanged, were kept


def test_a_cache_file_that_does_not_check_out_is_passed_over_and_written_again(
    cache: Path, reads: list[Path]
) -> None:
    expected = listing()
    kept = cache / headings.FILE_NAME
    good = kept.read_bytes()
    head = {"title": "Forged"}
    stamp = (0, 0, 0, 0, 0)
    for bad in (
        b"not a pickle",
        good[: len(good) // 2],
        pickle.dumps((headings.FORMAT + 1, None, [])),
        pickle.dumps((headings.FORMAT, ("another", "code"), [])),
        pickle.dumps([1, 2, 3]),
    ):
        kept.write_bytes(bad)
        reads.clear()
        assert listing() == expected
        assert reads  # read afresh
        assert kept.read_bytes() != bad  # and written again
    # an entry of the wrong shape is dropped, the others used
    code, items = pickle.loads(good)[1:]
    items = [(key, (stamp, head)) for key, (_, _) in items[:1]] + [
        (key, ("stamp", head)) for key, _ in items[1:2]
    ]
    kept.write_bytes(pickle.dumps((headings.FORMAT, code, items)))
    assert listing() == expected


@pytest.mark.parametrize("how", ["others may write it", "a symbolic link", "others' folder"])
def test_a_cache_file_others_could_have_written_is_never_read(
    cache: Path, reads: list[Path], tmp_path: Path, how: str
) -> None:
    """The entries are pickles, which run code as they are loaded."""
    expected = listing()
    kept = cache / headings.FILE_NAME
    if how == "others may write it":
        kept.chmod(0o620)
    elif how == "a symbolic link":
        elsewhere = tmp_path / "elsewhere.pickle"
        kept.rename(elsewhere)
        kept.symlink_to(elsewhere)
    else:
        cache.chmod(0o777)
    reads.clear()
    try:
        assert listing() == expected
        assert reads
    finally:
        cache.chmod(0o700)


def test_no_cache_is_written_with_the_cache_off(
    reads: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    listing()
    reads.clear()
    listing()
    assert reads
    assert not (tmp_path / "xdg").exists()


def test_at_most_max_headings_are_kept_the_last_used_first(
    cache: Path, sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(headings, "RACY_NS", 0)
    monkeypatch.setattr(headings, "MAX_HEADINGS", 3)
    a, b, c, d = (club(sealed_user_folders, name, name.upper()) for name in "abcd")
    for path in (a, b, c, a, d):  # a used again: b is the oldest when d comes
        assert headings.heading(path, HEADING) == {"name": path.stem, "title": path.stem.upper()}
    headings.keep()
    _, _, items = pickle.loads((cache / headings.FILE_NAME).read_bytes())
    assert [Path(path).stem for (path, _), _ in items] == ["c", "a", "d"]


def test_a_warm_heading_is_the_one_read_not_text_included(
    cache: Path, reads: list[Path], sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(headings, "RACY_NS", 0)
    path = sealed_user_folders / "odd.yaml"
    path.write_text("name: odd\ntags: [a, b]\ntitle: {en: Odd, hu: Furcsa}\n", "utf-8")
    fresh = safe_yaml.read_heading(path, HEADING)
    assert fresh == {
        "name": "odd",
        "tags": safe_yaml.NOT_TEXT,
        "title": {"en": "Odd", "hu": "Furcsa"},
    }
    assert headings.heading(path, HEADING) == fresh
    headings.keep()
    headings.forget()
    reads.clear()
    warm = headings.heading(path, HEADING)
    assert reads == [] and warm == fresh and warm is not None
    assert warm["tags"] is safe_yaml.NOT_TEXT
    warm["title"]["en"] = "changed by a caller"  # a copy: the kept heading stays
    assert headings.heading(path, HEADING) == fresh


def test_an_entry_of_the_wrong_shape_is_never_handed_out(
    cache: Path, reads: list[Path], sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even under the file's own stamp: a pickle of another layout is passed over."""
    monkeypatch.setattr(headings, "RACY_NS", 0)
    path = club(sealed_user_folders, "club", "Real")
    assert headings.heading(path, HEADING) is not None
    headings.keep()
    _, code, items = pickle.loads((cache / headings.FILE_NAME).read_bytes())
    (key, (stamp, _)), *_ = [item for item in items if item[0][0] == str(path)]
    for forged in ({"title": 5}, {5: "Forged"}, {"title": {"en": 5}}, ["title"], "Forged"):
        (cache / headings.FILE_NAME).write_bytes(
            pickle.dumps((headings.FORMAT, code, [(key, (stamp, forged))]))
        )
        headings.forget()
        reads.clear()
        assert headings.heading(path, HEADING) == {"name": "club", "title": "Real"}
        assert reads == [path]


def test_the_cache_moved_or_turned_off_is_followed(
    tmp_path: Path, reads: list[Path], sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headings read from one folder are never written into another, nor anywhere once
    the cache is off (found by a review)."""
    monkeypatch.setattr(headings, "RACY_NS", 0)
    path = club(sealed_user_folders, "club", "Club")
    one, two = tmp_path / "one", tmp_path / "two"
    monkeypatch.setenv(CACHE_ENV, str(one))
    headings.forget()
    headings.heading(path, HEADING)
    headings.keep()
    kept = (one / headings.FILE_NAME).read_bytes()
    monkeypatch.setenv(CACHE_ENV, str(two))
    reads.clear()
    headings.heading(path, HEADING)  # the folder two holds nothing yet: read again
    assert reads == [path]
    headings.keep()
    assert (one / headings.FILE_NAME).read_bytes() == kept
    assert (two / headings.FILE_NAME).is_file()
    monkeypatch.setenv(CACHE_ENV, str(one))
    other = club(sealed_user_folders, "other", "Other")
    headings.heading(other, HEADING)  # known in this process, not yet in one's file
    monkeypatch.setenv(CACHE_ENV, "")
    headings.keep()
    assert (one / headings.FILE_NAME).read_bytes() == kept
    reads.clear()
    headings.heading(path, HEADING)
    assert reads == [path]  # the cache off: nothing kept, not even in memory
    headings.forget()


def test_a_cache_file_over_its_limit_is_not_written_whole(
    cache: Path, sealed_user_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The oldest headings are left out until the file fits: one over the limit would be
    written by every listing and read by none (found by a review)."""
    monkeypatch.setattr(headings, "RACY_NS", 0)
    code = headings._code()
    assert code is not None
    limit = len(headings._pickled(code, [])) + 1_500  # room for a few of the headings
    monkeypatch.setattr(headings, "MAX_FILE_BYTES", limit)
    paths = [club(sealed_user_folders, f"club{i}", str(i) * 300) for i in range(10)]
    for path in paths:
        headings.heading(path, HEADING)
    headings.keep()
    data = (cache / headings.FILE_NAME).read_bytes()
    _, _, items = pickle.loads(data)
    assert len(data) <= limit and 0 < len(items) < 10
    assert [Path(path).stem for (path, _), _ in items] == [p.stem for p in paths[-len(items) :]]


def test_code_changed_since_the_headings_were_read_reads_them_all_again(
    cache: Path, reads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = listing()
    real = headings._code
    assert real() is not None
    monkeypatch.setattr(headings, "_code", lambda: ("other", "code"))
    reads.clear()
    assert listing() == expected
    assert reads
    monkeypatch.setattr(headings, "_code", lambda: None)  # a code file changed just now
    reads.clear()
    assert listing() == expected
    assert reads
    monkeypatch.setattr(headings, "_code", real)
    code = real()
    assert code is not None
    stamped = {Path(f).name for f, _, _ in code[1]}
    assert {"safe_yaml.py", "yaml_data.py", "headings.py", "reader.py"} <= stamped
    monkeypatch.setattr(headings, "_STARTED_NS", 0)  # the process started before the code
    assert headings._code() is None


def test_the_command_lists_alike_cold_and_warm(
    cache: Path, ulti: Callable[..., Ran], reads: list[Path]
) -> None:
    headings.forget()
    cold = ulti("rulesets")
    assert cold.returncode == 0 and "wikipedia" in cold.stdout
    headings.forget()
    reads.clear()
    warm = ulti("rulesets")
    assert (warm.stdout, warm.stderr) == (cold.stdout, cold.stderr)
    assert reads == []


def test_a_warm_listing_imports_no_yaml(tmp_path: Path) -> None:
    """PyYAML's import is a sixth of the command's start-up; a listing of files that are
    all unchanged needs none of it."""
    setup = f"import os\nos.environ[{CACHE_ENV!r}] = {str(tmp_path)!r}\n" + run_main("rulesets")
    cold = modules_after(setup)
    assert "yaml" in cold and (tmp_path / headings.FILE_NAME).is_file()
    warm = modules_after(setup)
    assert "ulti_rules.cli.rulesets" in warm
    assert "yaml" not in warm and "ulti_rules.ruleset.safe_yaml" not in warm
