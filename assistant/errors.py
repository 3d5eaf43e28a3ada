"""Errors every front end reports in one line, importable without the audio or model stacks."""


class AudioError(Exception):
    """No device, no PortAudio, an unreadable file: one line that says what to do."""


class SpeakerError(Exception):
    """Voices cannot be told apart here (no speaker model) or from this audio (too short)."""
