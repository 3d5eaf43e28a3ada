"""The house's shape, checked from the source: the memory plugin reached only through its face, no import
circles, and no room importing one above it (the pipeline reads top to bottom in LAYERS)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

# Lower layers never import higher ones; a room may import its own layer's other rooms only as listed.
LAYERS = {
    "events": 0, "errors": 0, "config": 0, "logs": 0, "private": 0,
    "audio": 1, "llm": 1, "stt": 1, "tts": 1,
    "wake": 2, "turn": 2, "speakers": 2,
    "voice": 3,
    "app": 4,
    "serve": 5,
    "cli": 6,
}


def _modules(package: str) -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """The modules `name` imports (absolute names), wherever in the file the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            if node.module:                  # "from . import a" imports a, not the package's own face
                found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}
    return found


def _graph(package: str = "assistant") -> dict[str, set[str]]:
    modules = _modules(package)
    return {name: {m for m in _imports(name, path) if m in modules and m != name} for name, path in modules.items()}


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_assistant_reaches_the_memory_only_through_its_face():
    leaks = sorted(f"{name}: {m}" for name, path in _modules("assistant").items()
                   for m in _imports(name, path) if m.startswith("memory.") and m.split(".")[1] not in _public_memory())
    assert leaks == []


def _public_memory() -> set[str]:
    import memory
    return set(memory.__all__)


def test_the_memory_plugin_never_imports_the_assistant():
    assert not [name for name, path in _modules("memory").items()
                if any(m == "assistant" or m.startswith("assistant.") for m in _imports(name, path))]


def test_no_room_imports_one_above_it():
    upward = sorted(f"{a} -> {b}" for a, targets in _graph().items() for b in targets
                    if _room(a) and _room(b) and LAYERS[_room(b)] > LAYERS[_room(a)])
    assert upward == []


def test_every_room_has_a_layer():
    assert {_room(m) for m in _modules("assistant")} - {""} <= set(LAYERS)


@pytest.mark.parametrize("package", ["assistant", "memory"])
def test_no_import_circles(package):
    graph, state, cycles = _graph(package), {}, []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [node, nxt]) if nxt in trail else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, trail + [node])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert cycles == []


# A vocabulary and the schema's migrations are long by nature; everything else is a room, not a hall.
LONG_BY_NATURE = {"memory.lexicon", "memory.migrations"}


def test_no_module_class_or_function_is_a_hall():
    halls = []
    for package in ("assistant", "memory"):
        for name, path in _modules(package).items():
            source = path.read_text()
            if name not in LONG_BY_NATURE and len(source.splitlines()) > 400:
                halls.append(f"module {name}: {len(source.splitlines())} lines")
            for node in ast.walk(ast.parse(source)):
                if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if isinstance(node, ast.ClassDef) and size > 300:
                    halls.append(f"class {name}.{node.name}: {size} lines")
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and size > 60:
                    halls.append(f"function {name}.{node.name}: {size} lines")
    assert halls == []
