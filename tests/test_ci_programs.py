"""Every program a test needs is one `.ci/run` installs on a fresh machine (issue #12).

A test asks for a program through `tests.conftest.needs_program`; this checks the
whole suite for programs asked for any other way, and that every program asked for
is listed in `.ci/programs` with its Debian package.
"""

import ast
import re
from pathlib import Path

from tests.conftest import ci_programs

TESTS = Path(__file__).resolve().parent


def _calls(name: str):
    """(file, first argument) of every call of `name` with a literal argument in the tests."""
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called == name and isinstance(node.args[0], ast.Constant):
                yield path.relative_to(TESTS), node.args[0].value


def test_every_program_a_test_needs_is_installed_by_ci():
    listed = ci_programs()
    asked = {program for _, program in _calls("needs_program")}
    assert asked, "no test asks for a program: the scan is broken"
    assert asked <= set(listed), f"add to .ci/programs: {sorted(asked - set(listed))}"


def test_no_test_looks_for_a_program_behind_ci_s_back():
    """`shutil.which` in a test hides a program from `.ci/programs`."""
    found = [str(path) for path, _ in _calls("which") if path.name != "conftest.py"]
    assert found == []


def test_ci_installs_the_listed_packages():
    run = (TESTS.parent / ".ci" / "run").read_text()
    assert re.search(r"\.ci/programs", run)
    assert "apt-get install" in run
    assert {"chromium", "chromium-driver", "wrk"} <= set(ci_programs().values())
