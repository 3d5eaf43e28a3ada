"""Microphone and speaker through sounddevice (PortAudio), imported only when a device is used."""
from __future__ import annotations

import logging
import os
import queue
import time
from pathlib import Path
from typing import Iterator

import numpy as np

from ..events import RATE, Speech
from .base import FRAME, AudioError, AudioSink, AudioSource, resample

log = logging.getLogger("glados.audio")


def _pulse_in_our_folders() -> None:
    """PortAudio reaches PulseAudio through ALSA's plugin, and libpulse, with no XDG_RUNTIME_DIR, makes
    ~/.config/pulse/<machine>-runtime and a /tmp/pulse-XXXX folder for a socket (and may start a sound server).
    Unless the user has a PulseAudio set up that way (~/.config/pulse is there) or says where it is
    (XDG_RUNTIME_DIR, PULSE_RUNTIME_PATH, PULSE_SERVER), its runtime folder is glados's own and it starts none."""
    if any(os.environ.get(name) for name in ("XDG_RUNTIME_DIR", "PULSE_RUNTIME_PATH", "PULSE_SERVER")):
        return
    if (Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "pulse").exists():
        return
    from platformdirs import user_cache_dir
    runtime = Path(user_cache_dir("glados", appauthor=False)) / "pulse"
    try:
        runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
        client = runtime / "client.conf"
        if not client.exists():
            client.write_text("autospawn = no\n")
    except OSError:
        return        # a folder that cannot be written: libpulse does as it always did
    os.environ["PULSE_RUNTIME_PATH"] = str(runtime)
    os.environ.setdefault("PULSE_CLIENTCONFIG", str(client))


def _sounddevice():
    _pulse_in_our_folders()
    try:
        import sounddevice
    except OSError as exc:   # the Python package is there, the PortAudio library is not
        raise AudioError("PortAudio is not installed; install it (Debian/Ubuntu: apt-get install libportaudio2, "
                         "macOS: brew install portaudio) and try again") from exc
    except ImportError as exc:
        raise AudioError("the sounddevice package is missing; run the setup again (pip install sounddevice)") from exc
    return sounddevice


def _device_names(sd) -> str:
    try:
        names = [f"{i}: {d['name']} (in {d['max_input_channels']}, out {d['max_output_channels']})"
                 for i, d in enumerate(sd.query_devices())]
    except Exception:  # noqa: BLE001 - listing is best effort inside an error message
        return "none could be listed"
    return "; ".join(names) or "none"


def _pick(sd, device, kind: str) -> None:
    channels = "max_input_channels" if kind == "input" else "max_output_channels"
    try:
        info = sd.query_devices(device, kind=kind)
    except Exception as exc:  # noqa: BLE001 - PortAudio reports missing devices in several ways
        log.info("PortAudio: %s", exc)          # its own words ("Error querying device -1") go to the log
        names = _device_names(sd)
        what = "microphone" if kind == "input" else "speaker"
        raise AudioError(f"no {what} found (this machine has no sound devices)" if names == "none" else
                         f"no {what} found (devices: {names}; set voice.{kind}_device)") from exc
    if info[channels] < 1:
        raise AudioError(f"device {info['name']!r} cannot {'record' if kind == 'input' else 'play'}; "
                         f"devices found: {_device_names(sd)}")


class MicSource(AudioSource):
    """The default (or configured) microphone, 16 kHz mono; frames queue up in a callback."""

    def __init__(self, device=None):
        self.sd = _sounddevice()
        _pick(self.sd, device, "input")
        self.queue: queue.Queue[np.ndarray] = queue.Queue()
        self.rate = RATE
        try:
            self.stream = self.sd.InputStream(samplerate=RATE, channels=1, dtype="float32", blocksize=FRAME,
                                              device=device, callback=self._callback)
        except Exception:  # noqa: BLE001 - a device without 16 kHz: record at its own rate, resample
            self.rate = int(self.sd.query_devices(device, kind="input")["default_samplerate"])
            self.stream = self.sd.InputStream(samplerate=self.rate, channels=1, dtype="float32",
                                              device=device, callback=self._callback)
        self.stream.start()

    def _callback(self, indata, frames, time_info, status) -> None:
        self.queue.put(indata[:, 0].copy())

    def frames(self) -> Iterator[np.ndarray]:
        pending = np.zeros(0, np.float32)
        while True:
            block = self.queue.get()
            if self.rate != RATE:
                block = resample(block, self.rate, RATE)
            pending = np.concatenate([pending, block])
            while len(pending) >= FRAME:
                yield pending[:FRAME]
                pending = pending[FRAME:]

    def catch_up(self) -> int:
        """Drop what queued up while she was thinking; returns how many frames that was."""
        dropped = 0
        while True:
            try:
                dropped += len(self.queue.get_nowait())
            except queue.Empty:
                return dropped // FRAME

    def close(self) -> None:
        self.stream.stop()
        self.stream.close()


class SpeakerSink(AudioSink):
    def __init__(self, device=None, rate: int = 22_050):
        self.sd = _sounddevice()
        _pick(self.sd, device, "output")
        self.device, self.rate = device, rate
        self.until = 0.0

    def start(self, speech: Speech) -> None:
        samples = resample(speech.samples, speech.rate, self.rate)
        self.sd.play(samples, self.rate, device=self.device)
        self.until = time.monotonic() + len(samples) / self.rate

    def stop(self, played_s: float) -> None:
        self.sd.stop()
        self.until = 0.0

    def finish(self) -> None:
        self.sd.wait()

    def close(self) -> None:
        self.sd.stop()
