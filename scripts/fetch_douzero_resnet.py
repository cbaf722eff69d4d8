"""Fetch DouZero-ResNet's weights into qipai's cache (nothing of them goes into the repository).

The weights are the user's to fetch: PyPI's ``pymecli==0.2.4`` wheel (Apache-2.0) carries them at
``baselines/resnet/resnet_{landlord,landlord_up,landlord_down}.ckpt``.  This script

1. downloads the wheel with pip (``pip download pymecli==0.2.4 --no-deps``), or takes ``--wheel FILE``;
2. extracts the three checkpoints into the cache folder (``--dir``, default
   :func:`qipai.games.doudizhu.bots.resnet.default_weights_dir`, e.g. ``~/.cache/qipai/douzero_resnet``);
3. checks each with ``torch.load(..., weights_only=True)``: 3,536,129 parameters, the published layer shapes;
4. writes all three as NumPy arrays (``douzero_resnet.npz``) and checks qipai's NumPy network against a
   PyTorch forward pass of the same architecture on random inputs;
5. writes ``manifest.json`` (the wheel's and checkpoints' SHA-256, the parameter counts).

It needs ``torch`` (``pip install torch``); playing with the weights afterwards needs only NumPy::

    python scripts/fetch_douzero_resnet.py
    qipai arena douzero_resnet rlcard --research --deals 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

WHEEL = "pymecli==0.2.4"
MEMBERS = {p: f"baselines/resnet/resnet_{p}.ckpt" for p in ("landlord", "landlord_up", "landlord_down")}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download_wheel(folder: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", WHEEL, "--no-deps", "-d", str(folder)]
    print("running:", " ".join(cmd))
    subprocess.run(cmd, check=True)
    wheels = sorted(folder.glob("pymecli-*.whl"))
    if not wheels:
        raise SystemExit(f"pip did not leave a pymecli wheel in {folder}")
    return wheels[0]


def torch_forward(torch: Any, sd: dict[str, Any], z: Any, x: Any) -> Any:
    """The architecture in PyTorch's functional form, as an independent check of the NumPy network."""
    f = torch.nn.functional

    def bn(h: Any, name: str) -> Any:
        return f.batch_norm(h, sd[name + ".running_mean"], sd[name + ".running_var"], sd[name + ".weight"],
                            sd[name + ".bias"], training=False, eps=1e-5)

    h = f.relu(bn(f.conv1d(z, sd["conv1.weight"], stride=2, padding=1), "bn1"))
    for layer in ("layer1", "layer2", "layer3"):
        for i in range(2):
            p = f"{layer}.{i}"
            stride = 2 if i == 0 else 1
            out = f.relu(bn(f.conv1d(h, sd[p + ".conv1.weight"], stride=stride, padding=1), p + ".bn1"))
            out = bn(f.conv1d(out, sd[p + ".conv2.weight"], stride=1, padding=1), p + ".bn2")
            if p + ".shortcut.0.weight" in sd:
                short = bn(f.conv1d(h, sd[p + ".shortcut.0.weight"], stride=stride), p + ".shortcut.1")
            else:
                short = h
            h = f.relu(out + short)
    a = torch.cat([x, x, x, x, h.flatten(1, 2)], dim=-1)
    for i in range(1, 5):
        a = f.leaky_relu(f.linear(a, sd[f"linear{i}.weight"], sd[f"linear{i}.bias"]), 0.01)
    return a[:, 0]


def main(argv: list[str] | None = None) -> int:
    from qipai.games.doudizhu.bots.resnet import PARAMETERS, WEIGHTS_FILE, ResNetQ, default_weights_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=None, help="cache folder (default: %(default)s → qipai's cache)")
    ap.add_argument("--wheel", type=Path, default=None, help="use this pymecli-0.2.4 wheel instead of downloading")
    args = ap.parse_args(argv)
    try:
        import numpy as np
        import torch
    except ImportError as e:
        raise SystemExit(f"the fetch script needs numpy and torch ({e}): pip install numpy torch") from None
    out = (args.dir or default_weights_dir()).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or download_wheel(Path(tmp))
        manifest: dict[str, Any] = {"source": WHEEL, "wheel": wheel.name, "wheel_sha256": sha256(wheel),
                                    "checkpoints": {}}
        arrays: dict[str, Any] = {}
        with zipfile.ZipFile(wheel) as zf:
            for pos, member in MEMBERS.items():
                target = out / Path(member).name
                target.write_bytes(zf.read(member))
                sd = torch.load(target, weights_only=True, map_location="cpu")
                count = sum(v.numel() for k, v in sd.items()
                            if not k.endswith(("running_mean", "running_var", "num_batches_tracked")))
                if count != PARAMETERS:
                    raise SystemExit(f"{member}: {count} parameters, expected {PARAMETERS}")
                shapes = {"conv1.weight": (80, 40, 3), "layer3.1.conv2.weight": (320, 320, 3),
                          "linear1.weight": (1024, 1340), "linear4.weight": (1, 256)}
                for k, shape in shapes.items():
                    if tuple(sd[k].shape) != shape:
                        raise SystemExit(f"{member}: {k} has shape {tuple(sd[k].shape)}, expected {shape}")
                params = {k: v.float().numpy() for k, v in sd.items() if not k.endswith("num_batches_tracked")}
                for k, v in params.items():
                    arrays[f"{pos}/{k}"] = v
                # the NumPy network against PyTorch on random inputs
                g = torch.Generator().manual_seed(7)
                z = torch.randint(-1, 2, (6, 40, 54), generator=g).float()
                x = torch.rand(6, 15, generator=g)
                want = torch_forward(torch, {k: v.float() for k, v in sd.items()}, z, x).numpy()
                got = np.stack([ResNetQ(params).values(z[i:i + 1].numpy(), x[i].numpy())[0] for i in range(6)])
                if not np.allclose(got, want, rtol=1e-3, atol=1e-4):
                    raise SystemExit(f"{pos}: the NumPy network disagrees with PyTorch: {got} vs {want}")
                manifest["checkpoints"][pos] = {"file": target.name, "sha256": sha256(target), "parameters": count}
                print(f"{pos}: {count:,} parameters, NumPy matches PyTorch (max diff "
                      f"{float(np.abs(got - want).max()):.2e})")
        np.savez(out / WEIGHTS_FILE, **arrays)
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"weights in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
