"""The compile cache: its key (a cached Ruleset is reused only by the exact code that made it, so
the fingerprint of the toolkit covers every module of every subpackage), and a cache folder from
a stranger (nothing in it runs code or sticks)."""

from __future__ import annotations

import os
import pickle
import shutil
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli import app
from warband.lang import cache
from warband.lang.compiler import Compiled, compile_cached

SUBPACKAGES = ("lang", "run", "run/codegen", "lists", "game", "cli")


def test_the_fingerprint_reads_every_module_of_every_subpackage():
    everything = sorted(cache.PACKAGE.rglob("*.py"))
    assert cache.modules() == everything
    folders = {m.parent.relative_to(cache.PACKAGE).as_posix() for m in cache.modules()}
    assert set(SUBPACKAGES) <= folders


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "warband"
    shutil.copytree(cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_change_in_a_subpackage_changes_the_fingerprint(tmp_path):
    copy = _copy(tmp_path)
    before = cache.fingerprint(copy)
    assert cache.fingerprint(copy) == before   # the same code, the same key
    deep = copy / "run" / "codegen" / "runtime.py"
    deep.write_text(deep.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert cache.fingerprint(copy) != before


def test_a_module_added_or_moved_changes_the_fingerprint(tmp_path):
    copy = _copy(tmp_path)
    before = cache.fingerprint(copy)
    (copy / "game" / "extra.py").write_text('"""A new module."""\n', encoding="utf-8")
    added = cache.fingerprint(copy)
    assert added != before
    (copy / "game" / "extra.py").rename(copy / "lists" / "extra.py")
    assert cache.fingerprint(copy) not in (before, added)


def test_the_running_toolkit_is_fingerprinted_from_its_own_package():
    assert cache.toolkit_fingerprint() == cache.fingerprint(cache.PACKAGE)


# ---- a cache folder from a stranger -------------------------------------------------------------
# The folder may be shared or restored from elsewhere (a CI cache from a pull request): nothing in
# it may run code, and nothing unexpected may stick. Every test here has a folder and a key of
# its own.


ROOT = Path(__file__).resolve().parents[1]
FAMILY = str(ROOT / "warbands" / "the-family.yaml")
RULES = (ROOT / "dsl" / "super-simple-skirmish.rules")


class _Planted:
    """What an attacker pickles: unpickling it runs `touch MARKER`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    folder, state = tmp_path / "cache", tmp_path / "state"
    monkeypatch.setenv("WARBAND_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    cache.clear_memory()
    cache._key.clear()
    yield folder
    cache.clear_memory()
    cache._key.clear()


def _entry_of(text: str, file: str) -> str:
    return cache.key(text, file)


def _validate() -> int:
    cache.clear_memory()
    return CliRunner().invoke(app, ["validate", FAMILY]).exit_code


def test_a_planted_pickle_is_never_unpickled(fresh, tmp_path):
    assert _validate() == 0                       # the folder and the key now exist
    [entry] = list(fresh.glob(f"*{cache.SUFFIX}"))
    marker = tmp_path / "pwned"
    for body in (pickle.dumps(_Planted(marker)),                    # no tag at all
                 b"\0" * cache.TAG_BYTES + pickle.dumps(_Planted(marker))):   # a forged tag
        entry.write_bytes(body)
        assert _validate() == 0
        assert not marker.exists()
        assert entry.read_bytes() != body          # compiled again and replaced


def test_even_an_authenticated_entry_makes_only_the_toolkits_data(fresh, tmp_path):
    # (defence in depth: should the key ever leak, the unpickler still refuses every global
    # that is not one of the toolkit's data classes)
    assert _validate() == 0
    [entry] = list(fresh.glob(f"*{cache.SUFFIX}"))
    marker = tmp_path / "pwned"
    body = pickle.dumps(_Planted(marker))
    secret = cache._secret(create=False)
    assert secret is not None
    entry.write_bytes(cache._tag(secret, entry.stem, body) + body)
    assert _validate() == 0
    assert not marker.exists()


@pytest.mark.parametrize("planted", [Compiled(None, []), 42, ["a", "list"]])
def test_a_planted_value_of_another_kind_is_compiled_again(fresh, planted):
    text = RULES.read_text(encoding="utf-8")
    entry = _entry_of(text, str(RULES))
    fresh.mkdir(mode=0o700)
    body = pickle.dumps(planted)
    secret = cache._secret(create=True)
    assert secret is not None
    planted_at = fresh / f"{entry}{cache.SUFFIX}"
    planted_at.write_bytes(cache._tag(secret, entry, body) + body)
    compiled = compile_cached(text, str(RULES))
    assert compiled.ruleset is not None and not compiled.errors
    # (and it was the entry the cache read: planted under the name it reads, it was replaced;
    # issue 33: reproducers that planted `*.pickle` tested nothing once entries were `.entry`)
    assert list(fresh.glob(f"*{cache.SUFFIX}")) == [planted_at]
    assert planted_at.read_bytes() != cache._tag(secret, entry, body) + body


def test_a_planted_entry_is_where_the_cache_reads(fresh):
    """The planting tests hold only if a planted file is the one the cache reads: an entry
    written there by hand, rightly tagged, is read back."""
    text = RULES.read_text(encoding="utf-8")
    entry = _entry_of(text, str(RULES))
    good = compile_cached(text, str(RULES))
    cache.clear_memory()
    [written] = list(fresh.glob(f"*{cache.SUFFIX}"))
    assert written.name == f"{entry}{cache.SUFFIX}"
    data = written.read_bytes()
    written.unlink()
    cache.clear_memory()
    written.write_bytes(data)   # (by hand, as a planted file is)
    found = cache.get(entry)
    assert found is not None and found.ruleset is not None and good.ruleset is not None
    assert found.ruleset.id == good.ruleset.id and found.ruleset is not good.ruleset


def test_a_full_disk_while_the_key_is_made_leaves_no_key_and_the_next_run_makes_one(
        fresh, monkeypatch):
    """Issue 33: a full disk while the key was written left a 0-byte cache.key, kept for good:
    the disk cache was off from then on (1.5 s lost on every later run)."""
    real_write = os.write

    def full(fd, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache.os, "write", full)
    assert _validate() == 0
    key = cache.key_file()
    assert key is not None and not key.exists()
    assert [p.name for p in key.parent.iterdir()] == []   # (no temporary file either)
    monkeypatch.setattr(cache.os, "write", real_write)
    cache._key.clear()
    assert _validate() == 0
    assert len(key.read_bytes()) == 32 and len(list(fresh.glob(f"*{cache.SUFFIX}"))) == 1


@pytest.mark.parametrize("left", [b"", b"\0" * 7])
def test_a_broken_key_left_by_an_older_version_is_replaced(fresh, left):
    key = cache.key_file()
    assert key is not None
    key.parent.mkdir(parents=True, mode=0o700)
    key.write_bytes(left)
    os.chmod(key, 0o600)
    assert _validate() == 0
    assert len(key.read_bytes()) == 32 and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert len(list(fresh.glob(f"*{cache.SUFFIX}"))) == 1


def test_a_folder_others_may_write_is_not_used(fresh):
    fresh.mkdir()
    os.chmod(fresh, 0o777)
    assert _validate() == 0
    assert list(fresh.iterdir()) == []
    os.chmod(fresh, 0o700)
    assert _validate() == 0
    assert len(list(fresh.glob(f"*{cache.SUFFIX}"))) == 1


def test_a_key_others_may_read_is_not_used(fresh):
    assert _validate() == 0
    key = cache.key_file()
    assert key is not None and stat.S_IMODE(key.stat().st_mode) == 0o600
    os.chmod(key, 0o644)
    cache._key.clear()
    assert cache._secret(create=False) is None


def test_a_failed_write_leaves_no_temporary_file(fresh, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache.os, "replace", full)
    assert _validate() == 0
    assert [p.name for p in fresh.iterdir()] == []


def test_the_folder_keeps_the_newest_entries(fresh, monkeypatch):
    monkeypatch.setattr(cache, "MAX_CACHE_ENTRIES", 3)
    for i in range(6):
        cache.put(f"entry{i}", Compiled(None, []), keep_on_disk=True)
        os.utime(fresh / f"entry{i}{cache.SUFFIX}", (1000 + i, 1000 + i))
    assert sorted(p.stem for p in fresh.glob(f"*{cache.SUFFIX}")) == \
        ["entry3", "entry4", "entry5"]


def test_no_home_no_cache_and_nothing_created(tmp_path, monkeypatch):
    monkeypatch.delenv("WARBAND_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "nonexistent"))
    assert cache.folder() is None and cache.key_file() is None
    assert _validate() == 0
    assert not (tmp_path / "nonexistent").exists()


def test_the_key_covers_the_rulesets_a_conversion_names(tmp_path):
    source = tmp_path / "a.rules"
    target = tmp_path / "b.rules"
    source.write_text('ruleset "a"\n', encoding="utf-8")
    target.write_text('ruleset "b"\n', encoding="utf-8")
    text = 'ruleset "a-to-b"\nconversion (f) from "a.rules" to "b.rules" { }\n'
    file = str(tmp_path / "convert.rules")
    before = cache.key(text, file)
    target.write_text('ruleset "b"\nstat Might 1 to 10\n', encoding="utf-8")
    assert cache.key(text, file) != before


@pytest.mark.parametrize("path", sorted((ROOT / "dsl").glob("*.rules")) +
                         sorted((ROOT / "scenarios").glob("*.rules")), ids=lambda p: p.stem)
def test_every_shipped_ruleset_comes_back_from_the_disk(fresh, path):
    """A compiled Ruleset is made only of classes from modules the unpickler allows: one moved
    to a new module (FighterClass to lang/classes.py) made every entry a silent miss, compiled
    again on every run."""
    text = path.read_text(encoding="utf-8")
    compiled = compile_cached(text, str(path))
    assert compiled.ruleset is not None
    cache.clear_memory()
    found = cache.get(cache.key(text, str(path)))
    assert isinstance(found, Compiled) and found.ruleset is not None
