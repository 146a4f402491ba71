"""What both training scripts share: the two networks, checkpoints, threads and seeds, the synthetic pool."""

from __future__ import annotations

import csv
import math
import random
import time
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from vision.postprocess import COLOURS, KINDS  # noqa: E402

CACHE = ROOT / "scripts" / "cache"
SYNTHETIC_DIR = CACHE / "synthetic"
RACKS_DIR = CACHE / "racks"
MODELS = ROOT / "models"


def setup(seed: int, threads: int) -> None:
    """Fixed seeds and a fixed thread count (the machine has two cores shared by everyone)."""
    torch.set_num_threads(threads)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _conv(c_in: int, c_out: int, stride: int = 1, kernel: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, kernel, stride, kernel // 2, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


def _separable(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_in, 3, stride, dilation, dilation=dilation, groups=c_in, bias=False), nn.BatchNorm2d(c_in),
        nn.ReLU(inplace=True), nn.Conv2d(c_in, c_out, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """A tiny centre-heatmap detector (stride 4): outputs heatmap (sigmoid), log box size in cells, centre offset."""

    def __init__(self) -> None:
        super().__init__()
        self.stage4 = nn.Sequential(_conv(3, 16, 2), _conv(16, 24, 2))
        self.stage8 = nn.Sequential(_conv(24, 48, 2), _separable(48, 48))
        self.stage16 = nn.Sequential(_separable(48, 64, 2), _separable(64, 64, dilation=2))
        self.stage32 = nn.Sequential(_separable(64, 96, 2), _separable(96, 96, dilation=2), _separable(96, 96, dilation=3))
        self.lat16, self.lat8, self.lat4 = nn.Conv2d(64, 32, 1), nn.Conv2d(48, 32, 1), nn.Conv2d(24, 32, 1)
        self.top = nn.Conv2d(96, 32, 1)
        self.head = nn.Sequential(_conv(32, 32), nn.Conv2d(32, 5, 1))
        self.head[-1].bias.data[0] = -2.2

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        up = nn.functional.interpolate
        f4 = self.stage4(x)
        f8 = self.stage8(f4)
        f16 = self.stage16(f8)
        f32 = self.stage32(f16)
        p = self.top(f32)
        p = up(p, scale_factor=2.0, mode="nearest") + self.lat16(f16)
        p = up(p, scale_factor=2.0, mode="nearest") + self.lat8(f8)
        p = up(p, scale_factor=2.0, mode="nearest") + self.lat4(f4)
        out = self.head(p)
        return torch.sigmoid(out[:, :1]), out[:, 1:3], out[:, 3:5]


class Classifier(nn.Module):
    """Tile crop (3×48×48) → kind logits (1-13, F, J, none), colour logits (R, Y, B, K), upside-down logit.

    ``wide`` is the eleventh round's network (issue 10): twice the channels and a second convolution at
    12×12, about 2.7 times the arithmetic; the narrow one is what rounds one to ten shipped.
    """

    def __init__(self, wide: bool = False) -> None:
        super().__init__()
        if wide:
            layers = [_conv(3, 32, 2, kernel=5), _conv(32, 64), nn.MaxPool2d(2), _conv(64, 128), _conv(128, 128),
                      nn.MaxPool2d(2), _conv(128, 192)]
            last, hidden = 192, 192
        else:
            layers = [_conv(3, 32, 2, kernel=5), _conv(32, 48), nn.MaxPool2d(2), _conv(48, 96), nn.MaxPool2d(2), _conv(96, 128)]
            last, hidden = 128, 160
        self.features = nn.Sequential(
            *layers, nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * last, hidden), nn.ReLU(inplace=True))
        self.kind = nn.Linear(hidden, len(KINDS))
        self.colour = nn.Linear(hidden, len(COLOURS))
        self.upside = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.features(x)
        return self.kind(f), self.colour(f), self.upside(f)

    @staticmethod
    def is_wide(path: Path) -> bool | None:
        """Whether the checkpoint at ``path`` holds the wide network (its weights have the wide network's names
        and shapes); None when there is no checkpoint."""
        if not path.exists():
            return None
        saved, wide = torch.load(path, map_location="cpu")["model"], Classifier(wide=True).state_dict()
        return saved.keys() == wide.keys() and all(saved[name].shape == wide[name].shape for name in wide)


def save_checkpoint(path: Path, model: nn.Module, optimiser: torch.optim.Optimizer, step: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(), "step": step,
                "torch_rng": torch.get_rng_state()}, tmp)
    tmp.replace(path)


def load_checkpoint(path: Path, model: nn.Module, optimiser: torch.optim.Optimizer | None = None) -> int:
    """Restore a checkpoint if there is one; returns the step to continue from (0 for a fresh start)."""
    if not path.exists():
        return 0
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    if optimiser is not None:
        optimiser.load_state_dict(state["optimiser"])
        torch.set_rng_state(state["torch_rng"])  # dropout continues where it stopped
    return int(state["step"])


def synthetic_scenes(directory: Path = SYNTHETIC_DIR) -> list[tuple[Path, list[tuple[str, tuple[float, ...], bool]]]]:
    """The rendered pool (``scripts/render_tiles.py --out scripts/cache/synthetic``) as (image, tiles) pairs."""
    tiles: dict[str, list[tuple[str, tuple[float, ...], bool]]] = defaultdict(list)
    names: list[str] = []
    with open(directory / "labels.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["image"] not in tiles:
                names.append(row["image"])
            tiles[row["image"]].append((row["tile"], tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2")), row["upside_down"] == "1"))
    return [(directory / name, tiles[name]) for name in names if (directory / name).exists()]


def racks_3d_scenes(directory: Path) -> list[tuple[Path, list[tuple[str, tuple[float, ...], bool]]]]:
    """A folder of racks rendered in 3-D (``scripts/render_racks_3d.py``) as (image, tiles) pairs, each tile boxed
    by its seen face; a folder never rendered, or whose labels name no photo that is there, is refused (training
    without it would be silent)."""
    if not (directory / "labels.csv").exists():
        raise SystemExit(f"{directory} holds no labels.csv: render it first with scripts/render_racks_3d.py --out {directory}")
    scenes = synthetic_scenes(directory)
    if not any(tiles for _, tiles in scenes):
        raise SystemExit(f"{directory}: its labels.csv names no photo that is there: render the photos first "
                         f"with scripts/render_racks_3d.py --out {directory}")
    return scenes


def train(
    model: nn.Module,
    *,
    batch: Callable[[random.Random], tuple[torch.Tensor, ...]],
    loss_of: Callable[..., torch.Tensor],
    steps: int,
    seed: int,
    peak_lr: float,
    checkpoint: Path,
    log_every: int,
    save_every: int,
    frozen_norms: bool = False,
) -> None:
    """AdamW with a 100-step warm-up and a cosine decay; resumes from ``checkpoint``.

    ``frozen_norms`` keeps the batch norms' statistics (fine-tuning from the shipped ONNX weights,
    see :func:`init_from_onnx`).

    Step ``n`` draws its batch from ``random.Random(seed × 1000003 + n)``, so a resumed run continues
    the same sequence.
    """
    started = time.time()
    optimiser = torch.optim.AdamW(model.parameters(), lr=peak_lr, weight_decay=1e-4)
    step = load_checkpoint(checkpoint, model, optimiser)
    model.train()
    if frozen_norms:
        freeze_norms(model)
    running = 0.0
    while step < steps:
        for group in optimiser.param_groups:
            group["lr"] = peak_lr * min(1.0, (step + 1) / 100) * max(0.02, 0.5 * (1 + math.cos(math.pi * step / steps)))
        loss = loss_of(model, *batch(random.Random(seed * 1_000_003 + step)))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
        if step % log_every == 0:
            print(f"step {step}/{steps} loss {running:.3f} {time.time() - started:.0f}s", flush=True)
        if step % save_every == 0 or step == steps:
            save_checkpoint(checkpoint, model, optimiser, step)
    print("done", flush=True)


def init_from_onnx(model: nn.Module, path: Path, example: torch.Tensor) -> None:
    """Start from the shipped ONNX weights (``models/*.onnx``): fine-tuning needs no torch checkpoint.

    The exporter folds each batch norm into the convolution before it, so every folded convolution's
    weight goes to the torch convolution and its bias to the batch norm's shift, with the norm set to
    the identity (mean 0, variance 1 − eps, scale 1).  Convolutions are matched in the order the
    forward pass calls them, which is the order of the graph's Conv nodes; shapes are checked.
    Train such a model with :func:`freeze_norms` so the norms stay the identity they were set to.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    called: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda mod, _i, _o: called.append(mod)) for m in model.modules() if isinstance(m, nn.Conv2d)]
    model.eval()
    with torch.no_grad():
        model(example)
    for hook in hooks:
        hook.remove()
    if len(called) != len(convs):
        raise SystemExit(f"{path.name}: {len(convs)} convolutions in the graph, {len(called)} in the model")
    norm_after = {}
    modules = list(model.modules())
    for i, module in enumerate(modules[:-1]):
        if isinstance(module, nn.Conv2d) and isinstance(modules[i + 1], nn.BatchNorm2d):
            norm_after[id(module)] = modules[i + 1]
    with torch.no_grad():
        for module, node in zip(called, convs):
            weight = torch.from_numpy(weights[node.input[1]].copy())
            if tuple(weight.shape) != tuple(module.weight.shape):
                raise SystemExit(f"{path.name}: {node.input[1]} is {tuple(weight.shape)}, expected {tuple(module.weight.shape)}")
            module.weight.copy_(weight)
            bias = torch.from_numpy(weights[node.input[2]].copy()) if len(node.input) > 2 else torch.zeros(weight.shape[0])
            if module.bias is not None:
                module.bias.copy_(bias)
            else:
                norm = norm_after[id(module)]
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
        for name, parameter in model.named_parameters():
            for key in (name, f"model.{name}"):
                if key in weights and weights[key].shape == tuple(parameter.shape) and parameter.dim() < 4:
                    parameter.copy_(torch.from_numpy(weights[key].copy()))


def freeze_norms(model: nn.Module) -> None:
    """Batch norms keep their running statistics (fine-tuning from folded ONNX weights); call after ``model.train()``."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
