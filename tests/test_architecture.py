"""The house rules of the package, checked on its source (docs/architecture.md says why):

- layers import downwards only: the ground floor (diagnostics, catalog, limits) <- lang <- run
  <- lists <- game <- tools (lsp, builder) <- cli;
- no import cycles, counting imports inside functions too (`TYPE_CHECKING` blocks aside: they
  never run);
- no private name (`_x`) of one module used by another;
- an import inside a function says why (a `# lazily: ...` comment on it or on the line above):
  it is there to keep a command's start-up lean or to load an optional package, never to dodge
  a cycle. The command line (cli/) imports the library inside its commands throughout, as its
  docstring says, and is exempt.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit" / "warband"

# The layers, lowest first; a module may import from its own layer or any layer below it.
LAYERS = {
    "warband": 0, "warband.diagnostics": 0, "warband.catalog": 0, "warband.limits": 0,
    "warband.lang": 1, "warband.run": 2, "warband.lists": 3, "warband.game": 4,
    # the tools around the language: the editor's server, the list builder and the balance
    # reports (none imports another; each stands on everything under them)
    "warband.lsp": 5, "warband.builder": 5, "warband.balance": 5,
    "warband.cli": 6, "warband.__main__": 6,
}


def layer(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        found = LAYERS.get(".".join(parts[:n]))
        if found is not None:
            return found
    raise AssertionError(f"{module} belongs to no layer: add its subpackage to LAYERS")


@dataclass(frozen=True)
class Import:
    source: str      # the importing module
    target: str      # the imported module
    line: int
    in_function: bool
    names: tuple[str, ...]


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def _type_checking(parents: list[ast.AST]) -> bool:
    return any(isinstance(p, ast.If) and "TYPE_CHECKING" in ast.unparse(p.test)
               for p in parents)


def _walk(tree: ast.AST):
    """Every node with its ancestors."""
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        yield node, parents
        stack.extend((child, parents + [node]) for child in ast.iter_child_nodes(node))


def imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node, parents in _walk(tree):
        if _type_checking(parents):
            continue
        in_function = any(isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef))
                          for p in parents)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "warband":
                    out.append(Import(module, alias.name, node.lineno, in_function, ()))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "warband":
                continue
            names = tuple(a.name for a in node.names)
            # `from warband.lang import nodes` imports the module warband.lang.nodes
            for name in names:
                if f"{target}.{name}" in MODULES:
                    out.append(Import(module, f"{target}.{name}", node.lineno, in_function, ()))
            if any(f"{target}.{name}" not in MODULES for name in names):
                out.append(Import(module, target, node.lineno, in_function, names))
    return out


IMPORTS = [i for m, p in sorted(MODULES.items()) for i in imports_of(m, p)]


def test_every_module_is_in_a_layer():
    for module in MODULES:
        layer(module)


def test_imports_go_downwards_only():
    upward = [f"{i.source} (line {i.line}) imports {i.target}" for i in IMPORTS
              if i.target in MODULES and layer(i.target) > layer(i.source)]
    assert upward == [], "imports against the layers:\n" + "\n".join(upward)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_cycles():
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in IMPORTS:
        if i.target in MODULES and i.target != i.source:
            edges[i.source].add(i.target)
    assert cycles(edges) == []


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_name_is_imported_across_modules():
    found = [f"{i.source} (line {i.line}) imports {n} from {i.target}"
             for i in IMPORTS for n in i.names if _private(n) and i.target != i.source]
    assert found == []


def test_no_private_name_is_read_from_another_module():
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}   # local name -> the package module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith("warband"):
                for a in node.names:
                    if f"{node.module}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in MODULES and a.asname:
                        aliases[a.asname] = a.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in aliases and _private(node.attr) and \
                    aliases[node.value.id] != module:
                found.append(f"{module} (line {node.lineno}) reads "
                             f"{aliases[node.value.id]}.{node.attr}")
    assert found == []


def test_imports_inside_functions_say_why():
    unexplained = []
    for module, path in MODULES.items():
        if layer(module) == LAYERS["warband.cli"]:
            continue   # the command line imports inside its commands throughout (see above)
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for node, parents in _walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or _type_checking(parents):
                continue
            if not any(isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)) for p in parents):
                continue
            # the comment may sit on the import, or above the block of imports it starts
            row = node.lineno - 1
            while row > 0 and lines[row - 1].strip().startswith(("from ", "import ", "#")) \
                    or row > 0 and not lines[row - 1].strip():
                row -= 1
            said = " ".join(lines[max(row - 1, 0):node.end_lineno])
            if "# lazily" not in said:
                unexplained.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: "
                                   f"{lines[node.lineno - 1].strip()}")
    assert unexplained == [], ("imports inside functions without a '# lazily: why' comment:\n"
                               + "\n".join(unexplained))


@pytest.mark.parametrize("source, target, expected", [
    ("warband.lang.parser", "warband.catalog", 0),
    ("warband.run.world", "warband.lang.ruleset", 1),
    ("warband.cli.rules", "warband.game.playouts", 4),
])
def test_layers_are_read_from_the_module_path(source, target, expected):
    assert layer(target) == expected
    assert layer(source) >= layer(target)
