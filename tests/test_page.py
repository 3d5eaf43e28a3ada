"""`glados memory page`: each person sees, and corrects, what she remembers about them.

Through the HTTP interface (Starlette's test client) for what a browser cannot show: the CSRF refusal, the
token and the Host rules, one person never on another's page. In a real browser (Debian's Chromium, driven by
Selenium through Debian's chromedriver) for each action end to end, stored markup that must stay text, and the
screenshot. The browser tests are skipped where Chromium is not installed, except under GLADOS_REQUIRE_BROWSER=1
(.ci/run), where they fail instead.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from starlette.testclient import TestClient

from assistant.config import load_config
from assistant.serve.access import Access
from assistant.serve.page import PageOptions, app, hosts_for
from memory import Memory

from tests.browser import chromium, installed, page_served
from tests.conftest import ROOT

HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">"


@pytest.fixture
def household(tmp_path):
    with Memory(tmp_path / "m.db", embedder=None) as mem:
        mem.observe("ada", "I live in Bath and I'm allergic to peanuts", session="s1")
        mem.observe("ada", "I moved to Bristol", session="s1")
        mem.observe("ada", f"I love jazz and {HOSTILE}", session="s1")
        mem.observe("ada", "I love hiking", session="s2")
        mem.add_summary("ada", "s1", "Ada moved to Bristol and likes jazz.")
        mem.observe("bob", "I live in Leeds and my dog Rex is a beagle", session="s3")
        yield mem


def client(mem: Memory, **options) -> TestClient:
    opts = PageOptions(options.pop("user", "ada"), **options)
    return TestClient(app(mem, load_config(), opts), base_url="http://127.0.0.1:8766", follow_redirects=False)


def csrf_of(page: str) -> str:
    return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]


def values(mem: Memory, user: str = "ada") -> set[tuple[str, str]]:
    return {(f.key, f.value) for f in mem.facts(user)}


def test_stored_markup_is_text_and_no_script_may_run(household):
    page = client(household).get("/people/ada")
    assert page.status_code == 200
    assert "<script>document.title" not in page.text and "&lt;script&gt;document.title" in page.text
    assert "<img src=x" not in page.text
    assert "script-src" not in page.headers["content-security-policy"]          # default-src 'none': no script
    assert "default-src 'none'" in page.headers["content-security-policy"]


def test_a_post_without_the_pages_token_changes_nothing(household):
    web = client(household)
    fact = next(f for f in household.facts("ada") if f.key == "location")
    before = values(household)
    for form in ({}, {"csrf": "guessed"}):
        answer = web.post(f"/people/ada/fact/{fact.id}/forget", data=form)
        assert answer.status_code == 403 and "nothing was changed" in answer.text
    assert web.post("/people/ada/export", data={}).status_code == 403
    assert values(household) == before


def test_one_person_never_sees_anothers_page_unless_opened_for_the_household(household):
    web = client(household)
    assert web.get("/people/bob").status_code == 404
    assert "Leeds" not in web.get("/people/ada").text
    token = csrf_of(web.get("/people/ada").text)
    rex = next(f for f in household.facts("bob"))
    assert web.post(f"/people/bob/fact/{rex.id}/forget", data={"csrf": token}).status_code == 403
    assert rex in household.facts("bob")
    shared = client(household, household=True)
    index = shared.get("/").text
    assert 'href="/people/ada"' in index and 'href="/people/bob"' in index
    assert "Leeds" in shared.get("/people/bob").text


def test_loopback_only_by_default_and_a_token_elsewhere(household, tmp_path):
    web = TestClient(app(household, load_config(), PageOptions("ada", hosts=hosts_for("127.0.0.1", 8766))),
                     base_url="http://127.0.0.1:8766", follow_redirects=False)
    assert web.get("/people/ada").status_code == 200
    assert web.get("/people/ada", headers={"host": "rebound.example:8766"}).status_code == 421     # DNS rebinding
    guarded = client(household, access=Access("s3cret"))
    assert guarded.get("/people/ada").status_code == 401
    first = guarded.get("/people/ada?token=s3cret")
    assert first.status_code == 200 and first.cookies.get("glados_page") == "s3cret"
    assert guarded.get("/people/ada").status_code == 200            # the cookie carries it from then on
    refused = subprocess.run([sys.executable, "-m", "assistant.cli", "memory", "page", "--host", "0.0.0.0"],
                             capture_output=True, text=True, cwd=ROOT, timeout=60,
                             env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")})
    assert refused.returncode != 0 and "--token" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["memory", "page"], ["serve"], ["memory", "mcp", "--http"]])
def test_a_port_already_taken_is_one_line(tmp_path, command):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "assistant.cli", *command, "--port", str(port)],
                                capture_output=True, text=True, cwd=ROOT, timeout=60,
                                env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")})
    said = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(said) == 1, result.stderr
    assert said[0].startswith("glados: the ") and f"127.0.0.1:{port} is in use" in said[0] and "--port" in said[0]


def test_every_fact_change_and_summary_the_cli_shows_is_on_the_page(household):
    household.observe("ada", "remember that my locker code is 4512", session="s2")
    household.forget("ada", "likes=hiking")
    page = client(household).get("/people/ada").text
    for f in household.facts("ada"):
        assert f.key in page
    assert "Ada moved to Bristol and likes jazz." in page
    assert "learned location: Bristol (was Bath)" in page and "forgot likes" in page and "hiking" not in page
    assert "4512" not in page and "(private)" in page           # a secret note's number is never on the page


def test_telling_clearing_and_importing_from_the_page(household):
    web = client(household)
    token = csrf_of(web.get("/people/ada").text)
    told = web.post("/people/ada/tell", data={"csrf": token, "text": "I work as a nurse"})
    assert told.status_code == 303 and ("job", "nurse") in values(household)
    assert "learned job: nurse" in web.get(told.headers["location"]).text
    exported = web.post("/people/ada/export", data={"csrf": token})
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    asked = web.post("/people/ada/clear", data={"csrf": token})
    assert "Delete everything remembered about ada?" in asked.text and ("job", "nurse") in values(household)
    cleared = web.post("/people/ada/clear", data={"csrf": token, "confirm": "yes"})
    assert cleared.status_code == 303 and values(household) == set() and household.facts("bob")
    back = web.post("/people/ada/import", data={"csrf": token}, files={"file": ("ada.json", exported.content)})
    assert back.status_code == 303 and ("job", "nurse") in values(household) and "imported" in back.headers["location"]
    wrong = web.post("/people/ada/import", data={"csrf": token}, files={"file": ("x.json", b"not json")})
    assert "not+a+memory+export" in wrong.headers["location"]


# -- in a real browser --------------------------------------------------------------------------
@pytest.fixture
def served(household, tmp_path):
    """The page on a free loopback port, in a thread, and a browser pointed at it."""
    if not installed():
        if os.environ.get("GLADOS_REQUIRE_BROWSER"):
            pytest.fail("Chromium is not installed (apt-get install chromium chromium-driver); ./test.sh installs it")
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")
    with page_served(household, "ada") as url:
        driver = chromium(tmp_path / "downloads")
        try:
            yield driver, url, household, tmp_path
        finally:
            driver.quit()


def _fact_item(browser, key: str, value: str):
    from selenium.webdriver.common.by import By
    for item in browser.find_elements(By.CSS_SELECTOR, "li.fact"):
        if item.find_element(By.CLASS_NAME, "key").text == key and item.find_element(By.CLASS_NAME, "value").text == value:
            return item
    raise AssertionError(f"{key}: {value} is not on the page")


def _click(item, label: str) -> None:
    """Press the button and wait for the page it leads to (the old one gone)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.wait import WebDriverWait
    item.find_element(By.XPATH, f".//button[normalize-space()='{label}']").click()
    WebDriverWait(item.parent, 10).until(staleness_of(item))


def test_each_action_in_a_browser_and_what_it_leaves_in_the_timeline(served):
    from selenium.webdriver.common.by import By
    browser, url, mem, tmp_path = served
    browser.get(url)
    assert browser.title == "What GLaDOS remembers about ada"              # the hostile like set no title
    _click(_fact_item(browser, "location", "Bristol"), "Pin")
    assert "pinned location: Bristol" in browser.find_element(By.CLASS_NAME, "done").text
    assert next(f for f in mem.facts("ada") if f.key == "location").user_pinned
    _click(_fact_item(browser, "location", "Bristol"), "Unpin")
    assert not next(f for f in mem.facts("ada") if f.key == "location").user_pinned
    item = _fact_item(browser, "likes", "jazz")
    item.find_element(By.NAME, "value").send_keys("blues")
    _click(item, "Correct")
    assert ("likes", "blues") in values(mem) and ("likes", "jazz") not in values(mem)
    assert "you corrected likes: blues (was jazz)" in browser.find_element(By.ID, "timeline").text
    _click(_fact_item(browser, "likes", "hiking"), "Forget")
    assert ("likes", "hiking") not in values(mem)
    timeline = browser.find_element(By.ID, "timeline").text
    assert "forgot likes" in timeline and "hiking" not in browser.page_source
    _click(_fact_item(browser, "allergy", "peanuts"), "Forget")              # a safety fact asks first
    assert "It keeps you safe." in browser.page_source and ("allergy", "peanuts") in values(mem)
    _click(browser.find_element(By.TAG_NAME, "body"), "No, keep it")
    _click(_fact_item(browser, "allergy", "peanuts"), "Forget")
    _click(browser.find_element(By.TAG_NAME, "body"), "Yes, forget it")
    assert ("allergy", "peanuts") not in values(mem) and "forgot allergy" in browser.find_element(By.ID, "timeline").text
    browser.find_element(By.XPATH, "//button[normalize-space()='Export everything (JSON)']").click()
    exported = tmp_path / "downloads" / "ada.json"
    for _ in range(100):
        if exported.exists():
            break
        time.sleep(0.05)
    assert '"user": "ada"' in exported.read_text()


def test_search_and_the_screenshot_in_a_browser(served):
    from selenium.webdriver.common.by import By
    browser, url, mem, tmp_path = served
    browser.get(url)
    box = browser.find_element(By.NAME, "q")
    box.send_keys("Bristol")
    _click(browser.find_element(By.TAG_NAME, "body"), "Search")
    found = browser.find_element(By.ID, "search").text
    assert "I moved to Bristol" in found
    shot = tmp_path / "page.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    assert browser.execute_script("return document.title") == "What GLaDOS remembers about ada"
