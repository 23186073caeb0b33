"""The compile cache's key: a cached Ruleset is reused only by the exact code that made it, so
the fingerprint of the toolkit covers every module of every subpackage (a module moved, added
or changed anywhere makes a new key)."""

from __future__ import annotations

import shutil
from pathlib import Path

from warband.lang import cache

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
