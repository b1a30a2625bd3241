"""A fresh machine needs Python and the README's commands: every dependency a wheel at
the version CI tested (constraints.txt), and no system package to build one."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt pins every line with ==: {line!r}"
            pins[canonicalize_name(name)] = version
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["dependencies"] + project["optional-dependencies"]["dev"]
    return [Requirement(line) for line in listed]


def _closure(requirements: list[Requirement]) -> set[str]:
    """Every distribution the project's requirements pull in, as installed here."""
    seen: set[str] = set()
    todo = [(r, frozenset(r.extras)) for r in requirements]
    while todo:
        requirement, extras = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        for line in metadata.requires(requirement.name) or []:
            sub = Requirement(line)
            if sub.marker and not any(sub.marker.evaluate({"extra": e}) for e in extras or {""}):
                continue
            todo.append((sub, frozenset(sub.extras)))
    return seen


def test_every_installed_dependency_is_pinned_at_the_version_installed():
    pins = _pins()
    for name in sorted(_closure(_requirements())):
        assert name in pins, f"{name} is installed but not pinned in constraints.txt"
        assert metadata.version(name) == pins[name], (
            f"{name} {metadata.version(name)} installed, constraints.txt pins {pins[name]}"
        )


def test_the_look_alike_check_needs_no_compiler():
    names = {canonicalize_name(r.name) for r in _requirements()}
    assert "pyicu" not in names, "PyICU builds from source; pyicu-wheels bundles ICU"
    assert "pyicu-wheels" in names


def test_no_install_step_asks_for_a_system_build_package():
    build_packages = re.compile(r"\b(libicu-dev|pkg-config|g\+\+|build-essential|gcc)\b")
    for path in ("README.md", ".ci/run", "docker/Dockerfile"):
        for number, line in enumerate((ROOT / path).read_text().splitlines(), 1):
            assert not build_packages.search(line), f"{path}:{number}: {line.strip()}"


def test_every_install_takes_the_constraints():
    assert '-c constraints.txt -e ".[dev]"' in (ROOT / "Makefile").read_text()
    assert "pip install -c constraints.txt ." in (ROOT / "docker/Dockerfile").read_text()
