"""The package's imports form no circle, not even through an import made only for the type checker or inside a
function: each module can be read after the ones it imports; the domain and the schemas import no web package. And
the package reads no name a library keeps private."""

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
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            # importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first, but for a package that holds the
            # importer: it is being run already
            targets += [
                ".".join(target.split(".")[:end]) for target in targets for end in range(1, target.count(".") + 1)
            ]
            graph[name] |= {
                target
                for target in targets
                if target in modules and target != name and not name.startswith(f"{target}.")
            }
    return graph


def test_the_project_s_imports_form_no_circle():
    graph = module_imports()
    assert len(graph) > 80  # every module was read
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"imports in a circle: {' -> '.join(error.args[1])}") from None


def test_the_domain_imports_nothing_of_the_project_and_the_schemas_only_the_domain():
    graph = module_imports()
    assert graph["corridor"] == set()  # the root package, run by every import of the domain: only the version
    outside = {
        (name, target)
        for name, targets in graph.items()
        for target in targets - {"corridor"}
        if (name.startswith("corridor.domain") and not target.startswith("corridor.domain"))
        or (name.startswith("schemas") and not target.startswith(("schemas", "corridor.domain")))
    }
    assert outside == set()


# marshmallow's documented way to make a field: override `_serialize` or `_deserialize`, calling the parent's
FIELD_HOOKS = {"_serialize", "_deserialize"}


def _private(name: object) -> bool:
    return isinstance(name, str) and name.startswith("_") and not name.startswith("__")


def private_names(path: Path):
    """Where a module reads a name another object keeps private: `x._name`, `getattr(x, "_name")`, `from x import _y`;
    its own (`self.`, `cls.`) and a field's hooks through `super()` aside."""
    for node in ast.walk(ast.parse(path.read_text())):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and _private(node.attr):
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            hook = isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "super"
            if not own and not (hook and node.attr in FIELD_HOOKS):
                yield f"{where} .{node.attr}"
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr", "hasattr", "setattr"):
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and _private(node.args[1].value):
                yield f"{where} {node.func.id}(…, {node.args[1].value!r})"
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [*node.module.split("."), *(alias.name for alias in node.names)]
            if not node.module.startswith(("corridor", "schemas")) and any(map(_private, names)):
                yield f"{where} from {node.module} import …"


def test_the_package_reads_no_name_a_library_keeps_private():
    files = [*ROOT.glob("corridor/**/*.py"), *ROOT.glob("schemas/**/*.py")]
    files += [ROOT / name for name in ("app.py", "wsgi.py", "gunicorn.conf.py")]
    assert [found for path in files for found in private_names(path)] == []
