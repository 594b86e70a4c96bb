"""
The suite's import graph, read from the source with `ast` (imports inside functions count too):
which package imports which, and whether the layering holds.

    python scripts/import_graph.py            # the package graph, then what breaks the rules, if anything
    python scripts/import_graph.py --modules  # the module graph instead

The rules, which it exits 1 on:

- no circle: no module imports, through any chain, a module that imports it;
- no upward import: the packages stand in `LAYERS`, and a module imports only from its own package
  and from packages in lower layers (so a task package never imports another task package);
- a package's entry modules (`ENTRY_MODULES`: its command-line commands, the runner that drives
  `allennlp train`) are imported by the package's `__init__` and commands alone: what they use
  lives below them.
"""

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL = ("allennlp_compat", "data_readers", "tasks")
# Lowest first: a package may import from its own layer's package and from the layers below.
LAYERS = [
    ["allennlp_compat"],
    ["data_readers"],
    ["tasks.environment", "tasks.common"],
    ["tasks.bilm"],
    ["tasks.elmo"],
    [
        "tasks.ner",
        "tasks.sst",
        "tasks.snli",
        "tasks.squad",
        "tasks.coref",
        "tasks.srl",
        "tasks.inspect",
        "tasks.reproduce",
    ],
    ["tasks.demo"],  # serves every task's models, and reads a plan's run folders
    ["tasks"],
    ["tasks.plugin"],
]
ENTRY_MODULES = ("commands", "runner")
LAYER_OF = {package: number for number, packages in enumerate(LAYERS) for package in packages}


def modules(root: Path = ROOT) -> Dict[str, Path]:
    """Every module of the suite's packages, by dotted name (a package by its own name)."""
    found = {}
    for top in TOP_LEVEL:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def module_imports(root: Path = ROOT) -> Dict[str, Set[str]]:
    """For each module, the modules of the suite it imports."""
    known = modules(root)

    def resolve(name: str) -> str:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    graph = {}
    for name, path in known.items():
        imported: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(resolve(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{base}" if base else package
                imported.update(resolve(f"{base}.{alias.name}") for alias in node.names)
        graph[name] = imported - {"", name}
    return graph


def package_of(module: str) -> str:
    """The package a module belongs to for the layering: the longest name in `LAYERS` it falls under."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        if ".".join(parts[:length]) in LAYER_OF:
            return ".".join(parts[:length])
    raise ValueError(f"{module} is in no layer of LAYERS: add its package there")


def circles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    found: List[List[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def broken_rules(graph: Dict[str, Set[str]]) -> List[str]:
    """Every circle, upward import and import of another package's commands, in words."""
    problems = [f"circle: {' -> '.join(group)}" for group in circles(graph)]
    for module, imported in sorted(graph.items()):
        package = package_of(module)
        for other in sorted(imported):
            other_package = package_of(other)
            if other_package == package:
                pass
            elif LAYER_OF[other_package] >= LAYER_OF[package]:
                problems.append(f"upward or sideways: {module} imports {other}")
            own_package = other.rpartition(".")[0]
            entry_users = (own_package, f"{own_package}.commands")
            if other.rpartition(".")[2] in ENTRY_MODULES and module not in entry_users:
                problems.append(f"an entry module imported from below: {module} imports {other}")
    return problems


def package_edges(graph: Dict[str, Set[str]]) -> Counter:
    """How many module imports go from each package to each other package."""
    return Counter(
        (package_of(module), package_of(other))
        for module, imported in graph.items()
        for other in imported
        if package_of(module) != package_of(other)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", action="store_true", help="print the module graph rather than the packages'")
    args = parser.parse_args()
    graph = module_imports()
    if args.modules:
        for module, imported in sorted(graph.items()):
            print(f"{module} -> {', '.join(sorted(imported)) or '(nothing of the suite)'}")
    else:
        edges = package_edges(graph)
        for layer in LAYERS:
            for package in layer:
                targets = sorted((other, count) for (source, other), count in edges.items() if source == package)
                print(f"{package} -> " + (", ".join(f"{other} ({count})" for other, count in targets) or "(nothing)"))
    problems = broken_rules(graph)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(graph)} modules; {len(circles(graph))} circles; {len(problems)} broken rules", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
