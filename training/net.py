"""The scanner's networks, over one patch per ink mark (bot.scanner.patches). The first (``Net``) has two heads:
the turn the card is read at (16 steps of 22.5 degrees), which the scanner uses, and which card it is, which
helps it learn; the second (``Reader``) reads which of the 32 cards, or "not an index" (33 classes), from the patch
turned upright by that turn. Fitted with PyTorch on the CPU; exported to ONNX with the softmaxes inside, so the
scanner reads probabilities with onnxruntime alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch
from torch import nn

from bot.scanner.frames import FRAME_HIGH, FRAME_WIDE
from bot.scanner.patches import ANGLES, PATCH, READ_HIGH, READ_WIDE, read_cut, stacked, tensor

CLASSES = 33  # the 32 cards, then "not an index"
OPSET = 17  # read by onnxruntime 1.17 and later (pyproject's floor)


def conv(cin: int, cout: int) -> list[nn.Module]:
    """A 3 x 3 convolution, normalised, then ReLU."""
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]


def upright_body(width: int, high: int, wide: int, hidden: int) -> list[nn.Module]:
    """The reader's and the index network's layers up to their heads, over a high x wide patch: three convolutions of
    ``width``, twice and four times as many channels, each halving the patch, then a dense layer of ``hidden``."""
    pool = nn.MaxPool2d(2)
    w = width
    return [
        *conv(2, w), pool, *conv(w, 2 * w), pool, *conv(2 * w, 4 * w), pool,  # 64 x 48 -> 8 x 6
        nn.Flatten(), nn.Linear(4 * w * (high // 8) * (wide // 8), hidden), nn.ReLU(), nn.Dropout(0.2),
    ]  # fmt: skip


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        pool = nn.MaxPool2d(2)
        self.body = nn.Sequential(
            *conv(2, 16), pool, *conv(16, 32), *conv(32, 32), pool, *conv(32, 64), *conv(64, 64), pool,  # 32 -> 4
            nn.Flatten(), nn.Linear(64 * (PATCH // 8) ** 2, 128), nn.ReLU(), nn.Dropout(0.2),
        )
        self.card = nn.Linear(128, CLASSES)
        self.turn = nn.Linear(128, ANGLES)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.card(h), self.turn(h)


class Exported(nn.Module):
    """What ships: probabilities, the card's logits divided by the temperature fitted on held-back patches; the second
    head's as probabilities too (the turn), or as it is (``as_is``: the index network's correction)."""

    def __init__(self, net: nn.Module, temperature: float, as_is: bool = False) -> None:
        super().__init__()
        self.net = net
        self.temperature = temperature
        self.as_is = as_is

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        card, other = self.net(x)
        return torch.softmax(card / self.temperature, dim=1), other if self.as_is else torch.softmax(other, dim=1)


def seeded_split(seed: int, threads: int, patches: int) -> tuple[np.random.Generator, np.ndarray, np.ndarray]:
    """Seed the run and split the patches: a twentieth held back (accuracy, temperature), the rest to fit on. Both
    networks split the same way, so neither is judged on patches it was fitted on."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    order = rng.permutation(patches)
    return rng, order[: patches // 20], order[patches // 20 :]


def fit(
    x: np.ndarray, card: np.ndarray, turn: np.ndarray, epochs: int, seed: int, threads: int, out: Path
) -> Exported:
    """Fit on all but a twentieth of the patches; that twentieth reports accuracy and fits the temperature. The
    learning rate falls by a fixed factor each epoch, whatever the number of epochs, and the model is written after
    every epoch: a run stopped after N epochs leaves the same model as a run of N epochs."""
    rng, held, train = seeded_split(seed, threads, len(card))
    net = Net()
    optimiser = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    warm = 200  # steps of rising rate before the first fall
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda step: min(1.0, (step + 1) / warm) * 0.75 ** (step // max(1, len(train) // 256))
    )
    card_t = torch.from_numpy(card)
    step = 0
    temperature = 1.0
    for epoch in range(epochs):
        start = time.time()
        total = 0.0
        for rows in batches(net, train, rng):
            xb, yt = quarter_turns(x[rows], turn[rows], rng)
            card_logits, turn_logits = net(torch.from_numpy(tensor(xb)))
            yc, yt = card_t[rows], torch.from_numpy(yt)
            loss = nn.functional.cross_entropy(card_logits, yc)
            has_turn = yt >= 0
            if has_turn.any():
                loss = loss + 0.5 * nn.functional.cross_entropy(turn_logits[has_turn], yt[has_turn])
            step += 1
            total += learn(loss, optimiser, schedule)
        card_acc, turn_acc, held_logits = evaluate(net, x[held], card[held], turn[held])
        temperature = fit_temperature(held_logits, card[held])
        export(Exported(net, temperature), out)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / max(1, len(train) // 256):.4f}, held-back card "
              f"{card_acc:.4f}, turn {turn_acc:.4f}, temperature {temperature:.3f} ({time.time() - start:.0f} s)",
              flush=True)
    return Exported(net, temperature)


def batches(net: nn.Module, train: np.ndarray, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """One epoch: the network set to learn, the patches shuffled, and their rows 256 at a time (in order within each
    batch, for reading the patches faster), the last partial batch left out."""
    net.train()
    rng.shuffle(train)
    for b in range(len(train) // 256):
        yield np.sort(train[b * 256 : (b + 1) * 256])


def learn(
    loss: torch.Tensor, optimiser: torch.optim.Optimizer, schedule: torch.optim.lr_scheduler.LRScheduler
) -> float:
    """One step down the loss's gradient, the rate moved on; the loss's value."""
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    schedule.step()
    return float(loss.detach())


def quarter_turns(x: np.ndarray, turn: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Each patch turned by a random number of quarter turns, its turn label with it: four times the turns of each
    card seen, at no cost in drawing (a quarter turn of a patch loses no pixel)."""
    quarters = rng.integers(0, 4, size=len(x))
    out = np.empty_like(x)
    turned = turn.copy()
    for k in range(4):
        at = quarters == k
        out[at] = np.rot90(x[at], k, axes=(2, 3))  # counter-clockwise: the card's top turns back by k quarters
        turned[at] = np.where(turn[at] >= 0, (turn[at] - k * ANGLES // 4) % ANGLES, turn[at])
    return out, turned


@torch.no_grad()
def logits(net: nn.Module, x: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """A two-headed network's outputs (the first network, the index network) for ``x``, read 1024 at a time."""
    net.eval()
    parts = [net(torch.from_numpy(tensor(x[i : i + 1024]))) for i in range(0, len(x), 1024)]
    return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])


def evaluate(net: Net, x: np.ndarray, card: np.ndarray, turn: np.ndarray) -> tuple[float, float, torch.Tensor]:
    c, t = logits(net, x)
    card_acc = float((c.argmax(1).numpy() == card).mean())
    has = turn >= 0
    turn_acc = float((t.argmax(1).numpy()[has] == turn[has]).mean()) if has.any() else 1.0
    return card_acc, turn_acc, c


def fit_temperature(c: torch.Tensor, card: np.ndarray) -> float:
    """The temperature that gives the held-back patches (their card logits ``c``) their likeliest probabilities (at
    least 1: a network fitted this long is rarely less sure than it should be)."""
    y = torch.from_numpy(card)
    grid = np.exp(np.linspace(0.0, np.log(4.0), 41))
    losses = [float(nn.functional.cross_entropy(c / float(t), y)) for t in grid]
    return float(grid[int(np.argmin(losses))])


def export(model: Exported, out: Path) -> None:
    model.eval()
    example = torch.zeros(1, 2, PATCH, PATCH)
    torch.onnx.export(
        model, (example,), str(out), input_names=["patches"], output_names=["card", "turn"],
        dynamic_axes={"patches": {0: "marks"}, "card": {0: "marks"}, "turn": {0: "marks"}},
        opset_version=OPSET, dynamo=False,
    )


class Upright(nn.Module):
    """The reader and the index network: each can go on learning from a written network (``read_back``), whose
    normalisations are folded into its convolutions and must not learn a batch's statistics again."""

    frozen_norms = False

    def train(self, mode: bool = True) -> Upright:
        super().train(mode)
        if self.frozen_norms:  # a batch's own statistics would undo the folded ones
            for m in self.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()
        return self


Resumed = TypeVar("Resumed", bound=Upright)


class Reader(Upright):
    """The second network: reads the card from a patch already turned upright by the first one's turn."""

    def __init__(self, width: int) -> None:
        # width: channels of the first layer, then twice and four times as many (training.train.READER_WIDTH)
        super().__init__()
        self.body = nn.Sequential(*upright_body(width, READ_HIGH, READ_WIDE, 128), nn.Linear(128, CLASSES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


class ExportedReader(nn.Module):
    def __init__(self, net: Reader, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.temperature = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x) / self.temperature, dim=1)


def turned_upright(wide: np.ndarray, span: float, turn: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The reader's patches (n, 2, READ_HIGH, READ_WIDE) from wide unturned ones (n, side, side, 2) ``span`` mark
    sizes wide (training.train.WIDE_SPAN): each cut as the scanner cuts it from the photo, upright at the card's turn
    (as the first network reads it: to the nearest 22.5 degrees, now and then a step off), a background patch at any
    turn."""
    degrees = turn * (360.0 / ANGLES) + rng.uniform(-12, 12, size=len(turn))
    off = rng.random(len(turn)) < 0.15
    degrees[off] += rng.choice([-22.5, 22.5], size=int(off.sum()))
    background = turn < 0
    degrees[background] = rng.uniform(0, 360, size=int(background.sum()))
    side = wide.shape[1]
    return stacked([read_cut(w, side / 2, side / 2, side / span, float(d)) for w, d in zip(wide, degrees, strict=True)])


def falling_rate(
    net: nn.Module, per_epoch: int, rate: float = 2e-3
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR]:
    """AdamW at a rate that rises over 200 steps to ``rate``, then falls by 0.6 each epoch (the reader and the index
    network)."""
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda step: min(1.0, (step + 1) / 200) * 0.6 ** (step // max(1, per_epoch))
    )
    return optimiser, schedule


def fit_reader(x: np.ndarray, span: float, card: np.ndarray, turn: np.ndarray, epochs: int, seed: int,
               threads: int, out: Path, width: int, start: Path | None = None, rate: float = 2e-3) -> None:  # fmt: skip
    """Fit the reader on wide patches ``x`` (``span`` mark sizes wide, see ``turned_upright``) as ``fit`` fits the
    first network (a held-back twentieth, a falling rate, the model written after every epoch); with ``start``, going
    on from the reader written there (``read_back``), at ``rate``."""
    rng, held, train = seeded_split(seed, threads, len(card))
    held_x = turned_upright(x[held], span, turn[held], np.random.default_rng(seed + 1))
    net = read_back(Reader(width), start) if start else Reader(width)
    per_epoch = len(train) // 256
    optimiser, schedule = falling_rate(net, per_epoch, rate)
    card_t = torch.from_numpy(card)

    @torch.no_grad()
    def held_logits() -> torch.Tensor:
        net.eval()
        return torch.cat([net(torch.from_numpy(tensor(held_x[i : i + 1024]))) for i in range(0, len(held), 1024)])

    if start:
        c = held_logits()
        print(f"from {start.name}: held-back {float((c.argmax(1).numpy() == card[held]).mean()):.4f}", flush=True)
    for epoch in range(epochs):
        began = time.time()
        total = 0.0
        for rows in batches(net, train, rng):
            xb = torch.from_numpy(tensor(turned_upright(x[rows], span, turn[rows], rng)))
            loss = nn.functional.cross_entropy(net(xb), card_t[rows])
            total += learn(loss, optimiser, schedule)
        c = held_logits()
        accuracy = float((c.argmax(1).numpy() == card[held]).mean())
        on_cards = card[held] < CLASSES - 1
        card_accuracy = float((c.argmax(1).numpy()[on_cards] == card[held][on_cards]).mean())
        temperature = fit_temperature(c, card[held])
        torch.onnx.export(
            ExportedReader(net, temperature).eval(), (torch.zeros(1, 2, READ_HIGH, READ_WIDE),), str(out),
            input_names=["patches"], output_names=["card"], opset_version=OPSET, dynamo=False,
            dynamic_axes={"patches": {0: "marks"}, "card": {0: "marks"}},
        )
        print(f"reader epoch {epoch + 1}/{epochs}: loss {total / max(1, per_epoch):.4f}, held-back {accuracy:.4f} "
              f"(index marks {card_accuracy:.4f}), temperature {temperature:.3f} ({time.time() - began:.0f} s)",
              flush=True)


class IndexNet(Upright):
    """The index network: from a patch cut in a guessed frame of a corner index (bot.scanner.frames), which card it
    is (or "not a card index") and the correction that takes the cut frame to the index's own."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.body = nn.Sequential(*upright_body(width, FRAME_HIGH, FRAME_WIDE, 160))
        self.card = nn.Linear(160, CLASSES)
        self.frame = nn.Linear(160, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.card(h), self.frame(h)


def read_back(net: Resumed, model: Path) -> Resumed:
    """``net`` holding the weights of the network of its shape written at ``model``, to go on learning from: each
    convolution as exported (its normalisation folded into its weights and a bias, which the normalisation's shift now
    carries, its statistics set to change nothing and kept so), each dense layer's weights as they are or read back
    from 8 bits (``shrink``)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model)).graph
    weights = {i.name: numpy_helper.to_array(i).astype(np.float32) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    assert len(convs) == len(layers) == len(norms), f"{model} is not a network of this shape"
    if any(node.input[1] not in weights for node in convs):
        raise ValueError(f"{model} computes its convolutions in 8 bits (the scanner's copy): carry on from the network "
                         "as fitted, in training/networks/")  # fmt: skip
    with torch.no_grad():
        for node, conv_layer, norm in zip(convs, layers, norms, strict=True):
            conv_layer.weight.copy_(torch.from_numpy(weights[node.input[1]]))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(weights[node.input[2]]))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for name, layer in net.named_modules():
            if not isinstance(layer, nn.Linear):
                continue
            name = f"net.{name}"  # as exported, inside Exported or ExportedReader
            if f"{name}.weight" in weights:
                layer.weight.copy_(torch.from_numpy(weights[f"{name}.weight"]))
            else:  # stored in 8 bits, transposed
                q = f"{name}.weight_Transposed"
                real = (weights[f"{q}_quantized"] - weights[f"{q}_zero_point"]) * weights[f"{q}_scale"]
                layer.weight.copy_(torch.from_numpy(real.T.copy()))
            layer.bias.copy_(torch.from_numpy(weights[f"{name}.bias"]))
    net.frozen_norms = True
    return net


def first_width(model: Path) -> int:
    """The channels of the first convolution of the network written at ``model``."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model)).graph
    weights = {i.name: i for i in graph.initializer}
    first = next(n for n in graph.node if n.op_type == "Conv")
    return int(numpy_helper.to_array(weights[first.input[1]]).shape[0])


def narrowed(model: Path, width: int) -> IndexNet:
    """An index network of ``width`` that starts from the wider one written at ``model``: of each convolution, the
    output channels the next layer leans on most (the largest sum of its weights' magnitudes over them) are kept, with
    their weights over the channels kept of the layer before; the dense layer keeps its inputs of the channels kept. So
    cut, it reads worse than the wide one at first, and is fitted on from there (``fit_index``, best with the wide
    one as its teacher) rather than from nothing."""
    wide = read_back(IndexNet(first_width(model)), model)
    net = IndexNet(width)
    convs = [m for m in wide.body if isinstance(m, nn.Conv2d)]
    norms = [m for m in wide.body if isinstance(m, nn.BatchNorm2d)]
    dense = next(m for m in wide.body if isinstance(m, nn.Linear))
    cells = (FRAME_HIGH // 8) * (FRAME_WIDE // 8)  # the dense layer's inputs of each channel of the last convolution
    uses = [c.weight.abs().sum(dim=(0, 2, 3)) for c in convs[1:]]
    uses.append(dense.weight.abs().reshape(dense.out_features, -1, cells).sum(dim=(0, 2)))
    kept = torch.arange(convs[0].in_channels)
    with torch.no_grad():
        narrow_convs = [m for m in net.body if isinstance(m, nn.Conv2d)]
        narrow_norms = [m for m in net.body if isinstance(m, nn.BatchNorm2d)]
        for conv_layer, norm, use, to, to_norm in zip(convs, norms, uses, narrow_convs, narrow_norms, strict=True):
            out = use.topk(to.out_channels).indices.sort().values
            to.weight.copy_(conv_layer.weight[out][:, kept])
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(to_norm, name).copy_(getattr(norm, name)[out])
            kept = out
        to_dense = next(m for m in net.body if isinstance(m, nn.Linear))
        by_channel = dense.weight.reshape(dense.out_features, -1, cells)
        to_dense.weight.copy_(by_channel[:, kept].reshape(dense.out_features, -1))
        to_dense.bias.copy_(dense.bias)
        for head in ("card", "frame"):
            getattr(net, head).load_state_dict(getattr(wide, head).state_dict())
    net.frozen_norms = True
    return net


def fit_index(x: np.ndarray, card: np.ndarray, fix: np.ndarray, epochs: int, seed: int, threads: int, out: Path,
              width: int, start: Path | None = None, rate: float = 2e-3,
              teacher: Path | None = None) -> None:  # fmt: skip
    """Fit the index network on its patches (training.frames): the card's cross-entropy, and for the patches on a
    card the correction's smooth L1 loss; held back, fitted and written after each epoch as ``fit_reader``. With
    ``start``, it goes on from the network written there (``read_back``; cut down to ``width`` if that one is wider:
    ``narrowed``), at ``rate``. With ``teacher`` (a network
    of the same outputs, in floats), the card's loss is half the truth's and half the teacher's readings': a narrower
    network learns what a wider one learnt over every stage of its fitting (``teacher_cards``)."""
    rng, held, train = seeded_split(seed, threads, len(card))
    if start and first_width(start) > width:
        net = narrowed(start, width)
    else:
        net = read_back(IndexNet(width), start) if start else IndexNet(width)
    taught = torch.from_numpy(teacher_cards(teacher, x)) if teacher else None
    per_epoch = len(train) // 256
    optimiser, schedule = falling_rate(net, per_epoch, rate)
    card_t, fix_t = torch.from_numpy(card), torch.from_numpy(fix)
    if start:
        c = logits(net, x[held])[0]
        on = card[held] < CLASSES - 1
        accuracy = float((c.argmax(1).numpy()[on] == card[held][on]).mean())
        print(f"from {start.name}: held-back index frames {accuracy:.4f}", flush=True)
    for epoch in range(epochs):
        began = time.time()
        total = 0.0
        for rows in batches(net, train, rng):
            logits_b, frame_b = net(torch.from_numpy(tensor(x[rows])))
            on = card_t[rows] < CLASSES - 1
            loss = nn.functional.cross_entropy(logits_b, card_t[rows])
            if taught is not None:
                loss = 0.5 * loss + 0.5 * nn.functional.cross_entropy(logits_b, taught[rows])
            if on.any():
                loss = loss + 2.0 * nn.functional.smooth_l1_loss(frame_b[on], fix_t[rows][on], beta=0.1)
            total += learn(loss, optimiser, schedule)
        c, correction = logits(net, x[held])
        f = correction.numpy()
        on = card[held] < CLASSES - 1
        accuracy = float((c.argmax(1).numpy()[on] == card[held][on]).mean())
        off = np.abs(f[on] - fix[held][on]).mean(axis=0)
        temperature = fit_temperature(c, card[held])
        torch.onnx.export(
            Exported(net, temperature, as_is=True).eval(), (torch.zeros(1, 2, FRAME_HIGH, FRAME_WIDE),), str(out),
            input_names=["patches"], output_names=["card", "frame"], opset_version=OPSET, dynamo=False,
            dynamic_axes={"patches": {0: "frames"}, "card": {0: "frames"}, "frame": {0: "frames"}},
        )
        print(f"index epoch {epoch + 1}/{epochs}: loss {total / max(1, per_epoch):.4f}, held-back index frames "
              f"{accuracy:.4f}, correction off by {off[0]:.3f} {off[1]:.3f} radii, {off[2]:.3f} log size, "
              f"{off[3] * 20:.1f} degrees, temperature {temperature:.3f} ({time.time() - began:.0f} s)", flush=True)


def teacher_cards(teacher: Path, x: np.ndarray) -> np.ndarray:
    """The ``teacher`` network's card probabilities for each patch of ``x``, read as the scanner reads them (its dense
    layers' 8-bit inputs are scaled over each batch of READ_BATCH, so the patches go in whole multiples of it)."""
    from bot.scanner.recognise import READ_BATCH, run

    step = 16 * READ_BATCH  # the patches made network inputs a step at a time: all at once would take gigabytes
    return np.concatenate([run(teacher, "card", tensor(x[i : i + step])) for i in range(0, len(x), step)])


def shrink(model: Path) -> None:
    """Store the weights of the network's dense layers in 8 bits (onnxruntime's dynamic quantisation, the convolutions
    left as they are): the index network goes from 3.1 MB to under 1 MB, so the three networks stay within the
    package's few megabytes. The weights are then stored unsigned (``training.quantize.unsigned_dense_weights``), so
    that every processor sums their products exactly."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from training.quantize import unsigned_dense_weights

    smaller = model.with_suffix(".int8.onnx")
    quantize_dynamic(model, smaller, op_types_to_quantize=["Gemm", "MatMul"], weight_type=QuantType.QInt8)
    unsigned_dense_weights(smaller)
    smaller.replace(model)
