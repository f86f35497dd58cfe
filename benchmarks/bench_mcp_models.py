"""What the model behind each framework sees of ``cnbkit mcp`` for four questions (a fixing,
a year of CZEONIA, a PRIBOR history, the PRIBOR of each quarter end): the tokens it is given
(bytes / 4), the rows of the table visible to it, and whether the call was refused, per
framework: openai-agents (by default, and with ``convert_schemas_to_strict``), pydantic-ai,
LangChain's MCP adapters, the MCP SDK's client.
Each framework's own MCP client starts ``cnbkit mcp --source sandbox`` over stdio; a local model
object of the framework's own asks (``tests/mcp/frameworks.py`` says how). No network.

Run: ``.venv/bin/python benchmarks/bench_mcp_models.py`` (this checkout), or with another
checkout's server: ``.venv/bin/python benchmarks/bench_mcp_models.py --pythonpath
/path/to/checkout/src`` (the frameworks stay this environment's). LangChain runs in
``.venv-mcp1`` (scripts/test.sh makes it); without it, its rows are left out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.mcp.frameworks import (
    FRAMEWORKS,
    LANGCHAIN_PYTHON,
    cnbkit_server,
    seen_by,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pythonpath", default=None,
                        help="another checkout's src/ first on the server's path")
    args = parser.parse_args()
    print(f"{'framework':22} {'question':19} {'tokens':>7} {'rows':>5}  refused")
    for framework in FRAMEWORKS:
        if framework == "langchain" and not LANGCHAIN_PYTHON.exists():
            print(f"{framework:22} (no {LANGCHAIN_PYTHON}: run scripts/test.sh)")
            continue
        with tempfile.TemporaryDirectory(prefix="cnbkit-bench-models-") as cache:
            for seen in seen_by(framework, cnbkit_server(Path(cache),
                                                         pythonpath=args.pythonpath)):
                print(f"{framework:22} {seen.question:19} {seen.tokens:7} {seen.rows:5}  "
                      f"{'yes: ' + seen.text[:70] if seen.refused else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
