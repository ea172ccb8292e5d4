"""The type stubs describe the native module as it is: every class, method and function on
one side is on the other."""

import ast
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
