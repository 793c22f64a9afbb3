"""The layout of scorepad/ as docs/development.md draws it: how deep the run-time imports go,
no cycle between modules or between folders, and no module too long to read.

Measured from the import graph itself (grimp, import-linter's own graph builder), counting
the imports that run (not those under ``if TYPE_CHECKING:``) and the engine as one module.
"""

from __future__ import annotations

import functools
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent / "scorepad"
ENGINE = "scorepad.scoring"
#: The longest chain of run-time imports from the package's __init__ down, in modules.
MOST_FLOORS = 9
#: The longest module, in lines.
MOST_LINES = 500


def node(module: str) -> str:
    """A module of the graph: the engine counts as one."""
    return ENGINE if module == ENGINE or module.startswith(ENGINE + ".") else module


@pytest.fixture(scope="module")
def imports() -> dict[str, set[str]]:
    """Each module of scorepad (the engine as one) and the scorepad modules it imports at run time."""
    graph = grimp.build_graph("scorepad", exclude_type_checking_imports=True)
    edges: dict[str, set[str]] = {node(m): set() for m in graph.modules}
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if node(imported) != node(module):
                edges[node(module)].add(node(imported))
    return edges


def longest_chain(edges: dict[str, set[str]], start: str) -> tuple[str, ...]:
    """The longest path of imports from ``start``; raises AssertionError on a cycle (naming it)."""

    @functools.cache
    def down(module: str, seen: frozenset[str]) -> tuple[str, ...]:
        best: tuple[str, ...] = (module,)
        for imported in sorted(edges[module]):
            assert imported not in seen, f"import cycle: {module} -> {imported}"
            chain = (module, *down(imported, seen | {imported}))
            best = max(best, chain, key=len)
        return best

    return down(start, frozenset({start}))


def test_the_longest_import_chain_is_at_most_nine_modules(imports):
    chain = longest_chain(imports, "scorepad")
    assert len(chain) <= MOST_FLOORS, " -> ".join(chain)


def test_no_import_cycle_between_modules(imports):
    for module in imports:
        longest_chain(imports, module)


def folder(module: str) -> str:
    """The folder (sub-package) of a module, or the module itself at the top."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_no_import_cycle_between_folders(imports):
    folders: dict[str, set[str]] = {}
    for module, imported in imports.items():
        folders.setdefault(folder(module), set()).update(folder(m) for m in imported if folder(m) != folder(module))
    for top in folders:
        folders.setdefault(top, set())
    for top in sorted(folders):
        longest_chain(folders, top)


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT.parent)))
def test_no_module_is_over_500_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(ROOT.parent)} has {lines} lines"


def test_a_cycle_is_found():
    """The check itself: a cycle a -> b -> a is refused, naming it."""
    with pytest.raises(AssertionError, match="import cycle"):
        longest_chain({"a": {"b"}, "b": {"a"}}, "a")
