"""Layers point one way: the rules import no Flask/OpenCV/onnxruntime; vision imports no Flask."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "companion/rules": {"flask", "cv2", "onnxruntime", "numpy", "companion.web", "companion.store", "vision",
                        "sqlite3", "sqlite_utils", "waitress"},
    "vision": {"flask", "companion.web", "companion.store", "waitress", "sqlite3", "sqlite_utils"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_point_one_way(package):
    files = sorted((ROOT / package).rglob("*.py"))
    if package == "companion/rules":
        assert files, "the rules engine must exist"
    offences = []
    for path in files:
        for module in imported_modules(path):
            for forbidden in FORBIDDEN[package]:
                if module == forbidden or module.startswith(forbidden + "."):
                    offences.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not offences, "\n".join(offences)
