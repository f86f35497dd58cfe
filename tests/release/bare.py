"""The market-data install without extras (``pip install cnbkit``), as a user meets it:
``test_release.py`` runs this file with the Python of a fresh environment holding only the wheel
and its dependencies (``python -I``, from an empty folder). It prints one JSON object; the test
judges it.

What it finds: whether cryptography (a base dependency: the issuer an untrusted certificate
names) and the PSD2 client's stack (requests-oauthlib, pyasn1, pyasn1-modules) are installed,
what ``import cnbkit.cobs`` says, and one market-data call through the installed client against
a server of the standard library on 127.0.0.1 answering one CZEONIA fixing; a spot date on the
Prague calendar (``cnbkit.analysis``, whose calendars come from ``holidays``).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cnbkit
from cnbkit.analysis import spot_date

BODY = b'{"rates": [{"validFor": "2024-01-02", "rate": 6.7, "volumeInCZKmio": 9000}]}'


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args: object) -> None:
        pass


def main() -> dict[str, object]:
    found: dict[str, object] = {
        "installed": {name: importlib.util.find_spec(name) is not None
                      for name in ("cryptography", "requests_oauthlib", "pyasn1",
                                   "pyasn1_modules", "holidays")},
    }
    try:
        importlib.import_module("cnbkit.cobs")
    except ImportError as exc:  # MissingDependency is an ImportError
        found["cobs_error"] = [type(exc).__name__, str(exc)]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/cnbapi"
        with cnbkit.Client(base_url=url, cache=False) as client:
            frame = cnbkit.czeonia.daily_year(2024, client=client)
        found["rows"] = len(frame)
        found["rate"] = float(frame["rate"].iloc[0])
    finally:
        server.shutdown()
    # the Prague calendar (holidays): T+2 of Friday 20 December 2024 skips 24-26 December
    found["spot"] = str(spot_date("2024-12-20").date())
    return found


if __name__ == "__main__":
    print(json.dumps(main()))
