"""`python -m assistant.cli`: the `glados` command."""
import sys

from .main import main

sys.exit(main())
