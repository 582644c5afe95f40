#!/usr/bin/env python3
"""`sandglass watch` in a real browser: headless Chromium driven by Selenium (issue 89).

Usage: python3 tools/watch_browser.py target/release/sandglass [--out target/browser-test]

`make browser-test` runs it with Selenium installed into target/venv. It needs Debian's
`chromium` and `chromium-driver` (/usr/bin/chromium, /usr/bin/chromedriver; other places
through CHROMIUM and CHROMEDRIVER).

1. It starts `watch --tc 60+0.6` on a free port of 127.0.0.1, opens the page, and waits for
   three moves. Meanwhile it checks that the clock of the side to move ticks down, that the
   elapsed bar grows into the limits, that the soft and hard limits are drawn with their
   units, and, once a move is played, that the reason it stopped is written out.
2. It pauses the game from the page, sees the game hold, and resumes it.
3. It stops the game (Ctrl-C), sees "Game over" on the page, and opens the saved page.
4. It starts a second game, kills its server, and sees the page say "disconnected".

Screenshots go to --out, at the size of a projector's picture (1920 x 1080):
watch-thinking.png, watch-played.png, watch-full.png (the whole page, with the game so far),
watch-paused.png, watch-saved.png and watch-disconnected.png, and watch-small.png (the
first at half the size, as the README shows it). Exit status 0 when every check
passed, 1 otherwise.
"""

import argparse
import base64
import os
import re
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# Long enough for a loaded machine; a move at 60+0.6 takes about a second.
MOVES_TIMEOUT = 120.0
SHORT_TIMEOUT = 20.0
WIDTH, HEIGHT = 1920, 1080


class Failed(Exception):
    pass


def check(ok, what):
    if not ok:
        raise Failed(what)
    print(f"ok: {what}", flush=True)


def start_watch(binary, out, name, extra):
    """Start `sandglass watch` and return (process, url) once it has printed its address."""
    args = [binary, "watch", "--port", "0", "--tc", "60+0.6", "--linger", "2",
            "--save", os.path.join(out, name)] + extra
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + SHORT_TIMEOUT
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"open (http://\S+)", line)
        if m:
            check(m.group(1).startswith("http://127.0.0.1:"), f"watch serves {m.group(1)}, loopback")
            return proc, m.group(1)
    proc.kill()
    raise Failed(f"watch printed no address: {proc.stderr.read()}")


def browser():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={WIDTH},{HEIGHT}", "--force-device-scale-factor=1",
              "--hide-scrollbars"]:
        options.add_argument(a)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    # The page itself at a projector's 1920 x 1080, whatever the window around it takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    return driver


def text(driver, element_id):
    """An element's text, read in one step: the page redraws its parts as the state comes."""
    return driver.execute_script(
        "var e = document.getElementById(arguments[0]); return e ? e.innerText : '';", element_id)


def texts(driver, selector):
    return driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll(arguments[0]),"
        " function (e) { return e.innerText; });", selector)


def wait_for(what, test, timeout=SHORT_TIMEOUT, every=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(every)
    raise Failed(f"waited {timeout:.0f} s for {what}")


def moves(driver):
    return len(texts(driver, "#moves span"))


def fill_width(driver):
    """The elapsed bar's width in %, or None when no move is being thought."""
    return driver.execute_script(
        "var f = document.getElementById('now-fill');"
        "return f ? parseFloat(f.style.width) : null;")


def screenshot(driver, out, name, full=False, scale=None):
    """A PNG of the window; `full`: of the whole page; `scale`: the window, made smaller
    (the README's picture)."""
    path = os.path.join(out, name)
    if scale:
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png",
            "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": scale}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    elif full:
        # The whole page, as far down as it goes, at the window's width.
        height = driver.execute_script("return document.documentElement.scrollHeight;")
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": WIDTH, "height": height, "scale": 1}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    else:
        driver.save_screenshot(path)
    print(f"screenshot: {path}", flush=True)


def live_game(driver, binary, out):
    proc, url = start_watch(binary, out, "browser-game", ["--white", "expositor", "--black", "classic"])
    try:
        driver.get(url)
        wait_for("the page to connect", lambda: text(driver, "status").startswith("Live"))
        check(True, "the page connected and the game started")
        # The move being thought: the clock of the side to move ticks, the bar grows.
        wait_for("a plan with its limits",
                 lambda: "soft" in text(driver, "now-body") and "hard" in text(driver, "now-body"))
        body = text(driver, "now-body")
        check(re.search(r"soft \d+(\.\d+)? (ms|s)", body) is not None, "the soft limit has its unit")
        check(re.search(r"hard \d+(\.\d+)? (ms|s)", body) is not None, "the hard limit has its unit")
        seen_clocks, seen_widths = set(), set()
        thinking_shot = False
        deadline = time.monotonic() + MOVES_TIMEOUT
        while moves(driver) < 3:
            if time.monotonic() > deadline:
                raise Failed("three moves did not come")
            seen_clocks.add((text(driver, "time0"), text(driver, "time1")))
            w = fill_width(driver)
            if w is not None:
                seen_widths.add(round(w, 1))
            if not thinking_shot and moves(driver) >= 1 and w is not None and w > 8 \
                    and "depth" in text(driver, "now-body") and "soft stop" in text(driver, "now-body"):
                screenshot(driver, out, "watch-thinking.png")
                screenshot(driver, out, "watch-small.png", scale=0.5)
                thinking_shot = True
            time.sleep(0.05)
        check(len(seen_clocks) >= 5, f"the clocks ticked ({len(seen_clocks)} readings)")
        check(len(seen_widths) >= 5, f"the elapsed bar grew ({len(seen_widths)} widths)")
        check(all(re.fullmatch(r"\d+\.\d s", t) for pair in seen_clocks for t in pair),
              "the clocks are in seconds, with their unit")
        reason = wait_for("the reason of the last stop",
                          lambda: texts(driver, "#last-body .reason"))[0]
        check(reason.startswith("Why it stopped: ") and len(reason) > 20,
              f"the reason is written: {reason!r}")
        last = text(driver, "last-body")
        check("Adjustments:" in last, "the adjustments are written")
        check(re.search(r"P\(one more depth changes the move\) = \d+ % at the last check", last)
              is not None, "the learned model's odds at the last check are written")
        figures = wait_for("the pictures of the game so far", lambda: driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#figures svg'),"
            " function (e) { return e.textContent; });"))
        check(len(figures) == 2, "the game so far: a picture per Sandglass player")
        check(all("P(one more depth changes the move)" in f for f in figures),
              "each picture draws the learned model's odds along the game")
        if not thinking_shot:
            screenshot(driver, out, "watch-thinking.png")
            screenshot(driver, out, "watch-small.png", scale=0.5)
        screenshot(driver, out, "watch-played.png")
        screenshot(driver, out, "watch-full.png", full=True)

        # Pause: the game holds after the move being thought; then resume.
        driver.find_element(By.ID, "pause").click()
        wait_for("the pause", lambda: text(driver, "status") == "Paused", timeout=MOVES_TIMEOUT)
        held = moves(driver)
        time.sleep(1.5)
        check(moves(driver) == held and text(driver, "pause") == "Resume",
              "paused: no move is played, and the button says Resume")
        screenshot(driver, out, "watch-paused.png")
        driver.find_element(By.ID, "pause").click()
        wait_for("the game to go on", lambda: text(driver, "status").startswith("Live"))
        check(True, "resumed")

        # Ctrl-C: the game ends, is saved, and the page says so.
        proc.send_signal(signal.SIGINT)
        wait_for("the end on the page", lambda: text(driver, "status").startswith("Game over"))
        check("saved" in text(driver, "status"), f"the page names the files: {text(driver, 'status')}")
        proc.wait(timeout=SHORT_TIMEOUT)
        check(proc.returncode == 1, f"a game stopped with Ctrl-C exits 1 ({proc.returncode})")
        saved = os.path.abspath(os.path.join(out, "browser-game.html"))
        pgn = os.path.join(out, "browser-game.pgn")
        check(os.path.isfile(saved) and os.path.isfile(pgn), "the page and the PGN are saved")
        driver.get("file://" + saved)
        wait_for("the saved page", lambda: text(driver, "status").startswith("Game over"))
        check(len(texts(driver, "#board svg")) == 1, "the saved page draws the board")
        check(len(texts(driver, "#figures svg")) == 2, "and the game so far")
        check(not driver.find_element(By.ID, "pause").is_displayed(), "and no controls")
        screenshot(driver, out, "watch-saved.png")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def lost_server(driver, binary, out):
    proc, url = start_watch(binary, out, "browser-lost", [])
    try:
        driver.get(url)
        wait_for("the second game to start", lambda: text(driver, "status").startswith("Live"))
        proc.kill()
        proc.wait()
        started = time.monotonic()
        wait_for("the page to see the server gone",
                 lambda: "disconnected" in text(driver, "status").lower(), timeout=10)
        check(True, f"the page says {text(driver, 'status')!r} after {time.monotonic() - started:.1f} s")
        frozen = (text(driver, "time0"), text(driver, "time1"))
        time.sleep(1.0)
        check((text(driver, "time0"), text(driver, "time1")) == frozen,
              "the clocks stop rather than tick on")
        check("disconnected" in (text(driver, "note0") + text(driver, "note1")),
              "the clocks say disconnected")
        screenshot(driver, out, "watch-disconnected.png")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--out", default="target/browser-test")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        if old.startswith("watch-") and old.endswith(".png"):
            os.remove(os.path.join(a.out, old))
    started = time.monotonic()
    driver = browser()
    try:
        live_game(driver, a.binary, a.out)
        lost_server(driver, a.binary, a.out)
    except Failed as e:
        print(f"FAILED: {e}", flush=True)
        try:
            screenshot(driver, a.out, "watch-failed.png")
        except Exception:  # the failure matters, not the picture of it
            pass
        return 1
    finally:
        driver.quit()
    print(f"browser test passed in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
