"""A headless Chromium driven over the DevTools protocol on a pipe (no extra packages):
open a page, run JavaScript in it, take screenshots."""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")


def find_browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


class HeadlessBrowser:
    """One tab of a headless Chromium; commands and replies travel as NUL-terminated JSON
    on file descriptors 3 (to the browser) and 4 (from it)."""

    def __init__(self, executable: str, width: int = 1400, height: int = 1000) -> None:
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()

        def on_descriptors_3_and_4() -> None:  # runs in the child before exec
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self._profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile.name}",
                f"--window-size={width},{height}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=on_descriptors_3_and_4,
            start_new_session=True,  # its helper processes end with it (one process group)
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []  # messages that were not the reply awaited
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.call("Page.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    def __enter__(self) -> HeadlessBrowser:
        return self

    def __exit__(self, *exc: object) -> None:
        os.killpg(self._process.pid, signal.SIGTERM)
        self._process.wait(timeout=30)
        os.close(self._commands)
        os.close(self._replies)
        self._profile.cleanup()

    def _message(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        command: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        os.write(self._commands, json.dumps(command).encode() + b"\0")
        while True:
            message = self._message()
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self._events.append(message)

    def call(self, method: str, params: dict | None = None) -> dict:
        """A DevTools command in the tab."""
        return self._call(method, params, self._session)

    def open(self, url: str) -> None:
        """Navigate and wait for the load event."""
        self._events = []
        self.call("Page.navigate", {"url": url})
        while not any(e.get("method") == "Page.loadEventFired" for e in self._events):
            self._events.append(self._message())

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: str | Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        Path(path).write_bytes(base64.b64decode(data))
