"""Audio in and out: one interface (base.py), one file per backend; devices import lazily."""
from .base import FRAME, AudioError, AudioFileError, AudioSink, AudioSource, resample
from .silent import SilentSink
from .wavfile import WavSink, WavSource

__all__ = ["FRAME", "AudioError", "AudioFileError", "AudioSink", "AudioSource", "SilentSink", "WavSink", "WavSource",
           "resample", "open_microphone", "open_speaker"]


def _device(name: str | None):
    """sounddevice takes an index or a name; config holds text."""
    return int(name) if name is not None and name.strip().isdigit() else name


def open_microphone(device: str | None = None) -> AudioSource:
    """The microphone through sounddevice, imported only now."""
    from .devices import MicSource
    return MicSource(_device(device))


def open_speaker(device: str | None = None, rate: int = 22_050) -> AudioSink:
    from .devices import SpeakerSink
    return SpeakerSink(_device(device), rate)
