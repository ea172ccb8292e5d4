"""The type stubs describe the native module as it is: every class, method and function on
one side is on the other."""

import ast
import subprocess
import sys
from pathlib import Path

import konane
from konane import _konane

STUB = Path(konane.__file__).with_name("_konane.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef) and not any(
            getattr(base, "id", "") == "TypedDict" for base in node.bases
        ):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            names[node.name] = members
    return names


def public(members):
    return {m for m in members if not m.startswith("_")}


def test_stubs_and_module_name_the_same_things():
    stubs = stub_names()
    native = {name for name in dir(_konane) if not name.startswith("_")}
    assert set(stubs) == native
    for name, members in stubs.items():
        if members:
            actual = public(dir(getattr(_konane, name)))
            assert public(members) == actual, name


def test_every_public_name_has_a_docstring():
    for name in konane.__all__:
        item = getattr(konane, name)
        assert item.__doc__ and item.__doc__.strip(), name


def run_mypy(*arguments):
    """Runs a mypy tool on the package from its folder; its output on failure."""
    done = subprocess.run(
        [sys.executable, "-m", *arguments],
        cwd=STUB.parents[1],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubtest_finds_the_stubs_and_the_module_alike():
    # Disjoint bases (PEP 800) are too new for the stubs' readers; everything else is checked:
    # names, signatures, positional-only parameters, final classes.
    run_mypy("mypy.stubtest", "--ignore-disjoint-bases", "konane._konane")


def test_the_package_and_its_examples_pass_mypy_strict():
    run_mypy("mypy", "--strict", "konane", "examples")
