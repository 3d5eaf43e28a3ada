"""Audio in and out: one interface (base.py), one file per backend; devices import lazily."""
from .base import FRAME, AudioError, AudioSink, AudioSource, resample
from .wavfile import WavSink, WavSource

__all__ = ["FRAME", "AudioError", "AudioSink", "AudioSource", "WavSink", "WavSource", "resample", "open_devices"]


def open_devices(input_device=None, output_device=None, output_rate: int = 22_050):
    """Microphone and speaker through sounddevice, imported only now."""
    from .devices import MicSource, SpeakerSink
    return MicSource(input_device), SpeakerSink(output_device, output_rate)
