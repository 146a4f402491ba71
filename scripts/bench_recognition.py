"""Time the tile recogniser per photo, at 1, 2 and 4 onnxruntime threads, and count the models' work.

The figures feed the Raspberry Pi estimate in docs/raspberry-pi.md: the multiply-accumulates (MACs) each
photo costs — the detector on the resized photo, the classifier on every crop times the quarter turns
it averages — and the time this machine takes, from which an achieved rate (GMAC/s) follows.

    python scripts/bench_recognition.py                 # the photos in tests/data/vision
    python scripts/bench_recognition.py --photos a.jpg b.jpg --runs 7
    python scripts/bench_recognition.py --phone --threads 2   # as a phone sends them: 12 MP JPEGs, whole upload timed
    python scripts/bench_recognition.py --threads 2 --no-second-look   # one classifier (serve --no-second-look)

MACs need the ``onnx`` package (``pip install onnx``; shape inference only); without it only times are shown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import Recognizer  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.recognizer import MODELS_DIR, SECOND_CLASSIFIER  # noqa: E402


def conv_macs(model_path: Path, shape: tuple[int, ...]) -> int | None:
    """Multiply-accumulates of one run of an ONNX model on an input of ``shape`` (Conv and Gemm nodes)."""
    try:
        import numpy as np
        import onnx
        from onnx import numpy_helper, shape_inference
    except ImportError:
        return None
    model = onnx.load(str(model_path))
    for dim, value in zip(model.graph.input[0].type.tensor_type.shape.dim, shape):
        dim.ClearField("dim_param")
        dim.dim_value = value
    model = shape_inference.infer_shapes(model)
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in [*model.graph.value_info, *model.graph.input, *model.graph.output]}
    weights = {i.name: numpy_helper.to_array(i).shape for i in model.graph.initializer}
    total = 0
    for node in model.graph.node:
        if node.op_type == "Conv":
            kernel = weights[node.input[1]]
            total += int(np.prod(shapes[node.output[0]])) * int(np.prod(kernel[1:]))
        elif node.op_type == "Gemm":
            total += int(np.prod(shapes[node.output[0]])) * int(weights[node.input[1]][1])
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, nargs="+",
                        default=sorted((ROOT / "tests" / "data" / "vision").glob("*.jpg")))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--phone", action="store_true",
                        help="time each photo as a phone sends it: enlarged to a 4032-px long side with a sensor's "
                             "noise, a JPEG of quality 92, read from its bytes at the working size and at full size")
    parser.add_argument("--farther", type=float, default=0.0, metavar="PAD",
                        help="with --phone: each photo taken from farther away first (eval_vision.py --farther: the "
                             "scene PAD times its size larger on each side; 2.0: the rack a fifth of the photo's width), "
                             "and also timed without the second reading of its tiles from the whole photo's pixels")
    parser.add_argument("--no-second-look", action="store_false", dest="second_look",
                        help="read with the first classifier alone, as 'okey-companion serve --no-second-look'")
    args = parser.parse_args()
    if args.farther < 0 or (args.farther and not args.phone):
        parser.error(f"--farther {args.farther}: give a share of 0 or more, with --phone")
    if args.phone:
        phone(args.photos, args.runs, args.threads, args.farther, args.second_look)
        return
    crop_macs = conv_macs(MODELS_DIR / "classifier.onnx", (1, 3, 48, 48))
    second_file = MODELS_DIR / SECOND_CLASSIFIER
    second = conv_macs(second_file, (1, 3, 48, 48)) if args.second_look and second_file.is_file() else 0
    if crop_macs is not None and second is not None:
        crop_macs += second  # the second classifier looks at every crop too
    for threads in args.threads:
        recognizer = Recognizer(threads=threads, second_look=args.second_look)
        rows = []
        for photo in args.photos:
            pixels = load_image(photo)
            recognizer.recognize(pixels)  # warm-up
            times = []
            for _ in range(args.runs):
                started = time.perf_counter()
                result = recognizer.recognize(pixels)
                times.append((time.perf_counter() - started) * 1000)
            height, width = pixels.shape[:2]
            scale = 512 / max(height, width)
            detector_shape = (1, 3, -(-round(height * scale) // 32) * 32, -(-round(width * scale) // 32) * 32)
            detector_macs = conv_macs(MODELS_DIR / "detector.onnx", detector_shape)
            macs = None if detector_macs is None or crop_macs is None else \
                detector_macs + crop_macs * recognizer.turns * len(result.tiles)
            rows.append((photo.name, len(result.tiles), statistics.median(times), macs))
        print(f"\n## onnxruntime threads = {threads}\n")
        print("| photo | tiles | median ms | GMACs (one detector pass) | GMAC/s |")
        print("|---|---:|---:|---:|---:|")
        for name, tiles, median, macs in rows:
            gmacs = f"{macs / 1e9:.2f}" if macs else "–"
            rate = f"{macs / median / 1e6:.1f}" if macs else "–"
            print(f"| {name} | {tiles} | {median:.0f} | {gmacs} | {rate} |")
    if crop_macs:
        which = "both, where there is a second" if args.second_look else "the first alone"
        print(f"\nclassifiers: {crop_macs / 1e6:.1f} M MACs a crop ({which}), "
              f"× {Recognizer().turns} quarter turns a tile")


def phone(photos: list[Path], runs: int, threads: list[int], farther: float = 0.0, second_look: bool = True) -> None:
    """Median time of a whole 12 MP upload (decoding included), read at the working size and at full size; with
    ``farther``, each photo first taken from farther away, and also read without the second reading of its
    tiles from the whole photo's pixels (``Recognizer(read_closer=False)``)."""
    import cv2
    import numpy as np

    from eval_vision import taken_farther

    uploads = []
    for photo in photos:
        pixels = load_image(photo)
        if farther:
            pixels = taken_farther(farther, None)(pixels)
        scale = 4032 / max(pixels.shape[:2])
        big = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC).astype(np.float32)
        big += np.random.default_rng(0).normal(0.0, 4.0, big.shape).astype(np.float32)
        uploads.append((photo.name, big.shape[1], big.shape[0],
                        cv2.imencode(".jpg", np.clip(big, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()))
    for count in threads:
        readers = {"working size": Recognizer(threads=count, second_look=second_look)}
        if farther:
            readers["without the closer read"] = Recognizer(threads=count, read_closer=False, second_look=second_look)
        readers["full size"] = Recognizer(threads=count, reduce=False, second_look=second_look)
        print(f"\n## onnxruntime threads = {count}, photos as a phone sends them\n")
        print("| photo | size | upload | " + " | ".join(f"{name} median ms" for name in readers) + " | same tiles |")
        print("|---|---|---:|" + "---:|" * len(readers) + "---|")
        medians: dict[str, list[float]] = {name: [] for name in readers}
        for name, width, height, data in uploads:
            cells, notations = [], []
            for label, reader in readers.items():
                notations.append(reader.recognize(data).notation)  # warm-up
                times = []
                for _ in range(runs):
                    started = time.perf_counter()
                    reader.recognize(data)
                    times.append((time.perf_counter() - started) * 1000)
                medians[label].append(statistics.median(times))
                cells.append(f"{medians[label][-1]:.0f}")
            same = "yes" if len(set(notations)) == 1 else "no"
            print(f"| {name} | {width}×{height} | {len(data) // 1024} KB | " + " | ".join(cells) + f" | {same} |")
        print("| median of the photos | | | " + " | ".join(f"{statistics.median(m):.0f}" for m in medians.values()) + " | |")


if __name__ == "__main__":
    from closed_pipe import end_quietly_on_a_closed_pipe

    end_quietly_on_a_closed_pipe()
    main()
