"""Export the trained checkpoints to ``models/detector.onnx`` and ``models/classifier.onnx`` (and, with ``--second``,
``models/classifier_second.onnx``).

    .venv/bin/python scripts/export_onnx.py

The detector takes ``image`` (1×3×H×W, H and W multiples of 32) and returns ``heatmap``, ``size`` and
``offset`` at stride 4; the classifier takes ``crops`` (N×3×48×48) and returns ``kind``, ``colour`` and
``upside`` probabilities (softmax/sigmoid applied inside the graph).
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import torch

from train_common import CACHE, ROOT, Classifier, Detector, load_checkpoint


class _ClassifierProbabilities(torch.nn.Module):
    def __init__(self, model: Classifier) -> None:
        super().__init__()
        self.model = model

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        kind, colour, upside = self.model(crops)
        return torch.softmax(kind, 1), torch.softmax(colour, 1), torch.sigmoid(upside)


def export(model: torch.nn.Module, example: torch.Tensor, path: Path, inputs: list[str], outputs: list[str],
           dynamic: dict[str, dict[int, str]]) -> None:
    model.eval()
    torch.onnx.export(model, (example,), str(path), input_names=inputs, output_names=outputs, dynamic_axes=dynamic,
                      opset_version=17, dynamo=False)
    print(path.name, path.stat().st_size, "bytes", "sha256", hashlib.sha256(path.read_bytes()).hexdigest())


def main() -> None:
    parser = argparse.ArgumentParser(description="export the ONNX models")
    parser.add_argument("--out", type=Path, default=ROOT / "models")
    parser.add_argument("--detector", type=Path, default=CACHE / "detector.pt", help="detector checkpoint")
    parser.add_argument("--classifier", type=Path, default=CACHE / "classifier.pt", help="classifier checkpoint")
    parser.add_argument("--second", type=Path, default=None,
                        help="also export this classifier checkpoint as the second classifier (classifier_second.onnx, "
                             "vision.recognizer SECOND_CLASSIFIER): a tile is sure only where both classifiers are")
    parser.add_argument("--only", choices=("detector", "classifier"), help="export this model only")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "classifier":
        detector = Detector()
        if not load_checkpoint(args.detector, detector):
            raise SystemExit("no detector checkpoint: run scripts/train_detector.py first")
        export(detector, torch.zeros(1, 3, 384, 512), args.out / "detector.onnx", ["image"], ["heatmap", "size", "offset"],
               {"image": {2: "height", 3: "width"}, "heatmap": {2: "h4", 3: "w4"}, "size": {2: "h4", 3: "w4"},
                "offset": {2: "h4", 3: "w4"}})
    if args.only == "detector":
        return
    export_classifier(args.classifier, args.out / "classifier.onnx")
    if args.second is not None:
        export_classifier(args.second, args.out / "classifier_second.onnx")


def export_classifier(checkpoint: Path, path: Path) -> None:
    wide = Classifier.is_wide(checkpoint)  # the network is the checkpoint's own
    if wide is None:
        raise SystemExit(f"no classifier checkpoint at {checkpoint}: run scripts/train_classifier.py first")
    classifier = Classifier(wide=wide)
    load_checkpoint(checkpoint, classifier)
    export(_ClassifierProbabilities(classifier), torch.zeros(1, 3, 48, 48), path, ["crops"],
           ["kind", "colour", "upside"], {name: {0: "n"} for name in ("crops", "kind", "colour", "upside")})


if __name__ == "__main__":
    main()
