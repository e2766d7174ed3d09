"""The package's imports form no circle, not even through an import made only for the type checker or inside a
function: each module can be read after the ones it imports."""

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_imports() -> dict[str, set[str]]:
    """Each of the project's modules (migrations aside) with the project's modules it imports, wherever it does."""
    files = [*ROOT.glob("corridor/**/*.py"), *ROOT.glob("schemas/**/*.py"), ROOT / "app.py"]
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in files
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # `from package import module` depends on that module, not on the package's own code
                submodules = [f"{node.module}.{alias.name}" for alias in node.names]
                targets = submodules if all(sub in modules for sub in submodules) else [node.module, *submodules]
            else:
                continue
            graph[name] |= {target for target in targets if target in modules and target != name}
    return graph


def test_the_project_s_imports_form_no_circle():
    graph = module_imports()
    assert len(graph) > 80  # every module was read
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"imports in a circle: {' -> '.join(error.args[1])}") from None
