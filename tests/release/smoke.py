"""A smoke run of the installed cnbkit, as a user meets it: ``test_release.py`` runs this file
with the Python of a fresh environment holding the wheel (``python -I``: nothing of the checkout
on ``sys.path``), from an empty folder. It prints one JSON object; the test judges it.

Against the sandbox the installed package ships (market data on 127.0.0.1, the COBS bank over
mutual TLS on 127.0.0.1): one call of each market-data group and the COBS flow from
registration to the accounts; the analysis and figure modules import (matplotlib, from the
``notebooks`` extra).
"""

from __future__ import annotations

import importlib.metadata
import json
import sys

import cnbkit
import cnbkit.analysis
import cnbkit.figures
from cnbkit.cobs import CobsClient, CobsConfig
from cnbkit.sandbox import Sandbox
from cnbkit.sandbox.cobs import CobsSandbox

CLOCK = "2025-12-31"
#: One call of each group: group -> (operation, call).
CALLS = {
    "czeonia": ("czeonia.daily_year", lambda c: cnbkit.czeonia.daily_year(2024, client=c)),
    "exrates": ("exrates.daily", lambda c: cnbkit.exrates.daily("2019-05-17", lang="EN",
                                                               client=c)),
    "forward": ("forward.daily", lambda c: cnbkit.forward.daily("2024-05-17", client=c)),
    "fxrates": ("fxrates.daily_month", lambda c: cnbkit.fxrates.daily_month("2024-05",
                                                                           client=c)),
    "omo": ("omo.daily_year", lambda c: cnbkit.omo.daily_year(2024, client=c)),
    "pribor": ("pribor.daily", lambda c: cnbkit.pribor.daily("2024-05-17", client=c)),
    "skd": ("skd.daily", lambda c: cnbkit.skd.daily("2024-05-17", client=c)),
}


def main() -> dict[str, object]:
    found: dict[str, object] = {
        "file": cnbkit.__file__, "version": cnbkit.__version__,
        "metadata_version": importlib.metadata.version("cnbkit"), "sys_path": sys.path,
    }
    groups: dict[str, object] = {}
    with Sandbox(clock=CLOCK) as sandbox:
        client = cnbkit.Client(base_url=sandbox.url, clock=CLOCK)
        for group, (operation, call) in CALLS.items():
            frame = call(client)
            groups[group] = {"operation": frame.attrs["operation"], "rows": len(frame),
                             "columns": list(frame.columns),
                             "expected_columns": cnbkit.OPERATIONS[operation].column_names}
        client.close()
        found["requests"] = len(sandbox.log)
    found["groups"] = groups
    found["modules"] = [cnbkit.analysis.__file__, cnbkit.figures.__file__]
    with CobsSandbox() as bank, CobsClient(CobsConfig.for_sandbox(bank, "5.0")) as cobs:
        cobs.register("smoke")
        cobs.authorize_without_browser()
        found["accounts"] = len(cobs.accounts())
    return found


if __name__ == "__main__":
    print(json.dumps(main()))
