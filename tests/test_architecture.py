"""The direction of the dependencies between the project's packages, kept.

    core  <-  scoring  <-  club  <-  tournaments          (config: the project's shell)

- core: the plumbing (user errors, row locks, audit, idempotency, heartbeats); imports
  no other package of the project.
- scoring: the laws and the stored rubbers; imports core only. It never calls the
  evening or the standings: it announces its changes by signals (scoring/signals.py).
- club: clubs, evenings, tables, the one way a hand is changed (club/recording.py);
  imports scoring and core. It learns of hands by scoring's signals.
- tournaments: standings, movements, public pages; may import all three. It writes its
  standings' outbox on scoring's `rubber_changed` and adds its rows to club's backup.
- config: settings, urls, the Celery app, wsgi, the API's error shape. Its own modules
  (all but urls and api, which wire the apps' views) import no package of the project,
  and no module of config imports an app's models.

Only the domain modules are held to the direction: views, api, urls, admin, serializers,
forms, templatetags, management commands and migrations sit on top of everything and may
import any package. Every import counts, at module level or inside a function (an
import put in a function to dodge a cycle is still a dependency), relative ones too.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Lower first: a package may import only the packages before it.
LAYERS = ["core", "scoring", "club", "tournaments"]
PACKAGES = [*LAYERS, "config"]
NOT_DOMAIN = {"views", "api", "urls", "admin", "serializers", "forms", "templatetags",
              "management", "migrations"}  # fmt: skip


def _is_domain(path: Path) -> bool:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return not any(
        part in NOT_DOMAIN or part.split("_")[0] in {"views", "api", "urls"} for part in parts[1:]
    )


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Every module `source` imports, wherever the import statement is (module level,
    function, class, `if TYPE_CHECKING:`), relative imports resolved against `module`."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            # `from club import evenings` imports the module club.evenings.
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def _modules(package: str, *, domain_only: bool = True):
    for path in sorted((ROOT / package).rglob("*.py")):
        if domain_only and not _is_domain(path):
            continue
        source = path.read_text()
        yield path, imports(source, _module(path), is_package=path.name == "__init__.py")


def _package_edges() -> dict[tuple[str, str], list[str]]:
    """(importer, imported) package pairs among domain modules, with where each is."""
    edges: dict[tuple[str, str], list[str]] = {}
    for package in PACKAGES:
        for path, names in _modules(package):
            for name in names:
                top = name.split(".")[0]
                if top in PACKAGES and top != package:
                    where = f"{path.relative_to(ROOT)} imports {name}"
                    edges.setdefault((package, top), []).append(where)
    return edges


def test_domain_imports_follow_the_layers():
    wrong = [
        where
        for (importer, imported), wheres in _package_edges().items()
        if importer == "config"
        or imported == "config"
        or LAYERS.index(imported) > LAYERS.index(importer)
        for where in wheres
    ]
    assert not wrong, "Against the direction core <- scoring <- club <- tournaments:\n" + (
        "\n".join(wrong)
    )


def test_the_package_graph_of_domain_modules_is_acyclic():
    graph: dict[str, set[str]] = {package: set() for package in PACKAGES}
    for importer, imported in _package_edges():
        graph[importer].add(imported)
    done: set[str] = set()

    def visit(package: str, path: list[str]) -> None:
        if package in path:
            cycle = " -> ".join([*path[path.index(package) :], package])
            pytest.fail(f"Import cycle between packages: {cycle}")
        if package in done:
            return
        for imported in sorted(graph[package]):
            visit(imported, [*path, package])
        done.add(package)

    for package in PACKAGES:
        visit(package, [])


def test_scoring_knows_nothing_of_the_evening_or_the_standings():
    """The laws stand alone: no domain module of scoring imports club or tournaments
    (its API's views may, to call the one way a hand is recorded, club.recording)."""
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, names in _modules("scoring")
        for name in names
        if name.split(".")[0] in {"club", "tournaments"}
    ]
    assert not wrong, "\n".join(wrong)


def test_config_imports_no_apps_models():
    apps = {"core", "scoring", "club", "tournaments"}
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, names in _modules("config", domain_only=False)
        for name in names
        if name.split(".")[0] in apps and ".models" in f"{name}."
    ]
    assert not wrong, "\n".join(wrong)


def test_function_level_and_relative_imports_count():
    """The checker is not fooled by an import hidden in a function, a relative one, or
    one behind TYPE_CHECKING."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from club.models import Club\n"
        "def mark():\n    from tournaments.services import standings_note_change\n"
        "from .rules import get_ruleset\n"
    )
    found = imports(source, "scoring.services")
    assert {"club.models", "tournaments.services", "scoring.rules"} <= found


MAX_LINES = 900


def test_no_file_is_over_900_lines():
    """Files say what they hold: none grows past 900 lines (issue #13)."""
    long = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for package in [*PACKAGES, "bench", "tests"]
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and (n := len(path.read_text().splitlines())) > MAX_LINES
    ]
    assert long == []
