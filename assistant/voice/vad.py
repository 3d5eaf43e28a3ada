"""Voice activity: Silero VAD (shipped inside faster-whisper) run frame by frame, and a segmenter
that turns frames into utterances with pre-roll, an end-of-speech silence and a length cap."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from ..audio.base import FRAME
from ..config import VoiceConfig
from ..events import RATE, Pause, Utterance

CONTEXT = 64   # samples of the previous frame the model sees, as faster-whisper feeds it


@dataclass(frozen=True)
class VadOptions:
    """The segmenter's knobs; the defaults are the config's (config/sections.py documents each), early_s off."""
    threshold: float = VoiceConfig.vad_threshold
    min_speech_s: float = VoiceConfig.min_speech_s
    end_silence_s: float = VoiceConfig.end_silence_s
    pre_roll_s: float = VoiceConfig.pre_roll_s
    max_utterance_s: float = VoiceConfig.max_utterance_s
    early_s: float = 0.0            # after this much silence, offer the utterance so far (early_utterance); 0: off
    pause_s: float = 0.15           # a silence this long inside an utterance is kept as a Pause

    @classmethod
    def configured(cls, voice: VoiceConfig, **changes) -> VadOptions:
        """The segmenter as `voice` in config.yaml describes it (voice: a VoiceConfig), with changes."""
        return replace(cls(voice.vad_threshold, voice.min_speech_s, voice.end_silence_s, voice.pre_roll_s,
                           voice.max_utterance_s, voice.early_stt_s), **changes)


class SileroVAD:
    """Speech probability per 512-sample frame, keeping the model's state between frames."""

    def __init__(self):
        from faster_whisper.vad import get_vad_model
        self.session = get_vad_model().session
        self.reset()

    def reset(self) -> None:
        self.h = np.zeros((1, 1, 128), np.float32)
        self.c = np.zeros((1, 1, 128), np.float32)
        self.context = np.zeros((1, CONTEXT), np.float32)

    def __call__(self, frame: np.ndarray) -> float:
        chunk = frame.reshape(1, FRAME).astype(np.float32)
        out, self.h, self.c = self.session.run(
            None, {"input": np.concatenate([self.context, chunk], 1), "h": self.h, "c": self.c})
        self.context = chunk[:, -CONTEXT:]
        return float(np.ravel(out)[0])


class Segmenter:
    """Feed frames in order; get an Utterance back when one ends. `speaking` says whether the
    user is mid-utterance (what barge-in watches)."""

    def __init__(self, vad, options: VadOptions = VadOptions()):
        self.vad, self.opt = vad, options
        self.frame_s = FRAME / RATE
        self.pre_roll: deque[np.ndarray] = deque(maxlen=max(1, int(options.pre_roll_s / self.frame_s)))
        self.time_s = 0.0
        self._clear()

    def _clear(self) -> None:
        self.frames: list[np.ndarray] = []
        self.start_s = 0.0
        self.voiced_until_s = 0.0       # end of the last voiced frame, on the input timeline
        self.voiced = 0
        self.silent = 0
        self.speaking = False
        self.early: Utterance | None = None
        self.pauses: list[Pause] = []

    def reset(self) -> None:
        """Forget any partial utterance (after she spoke with the microphone ignored)."""
        self._clear()
        self.pre_roll.clear()
        self.vad.reset()

    def skip(self, frame: np.ndarray) -> None:
        """A frame that passes unheard (the microphone is ignored while she speaks)."""
        self.time_s += self.frame_s

    def feed(self, frame: np.ndarray) -> Utterance | None:
        prob = self.vad(frame)
        now = self.time_s
        self.time_s += self.frame_s
        if not self.speaking:
            self.pre_roll.append(frame)
            if prob >= self.opt.threshold:
                self.speaking = True
                self.frames = list(self.pre_roll)
                self.start_s = now - (len(self.frames) - 1) * self.frame_s
                self.voiced, self.silent = 1, 0
                self.voiced_until_s = self.time_s
            return None
        self.frames.append(frame)
        if prob >= self.opt.threshold - 0.15:      # a little hysteresis keeps words together
            if self.silent * self.frame_s >= self.opt.pause_s:
                self.pauses.append(Pause((len(self.frames) - 1) * self.frame_s, self.silent * self.frame_s))
            self.voiced += 1
            self.silent = 0
            self.voiced_until_s = self.time_s
        else:
            self.silent += 1
        length_s = len(self.frames) * self.frame_s
        if self.silent * self.frame_s >= self.opt.end_silence_s or length_s >= self.opt.max_utterance_s:
            return self._finish()
        if self.opt.early_s and self.silent == max(1, round(self.opt.early_s / self.frame_s)) \
                and self.voiced * self.frame_s >= self.opt.min_speech_s:
            self.early = Utterance(np.concatenate(self.frames), self.start_s, self.time_s,
                                   speech_end_s=self.voiced_until_s, pauses=tuple(self.pauses))
        return None

    def early_utterance(self) -> Utterance | None:
        """The utterance so far, once, when a pause began (early_s of silence): it ends here unless
        speech resumes, so its transcription can start while the rest of the silence is heard.
        The final utterance has the same start and speech_end_s when nothing was said since."""
        early, self.early = self.early, None
        return early

    def _finish(self) -> Utterance | None:
        frames, start, voiced, speech_end, pauses = self.frames, self.start_s, self.voiced, self.voiced_until_s, self.pauses
        self._clear()
        self.pre_roll.clear()
        if voiced * self.frame_s < self.opt.min_speech_s:
            return None
        return Utterance(np.concatenate(frames), start, self.time_s, speech_end_s=speech_end, pauses=tuple(pauses))

    def flush(self) -> Utterance | None:
        """End of input: whatever is being said ends here."""
        return self._finish() if self.speaking else None


def segment(samples: np.ndarray, options: VadOptions = VadOptions(), vad=None) -> list[Utterance]:
    """Every utterance in a recording (16 kHz mono), as the voice loop's segmenter cuts them."""
    segmenter = Segmenter(vad if vad is not None else SileroVAD(), options)
    segmenter.reset()       # a VAD passed in starts without the state the last recording left in it
    out = []
    for i in range(0, len(samples) - FRAME + 1, FRAME):
        if (utterance := segmenter.feed(samples[i:i + FRAME])) is not None:
            out.append(utterance)
    if (last := segmenter.flush()) is not None:
        out.append(last)
    return out
