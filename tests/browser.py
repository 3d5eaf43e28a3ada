"""Debian's Chromium through Selenium and Debian's chromedriver, and the memory page served on a free loopback port:
shared by tests/test_page.py and bench/page_bench.py."""
from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
# As root, in a closed network: no sandbox, and nothing of Chromium's own that would try to reach Google.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def installed() -> bool:
    return Path(CHROMIUM).exists() and Path(DRIVER).exists()


def chromium(downloads: Path | None = None, width: int = 420, height: int = 1200):
    """A headless Chromium (Selenium's driver); downloads go to `downloads`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--window-size={width},{height}"):
        options.add_argument(flag)
    if downloads is not None:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads)})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@contextlib.contextmanager
def page_served(memory, user: str) -> Iterator[str]:
    """The memory page for `user` on a free loopback port, in a thread, until the block ends; yields its address."""
    import uvicorn

    from assistant.config import load_config
    from assistant.serve.page import PageOptions, app, hosts_for
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    options = PageOptions(user, hosts=hosts_for("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app(memory, load_config(), options), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
