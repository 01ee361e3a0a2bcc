"""No two modules of the project import each other, directly or around a circle: each module
can be read, tested and changed from the ones it builds on. (The layer contract in
`make test` orders the packages; this orders the modules inside them.)"""

from __future__ import annotations

import grimp

PACKAGES = ("core", "repositories", "seeds", "prompts", "services", "bot", "api", "web")


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module) & modules:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_around_a_circle() -> None:
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False)
    modules = {m for m in graph.modules if not graph.find_children(m)}  # files, not packages
    assert _cycles(graph, modules) == []
