"""The assistant: audio, wake word, speech, the model client, the turn logic, the CLI and the config."""
from .private import quiet_libraries

quiet_libraries()     # before any backend imports onnxruntime or huggingface_hub
