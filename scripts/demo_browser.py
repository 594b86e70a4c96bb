"""
Drives a running `allennlp demo` in Debian's chromium (headless, through chromedriver), as a reader
uses it: for each tab, types the inputs, submits, reads back what the page shows (the highlighted
spans, labels, bars and ELMo charts) and saves a screenshot. The tests use the same functions.

    allennlp demo --archive ner=runs/ner/model.tar.gz ... &
    python scripts/demo_browser.py http://127.0.0.1:8000 --inputs docs/demo/inputs.json --screenshots docs/demo
"""

import argparse
import base64
import json
import shutil
from pathlib import Path
from typing import Any, Dict

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"

# What the page shows in a panel, read from its DOM: the text of each highlighted span (its badge
# left out) with its label, per kind of task.
READ_PANEL = """
const panel = document.querySelector(`.panel[data-model="${arguments[0]}"]`);
const result = panel.querySelector(".result");
const text = (node) => {
  const copy = node.cloneNode(true);
  copy.querySelectorAll(".badge").forEach((badge) => badge.remove());
  return copy.textContent.trim();
};
const bars = (root) => Object.fromEntries([...root.querySelectorAll(".bar")].map(
  (bar) => [bar.dataset.label, Number(bar.dataset.probability)]));
return {
  state: result.dataset.state,
  error: result.querySelector(".error") ? result.querySelector(".error").textContent : null,
  entities: [...result.querySelectorAll(".entity")].map((node) => [text(node), node.dataset.type]),
  frames: [...result.querySelectorAll(".frame")].map((frame) => ({
    predicate: text(frame.querySelector(".predicate")),
    arguments: [...frame.querySelectorAll(".argument")].map((node) => [text(node), node.dataset.label]),
  })),
  mentions: [...result.querySelectorAll(".mention")].map((node) => [text(node), Number(node.dataset.cluster)]),
  answer: result.querySelector(".answer") ? result.querySelector(".answer").textContent : null,
  alternatives: result.querySelectorAll(".alternative").length,
  label: result.querySelector("p.label") && !result.querySelector(".answer")
    ? result.querySelector("p.label").textContent : null,
  probabilities: bars(result),
  elmo: [...panel.querySelectorAll(".elmo-mix")].map((mix) => ({
    place: mix.dataset.place, gamma: Number(mix.dataset.gamma), weights: Object.values(bars(mix)),
  })),
};
"""


def chromium(width: int = 1280, height: int = 900) -> webdriver.Chrome:
    """Debian's chromium, headless, driven by its chromedriver."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(program):
            raise FileNotFoundError(f"{program} is missing: apt-get install chromium chromium-driver")
    options = Options()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # as root in a container
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def open_page(driver: webdriver.Chrome, url: str, timeout: float = 60) -> None:
    driver.get(url)
    WebDriverWait(driver, timeout).until(
        lambda page: page.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "ready",
        message=f"the demo page at {url} did not list its models within {timeout:.0f} s",
    )


def submit(driver: webdriver.Chrome, model: str, inputs: Dict[str, str], timeout: float = 120) -> Dict[str, Any]:
    """Selects `model`'s tab, types `inputs` into its fields, submits and returns what the panel then shows."""
    driver.find_element(By.CSS_SELECTOR, f'.tab[data-model="{model}"]').click()
    panel = driver.find_element(By.CSS_SELECTOR, f'.panel[data-model="{model}"]')
    for field, value in inputs.items():
        box = panel.find_element(By.CSS_SELECTOR, f'[name="{field}"]')
        box.clear()
        box.send_keys(value)
    panel.find_element(By.CSS_SELECTOR, "button.submit").click()
    WebDriverWait(driver, timeout).until(
        lambda page: panel.find_element(By.CLASS_NAME, "result").get_attribute("data-state") in ("done", "error"),
        message=f"the {model} tab showed no answer within {timeout:.0f} s",
    )
    return driver.execute_script(READ_PANEL, model)


def screenshot(driver: webdriver.Chrome, path: Path) -> None:
    """The whole page, below the window's height too (chromium's own full-page capture)."""
    width, height = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
    path.write_bytes(base64.b64decode(shot["data"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="where allennlp demo serves, e.g. http://127.0.0.1:8000")
    parser.add_argument("--inputs", required=True, help="JSON: {tab name: {field: text}}")
    parser.add_argument("--screenshots", required=True, help="the folder for one <tab>.png each")
    parser.add_argument("--width", type=int, default=1100)
    args = parser.parse_args()
    inputs = json.loads(Path(args.inputs).read_text(encoding="utf-8"))
    folder = Path(args.screenshots)
    folder.mkdir(parents=True, exist_ok=True)
    driver = chromium(width=args.width)
    try:
        for model, fields in inputs.items():
            open_page(driver, f"{args.url}/#{model}")
            shown = submit(driver, model, fields)
            if shown["state"] != "done":
                raise SystemExit(f"{model}: the page shows an error: {shown['error']}")
            screenshot(driver, folder / f"{model}.png")
            read = {key: value for key, value in shown.items() if value not in (None, [], {}, 0) and key != "state"}
            print(f"{model}: {json.dumps(read)}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
