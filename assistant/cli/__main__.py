"""`python -m assistant.cli`: the `glados` command."""
from .main import entry

entry()
