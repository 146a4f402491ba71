"""models/README.md, the model card: it names every shipped file with its size and sha256 as the files are, keeps
its sections, and leaves the round-by-round notebook to models/HISTORY.md."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_model_card_names_each_shipped_file_as_it_is() -> None:
    card = (ROOT / "models" / "README.md").read_text(encoding="utf-8")
    shipped = sorted(p for p in (ROOT / "models").iterdir() if p.suffix in (".onnx", ".json"))
    assert {p.name for p in shipped} == {"detector.onnx", "detector_table.onnx", "classifier.onnx", "classifier_second.onnx",
                                         "numerals.onnx", "ink_colour.json"}
    for path in shipped:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        named = re.search(rf"`{re.escape(path.name)}` \(([\d,]+) bytes, sha256 `([0-9a-f]{{64}})`", card)
        assert named is not None, f"models/README.md does not name {path.name} with its size and sha256"
        assert (int(named.group(1).replace(",", "")), named.group(2)) == (path.stat().st_size, digest), path.name
    assert (ROOT / "models" / "HISTORY.md").is_file() and "vision_figures.py" in card


@pytest.mark.parametrize("heading", ["## Figures", "## Training data and credit", "## Reproduce", "## Evaluation",
                                     "## Known limits"])
def test_the_model_card_keeps_its_sections(heading: str) -> None:
    card = (ROOT / "models" / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(heading)}", card, re.M), heading
