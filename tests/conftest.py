"""Shared test fixtures, and the classes of slow tests.

Golden files: a test compares what a user would read with a file under tests/; run
`pytest --update-goldens` (or set WARBAND_UPDATE_GOLDENS=1) to rewrite them, then review the diff.

The suite runs in parallel (pytest-xdist): `python -m pytest -n auto`, the README's command.
Each worker has its own temporary folders, compile cache and state folder (below), so tests
never share files. The slow classes are marked (`slow`, and one of `browser`, `subprocess`,
`property`, `oracle`: see pytest_collection_modifyitems) so that a developer can run the quick
set while working: `python -m pytest -n auto -m "not slow"`. Measured on the development
machine (2 cores): docs/robustness.md, "The test suite".
"""

from __future__ import annotations

import functools
import inspect
import os
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files instead of comparing against them")
    parser.addoption("--budget", choices=("default", "large"), default=None,
                     help="examples per property test in tests/test_robustness.py: 'default' "
                          "(seconds) or 'large' (WARBAND_FUZZ_EXAMPLES each, 100,000 unless "
                          "set); also HYPOTHESIS_PROFILE=large")


# ---- property-test budgets --------------------------------------------------------------------
# The default run gives each robustness property a modest number of examples (the whole suite
# stays around two minutes). The large budget is for a long fuzzing run: see docs/robustness.md.

def _register_profiles() -> None:
    from hypothesis import HealthCheck, settings
    large = int(os.environ.get("WARBAND_FUZZ_EXAMPLES", "100000"))
    settings.register_profile("large", max_examples=large, deadline=None,
                              suppress_health_check=list(HealthCheck))


_register_profiles()


def pytest_configure(config):
    from hypothesis import settings
    profile = config.getoption("--budget") or os.environ.get("HYPOTHESIS_PROFILE")
    if profile:
        settings.load_profile(profile)
    for name, what in SLOW_CLASSES.items():
        config.addinivalue_line("markers", f"{name}: {what} (slow)")
    config.addinivalue_line("markers", "slow: any of the slow classes (-m 'not slow': quick)")


# The slow classes: what they cost, and how a test is known to be one of them.
SLOW_CLASSES = {
    "browser": "opens pages in headless Chromium, or prints with WeasyPrint",
    "subprocess": "starts the toolkit (or a server, a cluster) in another process",
    "property": "a Hypothesis property test: hundreds of generated examples",
    "oracle": "checks exact odds against icepool, which computes the reference",
}
_BROWSER_FILES = ("browser", "print", "pages")   # (in the file's name)


def _slow_classes(item) -> list[str]:
    function = getattr(item, "function", None)
    found = []
    name = item.path.name if hasattr(item, "path") else ""
    if any(word in name for word in _BROWSER_FILES) or "chromium" in item.fixturenames:
        found.append("browser")
    if getattr(function, "is_hypothesis_test", False):
        found.append("property")
    source = _source(function) if function is not None else ""
    if "icepool" in source or "oracle" in item.fixturenames:
        found.append("oracle")
    if "subprocess" in source or "Popen" in source:
        found.append("subprocess")
    return found


@functools.lru_cache(maxsize=None)
def _source(function) -> str:
    """A test function's text (once for all its parameters)."""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def pytest_collection_modifyitems(config, items):
    for item in items:
        classes = _slow_classes(item)
        for name in classes:
            item.add_marker(name)
        if classes:
            item.add_marker("slow")


@pytest.fixture(scope="session")
def oracle(request):
    """oracle(key, compute): a reference a slow oracle computes (icepool's distribution of
    `10 @ d(1000)` takes 15 s for a check of 0.05 s), kept in pytest's cache folder by its key
    and the oracle's version, so that it is computed once, not at every run. compute() gives
    {outcome: probability}; outcomes and probabilities come back as they went (ints and
    Fractions)."""
    import icepool  # lazily: only the oracle tests need it

    cache = getattr(request.config, "cache", None)   # (none with -p no:cacheprovider)

    def cached(key: str, compute) -> dict:
        if cache is None:
            return compute()
        name = f"warband/oracle/{icepool.__version__}/{key}"
        kept = cache.get(name, None)
        if kept is not None:
            return {_outcome(k): Fraction(v) for k, v in kept}
        found = compute()
        cache.set(name, [[repr(k), str(v)] for k, v in found.items()])
        return found
    return cached


def _outcome(text: str):
    """An outcome kept by the oracle cache (its repr: an int, a bool, a Fraction, a text)."""
    if text in ("True", "False"):
        return text == "True"
    if text.startswith("Fraction("):
        numerator, denominator = text[len("Fraction("):-1].split(",")
        return Fraction(int(numerator), int(denominator))
    if text[:1] in "'\"":
        return text[1:-1]
    return int(text)


@pytest.fixture
def exact_limit(monkeypatch):
    """lower(n): the interpreter's limit of exact work (limits.MAX_BRANCHES) lowered to n where
    the interpreter checks it: as each statement runs (run/statements.py) and as each roll is
    drawn (run/expr_reads.py)."""
    from warband.run import expr_reads, statements

    def lower(limit: int) -> None:
        for module in (statements, expr_reads):
            monkeypatch.setattr(module, "MAX_BRANCHES", limit)
    return lower


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch, tmp_path_factory):
    # Tests never read or write the user's compile cache.
    monkeypatch.setenv("WARBAND_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.getbasetemp() / "state"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")


def _as_in_a_checkout(text: str) -> str:
    """Installed (as CI installs it), the shipped files live in site-packages and messages and
    modelines name them there; goldens name them as a checkout does (dsl/, schemas/)."""
    from warband import catalog
    for folder, name in ((catalog.RULES_DIR, "dsl"), (catalog.SCHEMAS_DIR, "schemas")):
        if folder.resolve() == (ROOT / name).resolve():
            continue
        for prefix in {os.path.relpath(folder), os.path.relpath(folder, ROOT),
                       str(folder.resolve())}:
            text = text.replace(prefix.replace("\\", "/") + "/", name + "/")
    return text


@pytest.fixture
def golden(request):
    """golden(path, text): assert text equals the file's content, or rewrite it when asked."""
    update = request.config.getoption("--update-goldens") or os.environ.get(
        "WARBAND_UPDATE_GOLDENS") == "1"

    def check(path: Path, text: str) -> None:
        path = Path(path)
        text = _as_in_a_checkout(text)
        if update or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if not update:
                pytest.fail(f"golden file {path.relative_to(ROOT)} was missing and has been "
                            "written; review it and run again")
            return
        expected = path.read_text(encoding="utf-8")
        assert text == expected, (
            f"output differs from {path.relative_to(ROOT)}; if the change is intended, run "
            "pytest --update-goldens and review the diff")

    return check


@pytest.fixture(scope="session")
def sss():
    from warband.lang.compiler import load
    compiled = load("super-simple-skirmish")
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


@pytest.fixture
def at_root(monkeypatch):
    """Run a test from the checkout's root, where the docs' and goldens' relative paths hold
    (a file that wants it for every test declares its own autouse fixture)."""
    monkeypatch.chdir(ROOT)
