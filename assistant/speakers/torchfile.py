"""A PyTorch state dict read without torch: the zip that `torch.save` writes, opened by a restricted unpickler.

The file is a zip holding `<name>/data.pkl` (a pickle of a dict of tensors) and `<name>/data/<key>` (each
tensor's raw little-endian storage). The pickle may only name an OrderedDict, the tensor rebuild function and
the storage types: anything else (code a tampered file would run) is refused, as `torch.load(weights_only=True)`
refuses it.
"""
from __future__ import annotations

import collections
import pickle
import zipfile
from pathlib import Path

import numpy as np

_STORAGES = {"FloatStorage": np.float32, "HalfStorage": np.float16, "DoubleStorage": np.float64,
             "LongStorage": np.int64, "IntStorage": np.int32}


class NotAStateDict(ValueError):
    """The file is not a plain PyTorch state dict (or names code it may not run)."""


def _rebuild(storage: np.ndarray, offset: int, size: tuple, stride: tuple, *_rest) -> np.ndarray:
    if not size:
        return storage[offset].copy()
    strides = tuple(s * storage.itemsize for s in stride)
    return np.lib.stride_tricks.as_strided(storage[offset:], shape=size, strides=strides).copy()


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, archive: zipfile.ZipFile, folder: str):
        super().__init__(file)
        self._archive, self._folder = archive, folder

    def find_class(self, module: str, name: str):
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild
        if module == "torch" and name in _STORAGES:
            return name
        raise NotAStateDict(f"it names {module}.{name}, which a plain state dict never does")

    def persistent_load(self, pid):
        _kind, storage, key, _location, _numel = pid
        return np.frombuffer(self._archive.read(f"{self._folder}/data/{key}"), dtype=_STORAGES[storage])


def load_state_dict(path: str | Path) -> dict[str, np.ndarray]:
    """Every tensor of the state dict at `path`, as numpy arrays keyed by their PyTorch names."""
    try:
        with zipfile.ZipFile(path) as archive:
            pickles = [n for n in archive.namelist() if n.endswith("/data.pkl")]
            if len(pickles) != 1:
                raise NotAStateDict("it holds no single data.pkl")
            with archive.open(pickles[0]) as file:
                state = _Unpickler(file, archive, pickles[0].rsplit("/", 1)[0]).load()
    except (zipfile.BadZipFile, pickle.UnpicklingError, KeyError, EOFError) as exc:
        raise NotAStateDict(str(exc)) from exc
    if not isinstance(state, dict):
        raise NotAStateDict("its pickle is not a dict of tensors")
    return dict(state)
