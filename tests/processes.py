"""Commands started as a terminal starts them and stopped as a user stops them, on each system.

- Linux and macOS: the command gets a process group of its own, as a shell's foreground job
  does; :func:`press` ``"ctrl-c"`` sends ``SIGINT`` to that group, as the terminal does.
- Windows: the command gets a process group of its own (``CREATE_NEW_PROCESS_GROUP``), the
  only way to send one command Ctrl-Break without sending it to the test run too; Ctrl-C cannot
  be sent to one group there (Windows delivers it to every process of the console).
"""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any


def start(command: list[str], **options: Any) -> subprocess.Popen[str]:
    """Start ``command`` in a process group of its own, its output read as UTF-8 text."""
    if os.name == "nt":
        options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        options["process_group"] = 0
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", **options.pop("env", {})}
    return subprocess.Popen(command, text=True, encoding="utf-8", env=env, **options)


def press(process: subprocess.Popen[str], key: str) -> None:
    """``ctrl-c`` (Linux and macOS) or ``ctrl-break`` (Windows) to ``process``'s group."""
    if key == "ctrl-break" and os.name == "nt":
        process.send_signal(signal.CTRL_BREAK_EVENT)
    elif key == "ctrl-c" and os.name != "nt":
        os.killpg(process.pid, signal.SIGINT)
    else:
        raise ValueError(f"{key} cannot be sent to one process group on {os.name}")


def send(process: subprocess.Popen[str], name: str) -> None:
    """Send the signal called ``name`` to ``process`` alone (``SIGTERM``, ``SIGHUP``, ...)."""
    process.send_signal(signal.Signals[name])
