"""Build ``models/numerals.onnx`` (the number reader) from PP-OCRv4's text recogniser, unchanged in what it computes.

The source is ``ch_PP-OCRv4_rec_infer.onnx`` inside the ``rapidocr-onnxruntime`` wheel (Apache-2.0;
PaddleOCR's PP-OCRv4 mobile recogniser converted to ONNX by RapidOCR)::

    pip download rapidocr-onnxruntime==1.4.4 --no-deps -d /tmp/rapid
    python scripts/export_numerals.py /tmp/rapid/rapidocr_onnxruntime-1.4.4-py3-none-any.whl

The conversion left each "learnable affine" (a scalar scale and shift) and each hard-swish as chains
of element-wise nodes, which cost this CPU nearly half the run time.  This script rewrites them
exactly: a scale and shift right after a convolution go into its weights and bias; a scale and shift
right before a 1×1 convolution without padding go into that convolution; ``x·clip(x + 3, 0, 6)/6``
becomes one ``HardSwish`` node (opset 14).  It then checks that the rewritten model's outputs match
the original's on random inputs, prints both models' times and the sha256.  Needs the ``onnx``
package (the train extra), not at run time.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import zipfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper, version_converter

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"


def _scalar(value: np.ndarray | None) -> float | None:
    return float(value.reshape(-1)[0]) if value is not None and value.size == 1 else None


class Graph:
    """The model's nodes with constants as arrays, and who consumes each tensor."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self.model = model
        graph = model.graph
        self.constants: dict[str, np.ndarray] = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
        nodes = []
        for node in graph.node:
            if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
                self.constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
            else:
                nodes.append(node)
        self.nodes = nodes
        self.outputs = {o.name for o in graph.output}

    def consumers(self) -> dict[str, list[onnx.NodeProto]]:
        users: dict[str, list[onnx.NodeProto]] = defaultdict(list)
        for node in self.nodes:
            for name in node.input:
                users[name].append(node)
        return users

    def other_constant(self, node: onnx.NodeProto, tensor: str) -> float | None:
        """The scalar constant ``node`` combines ``tensor`` with (Mul/Add/Div with two inputs), else None."""
        if len(node.input) != 2 or tensor not in node.input:
            return None
        other = node.input[1] if node.input[0] == tensor else node.input[0]
        if node.op_type == "Div" and node.input[0] != tensor:
            return None
        return _scalar(self.constants.get(other))

    def single_user(self, tensor: str, users: dict[str, list[onnx.NodeProto]], op: str) -> onnx.NodeProto | None:
        found = users.get(tensor, [])
        if len(found) == 1 and found[0].op_type == op and tensor not in self.outputs:
            return found[0]
        return None

    def conv_weights(self, conv: onnx.NodeProto) -> tuple[np.ndarray, np.ndarray]:
        weight = self.constants[conv.input[1]].astype(np.float32)
        bias = self.constants[conv.input[2]].astype(np.float32) if len(conv.input) > 2 else np.zeros(weight.shape[0], np.float32)
        return weight, bias

    def save(self, path: Path) -> None:
        graph = self.model.graph
        used = {name for node in self.nodes for name in node.input}
        del graph.node[:]
        graph.node.extend(self.nodes)
        del graph.initializer[:]
        graph.initializer.extend(numpy_helper.from_array(np.asarray(v), k) for k, v in self.constants.items() if k in used)
        onnx.checker.check_model(self.model)
        onnx.save(self.model, str(path))


def fold_affine_into_conv(graph: Graph) -> int:
    """Conv → Mul(a) → Add(b) becomes one Conv with weights a·W and bias a·bias + b."""
    count = 0
    users = graph.consumers()
    for conv in [n for n in graph.nodes if n.op_type == "Conv"]:
        mul = graph.single_user(conv.output[0], users, "Mul")
        if mul is None or (a := graph.other_constant(mul, conv.output[0])) is None:
            continue
        add = graph.single_user(mul.output[0], users, "Add")
        if add is None or (b := graph.other_constant(add, mul.output[0])) is None:
            continue
        weight, bias = graph.conv_weights(conv)
        _replace_conv_inputs(graph, conv, conv.input[0], weight * a, bias * a + b)
        conv.output[0] = add.output[0]
        graph.nodes = [n for n in graph.nodes if n is not mul and n is not add]
        users = graph.consumers()
        count += 1
    return count


def fold_affine_before_pointwise(graph: Graph) -> int:
    """Mul(c) → Add(d) → a 1×1 Conv without padding becomes that Conv with weights c·W and bias
    bias + d·ΣW (exact: a 1×1 convolution never sees padding)."""
    count = 0
    users = graph.consumers()
    for mul in [n for n in graph.nodes if n.op_type == "Mul"]:
        source = next((i for i in mul.input if i not in graph.constants), None)
        if source is None or (c := graph.other_constant(mul, source)) is None:
            continue
        add = graph.single_user(mul.output[0], users, "Add")
        if add is None or (d := graph.other_constant(add, mul.output[0])) is None:
            continue
        conv = graph.single_user(add.output[0], users, "Conv")
        if conv is None or not _pointwise(conv):
            continue
        weight, bias = graph.conv_weights(conv)
        _replace_conv_inputs(graph, conv, source, weight * c, bias + d * weight.sum(axis=(1, 2, 3)))
        graph.nodes = [n for n in graph.nodes if n is not mul and n is not add]
        users = graph.consumers()
        count += 1
    return count


def fuse_hardswish(graph: Graph) -> int:
    """Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(6) becomes HardSwish(x)."""
    count = 0
    users = graph.consumers()
    for add in [n for n in graph.nodes if n.op_type == "Add"]:
        source = next((i for i in add.input if i not in graph.constants), None)
        if source is None or graph.other_constant(add, source) != 3.0:
            continue
        clip = graph.single_user(add.output[0], users, "Clip")
        if clip is None or [_scalar(graph.constants.get(i)) for i in clip.input[1:]] != [0.0, 6.0]:
            continue
        mul = graph.single_user(clip.output[0], users, "Mul")
        if mul is None or set(mul.input) != {source, clip.output[0]}:
            continue
        div = graph.single_user(mul.output[0], users, "Div")
        if div is None or graph.other_constant(div, mul.output[0]) != 6.0:
            continue
        swish = helper.make_node("HardSwish", [source], [div.output[0]], name=div.output[0] + "_hardswish")
        position = graph.nodes.index(add)
        graph.nodes = [n for n in graph.nodes if n not in (add, clip, mul, div)]
        graph.nodes.insert(position, swish)
        users = graph.consumers()
        count += 1
    return count


def _pointwise(conv: onnx.NodeProto) -> bool:
    attributes = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    return list(attributes.get("kernel_shape", [])) == [1, 1] and not any(attributes.get("pads", [0])) and attributes.get("group", 1) == 1


def _replace_conv_inputs(graph: Graph, conv: onnx.NodeProto, data: str, weight: np.ndarray, bias: np.ndarray) -> None:
    name = conv.output[0]
    graph.constants[name + "_folded_w"] = weight.astype(np.float32)
    graph.constants[name + "_folded_b"] = bias.astype(np.float32)
    del conv.input[:]
    conv.input.extend([data, name + "_folded_w", name + "_folded_b"])


def _time(path: Path, batch: np.ndarray) -> float:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    session.run(None, {"x": batch})
    started = time.process_time()
    for _ in range(3):
        session.run(None, {"x": batch})
    return (time.process_time() - started) / 3 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path, help="rapidocr_onnxruntime-1.4.4-py3-none-any.whl (or the .onnx itself)")
    parser.add_argument("--out", type=Path, default=ROOT / "models" / "numerals.onnx")
    args = parser.parse_args()
    source = args.out.with_suffix(".source.onnx")
    if args.wheel.suffix == ".whl":
        with zipfile.ZipFile(args.wheel) as wheel:
            source.write_bytes(wheel.read(SOURCE))
    else:
        source.write_bytes(args.wheel.read_bytes())
    model = version_converter.convert_version(onnx.load(str(source)), 14)
    graph = Graph(model)
    print(f"affine into conv: {fold_affine_into_conv(graph)}, hard-swish fused: {fuse_hardswish(graph)}, "
          f"affine into 1x1 conv: {fold_affine_before_pointwise(graph)}")
    graph.save(args.out)
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    batch = rng.uniform(-1, 1, (8, 3, 48, 48)).astype(np.float32)
    original = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"]).run(None, {"x": batch})[0]
    rewritten = ort.InferenceSession(str(args.out), providers=["CPUExecutionProvider"]).run(None, {"x": batch})[0]
    difference = float(np.abs(original - rewritten).max())
    print(f"largest difference in the output probabilities: {difference:.2e}")
    if difference > 1e-4:
        sys.exit("the rewritten model does not compute what the original does")
    print(f"CPU time of 8 crops 48x48, 1 thread: original {_time(source, batch):.0f} ms, rewritten {_time(args.out, batch):.0f} ms")
    source.unlink()
    print(f"{args.out}: {args.out.stat().st_size:,} bytes, sha256 {hashlib.sha256(args.out.read_bytes()).hexdigest()}")


if __name__ == "__main__":
    main()
