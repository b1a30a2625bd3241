"""The rules engine in games/engine/ must not depend on Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIR = REPO_ROOT / "games" / "engine"


def _is_django(module: str | None) -> bool:
    return module is not None and (module == "django" or module.startswith("django."))


def _django_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(REPO_ROOT)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hits.extend(
                f"{rel}:{node.lineno}: import {alias.name}"
                for alias in node.names
                if _is_django(alias.name)
            )
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_django(node.module):
            hits.append(f"{rel}:{node.lineno}: from {node.module} import ...")
    return hits


def test_engine_source_has_no_django_imports() -> None:
    assert ENGINE_DIR.is_dir(), f"{ENGINE_DIR} does not exist"
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files, f"no .py files under {ENGINE_DIR}"

    hits = [hit for path in files for hit in _django_imports(path)]
    assert not hits, "games/engine/ must not import Django:\n" + "\n".join(hits)


def test_importing_engine_does_not_load_django() -> None:
    code = (
        "import games.engine, sys; "
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False", result.stdout + result.stderr
