"""The README and docs/ name only what exists: every file, module, function and class they
name in backticks, every environment variable config/settings.py reads, every management
command. Read from the text and the source alone (no Django), so it is fast; a rename
that leaves the text behind fails here."""

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = ("club", "core", "config", "scoring", "tournaments", "bench")
TOP = (*PACKAGES, "tests", "templates", "static", "docs", ".ci")
PACKAGE = "(?:" + "|".join(PACKAGES) + ")"
ANY_TOP = "(?:" + "|".join(re.escape(top) for top in TOP) + ")"
#: Made by a run, not kept in the repository.
GENERATED = ("artifacts/",)


def _ticked(doc: Path) -> list[str]:
    return re.findall(r"`([^`\n]+)`", doc.read_text())


def _named_paths(doc: Path) -> set[str]:
    """Repository paths the text names, backticked or not (a URL's path is not one)."""
    text = doc.read_text()
    found = set()
    for match in re.finditer(r"(?<![\w/.<-])(" + ANY_TOP + r"/[\w./-]*[\w/])", text):
        path = match.group(1)
        if "<" in text[match.end() : match.end() + 1] or path.startswith(GENERATED):
            continue
        if path.endswith("/") and not (ROOT / path).is_dir() and "." not in path:
            continue  # a URL's path: /clubs/<slug>/tournaments/new/
        found.add(path)
    return found


@cache
def _defined(module: Path) -> frozenset[str]:
    """Names a module defines: at its top, in its classes, and the names it imports."""
    names = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
            names |= {t.attr for t in targets if isinstance(t, ast.Attribute)}
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
    return frozenset(names)


def _module(parts: list[str]) -> tuple[Path, list[str]] | None:
    """The module file a dotted name starts with, and the names after it."""
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file():
            return base.with_suffix(".py"), parts[end:]
        if (base / "__init__.py").is_file():
            return base / "__init__.py", parts[end:]
    return None


def _dotted_names(doc: Path) -> set[str]:
    """`club.selectors.table_by_link`, `scoring/services.py: rubber_record_hand` as dotted."""
    names = set()
    for ticked in _ticked(doc):
        ticked = re.sub(r"\(.*", "", ticked).strip()
        pathed = re.fullmatch(r"(" + PACKAGE + r"/[\w/]+)\.py: (\w+)", ticked)
        if pathed:
            names.add(pathed.group(1).replace("/", ".") + "." + pathed.group(2))
        elif re.fullmatch(PACKAGE + r"(?:\.\w+)+", ticked):
            names.add(ticked)
    return names


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_path_the_docs_name_exists(doc):
    missing = sorted(p for p in _named_paths(doc) if not (ROOT / p).exists())
    assert not missing, f"{doc.name} names files that are not there: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_module_function_and_class_the_docs_name_exists(doc):
    missing = []
    for name in sorted(_dotted_names(doc)):
        found = _module(name.split("."))
        if found is None:
            missing.append(name)
            continue
        module, rest = found
        models = module.parent / "models.py"
        if rest[:1] and rest[0] not in _defined(module) and models.is_file():
            module = models  # a model by its label: club.Cut
        # club.Club.directors: a model's field is not read here; its class is.
        if rest and rest[0] not in _defined(module):
            missing.append(name)
    assert not missing, f"{doc.name} names what the code does not define: {missing}"


def _variables_read() -> set[str]:
    """Environment variables the settings and gunicorn's settings read."""
    read = set()
    for source in (ROOT / "config").glob("*.py"):
        text = source.read_text()
        read |= set(re.findall(r"\benv(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]+)\"", text))
        read |= set(re.findall(r"environ(?:\.get\(|\[)\s*\"([A-Z][A-Z0-9_]+)\"", text))
    return read - {"PYTEST_XDIST_WORKER"}  # the test runner's, not the operator's


def test_every_variable_the_settings_read_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    assert "DATABASE_URL" in _variables_read()  # the reading of the settings works
    missing = sorted(v for v in _variables_read() if f"`{v}`" not in readme)
    assert not missing, f"README.md does not say what these do: {missing}"


def test_every_variable_the_readme_configures_is_read():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([^|]+) \|", section, flags=re.MULTILINE)
    named = set(re.findall(r"`([A-Z][A-Z0-9_]{2,})`", " ".join(rows)))
    rarer = section.split("Less often changed", 1)[1].split("\n\n", 1)[0]
    named |= set(re.findall(r"`([A-Z][A-Z0-9_]{2,})` \(", rarer))
    assert "SECRET_KEY" in named  # the reading of the table works
    stale = sorted(named - _variables_read())
    assert not stale, f"README.md's Configuration names variables nothing reads: {stale}"


def test_every_management_command_the_docs_name_exists():
    commands = {p.stem for p in ROOT.glob("*/management/commands/*.py")}
    named = set()
    for doc in DOCS:
        named |= set(re.findall(r"manage\.py (\w+)", doc.read_text()))
    django_own = {"migrate", "collectstatic", "createsuperuser", "changepassword", "check"}
    django_own |= {"runserver", "axes_reset_username"}
    missing = sorted(named - commands - django_own)
    assert not missing, f"no such management command: {missing}"


#: A test's name in the text, or its prefix: `test_law_15_*`, `test_law_8_euchre...`.
TEST_NAME = re.compile(r"(?<![\w./])(test_\w+)(\.\.\.|\*(?!\.py))?(?![\w.*])")


@cache
def _tests_defined() -> frozenset[str]:
    names = set()
    for source in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"^\s*(?:async )?def (test_\w+)", source.read_text(), re.M))
    return frozenset(names)


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_every_test_the_docs_name_exists(doc):
    """`test_law_15_*`, `test_law_8_euchre_knave_is_highest...`: a prefix; else the name."""
    missing = []
    for ticked in _ticked(doc):
        for name, prefix in TEST_NAME.findall(ticked):
            if prefix or name.endswith("_"):
                found = any(test.startswith(name) for test in _tests_defined())
            else:
                found = name in _tests_defined()
            if not found:
                missing.append(name + prefix)
    assert not missing, f"{doc.name} names tests that are not there: {missing}"
