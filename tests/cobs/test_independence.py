"""The sandbox has eyes of its own: it imports nothing of the client, and the client reads
PSD2 roles from a certificate whose QCStatement cnbkit's codec did not write. The
stand-in bank (tests/cobs/standin_bank) imports nothing of cnbkit at all, and its drivers use
the client's public names only."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cnbkit.cobs.identity import load_identity

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.slow
def test_the_sandbox_serves_with_the_client_blocked():
    """``cnbkit.cobs`` cannot be imported in the subprocess; the sandbox starts, registers an
    application over mutual TLS and refuses a token-less COBS call with the files' 401."""
    script = textwrap.dedent("""
        import json, sys
        sys.modules["cnbkit.cobs"] = None          # any import of the client now fails
        import requests
        from cnbkit.sandbox.cobs import CobsSandbox
        with CobsSandbox() as sb:
            cert = (str(sb.client_cert_path), str(sb.client_key_path))
            app = requests.post(sb.api_url("5.0") + "/applications", cert=cert,
                                verify=str(sb.ca_path), timeout=30,
                                json={"client_name": "blocked", "applicationType": "web",
                                      "redirect_uris": ["https://tpp.example/cb"],
                                      "scopes": ["aisp"]})
            api = requests.get(sb.api_url("5.0") + "/my/accounts", cert=cert,
                               verify=str(sb.ca_path), timeout=30,
                               headers={"Content-Type": "application/json",
                                        "X-Request-ID": "f713da2b-6908-4c3f-9461-784f74b86710",
                                        "Date": "Mon, 01 Dec 2025 10:00:00 GMT",
                                        "User-Involved": "false", "TPP-Name": "Star, a.s."})
        loaded = sorted(m for m in sys.modules if m.startswith("cnbkit.cobs."))
        print(json.dumps({"app": app.status_code, "api": api.status_code,
                          "error": api.json()["errors"][0]["error"], "loaded": loaded}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          encoding="utf-8", timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"app": 201, "api": 401, "error": "UNAUTHORISED", "loaded": []}


def test_the_sandbox_source_imports_no_client_module():
    importing = re.compile(r"^\s*(?:from|import)\s+cnbkit\.cobs\b", re.MULTILINE)
    offenders = [str(p) for p in (SRC / "cnbkit" / "sandbox").rglob("*.py")
                 if importing.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


# ETSI TS 119 495 (§5.1) and RFC 3739, written out byte by byte: a QCStatements extension
# value with two statements, the eIDAS QcCompliance statement first (as real QWACs carry it)
# and then the PSD2 one naming the roles PSP_PI and PSP_IC.
_ANNOTATED = [
    ("30 5B", "SEQUENCE, 91 bytes: QCStatements"),
    ("30 08", "  SEQUENCE, 8: QCStatement (QcCompliance)"),
    ("06 06 04 00 8E 46 01 01", "    OID 0.4.0.1862.1.1 (40*0+4, 0, 1862 = 0x8E 0x46, 1, 1)"),
    ("30 4F", "  SEQUENCE, 79: QCStatement (PSD2)"),
    ("06 06 04 00 81 98 27 02", "    OID 0.4.0.19495.2 (19495 = 0x81 0x98 0x27)"),
    ("30 45", "    SEQUENCE, 69: PSD2QcType"),
    ("30 26", "      SEQUENCE, 38: RolesOfPSP"),
    ("30 11", "        SEQUENCE, 17: RoleOfPSP"),
    ("06 07 04 00 81 98 27 01 02", "          OID 0.4.0.19495.1.2 (id-psd2-role-psp-pi)"),
    ("0C 06 50 53 50 5F 50 49", '          UTF8String "PSP_PI"'),
    ("30 11", "        SEQUENCE, 17: RoleOfPSP"),
    ("06 07 04 00 81 98 27 01 04", "          OID 0.4.0.19495.1.4 (id-psd2-role-psp-ic)"),
    ("0C 06 50 53 50 5F 49 43", '          UTF8String "PSP_IC"'),
    ("0C 13 43 7A 65 63 68 20 4E 61 74 69 6F 6E 61 6C 20 42 61 6E 6B",
     '      UTF8String "Czech National Bank" (nCAName, 19 bytes)'),
    ("0C 06 43 5A 2D 43 4E 42", '      UTF8String "CZ-CNB" (nCAId)'),
]
QC_STATEMENTS = bytes.fromhex(" ".join(hex_ for hex_, _ in _ANNOTATED))


def test_roles_from_an_independently_written_qc_statement(tmp_path):
    assert len(QC_STATEMENTS) == 2 + 0x5B  # the outer length byte counts every byte after it
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "independent QWAC"),
                      x509.NameAttribute(NameOID.ORGANIZATION_IDENTIFIER, "PSDCZ-CNB-99")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=90))
            .add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.5.5.7.1.3"),
                                                      QC_STATEMENTS), critical=False)
            .sign(key, hashes.SHA256()))
    crt, pem_key = tmp_path / "qwac.crt", tmp_path / "qwac.key"
    crt.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    pem_key.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    from cnbkit.cobs import CobsConfig

    config = CobsConfig(preset="cnb", cert_file=crt, key_file=pem_key, tpp_name="Star, a.s.")
    identity = load_identity(config)
    assert identity.roles == ("PSP_PI", "PSP_IC")
    # the extension as OpenSSL reads it from the PEM (an independent parser), when installed
    import shutil

    if shutil.which("openssl"):
        text = subprocess.run(["openssl", "x509", "-in", str(crt), "-noout", "-text"],
                              capture_output=True, text=True, encoding="utf-8",
                              check=True).stdout
        assert "qcStatements" in text or "1.3.6.1.5.5.7.1.3" in text


# The stand-in bank of tests/cobs/standin_bank: a bank written from the standard's texts only,
# so it imports nothing of cnbkit, and its drivers reach the client by its public names only.
STANDIN = Path(__file__).resolve().parent / "standin_bank"


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every import of ``path``, at any depth: (module, names); ``from . import`` as ``.``."""
    import ast

    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append(("." * node.level + (node.module or ""),
                          [alias.name for alias in node.names]))
    return found


def test_the_standin_bank_imports_nothing_of_cnbkit():
    for name in ("bank.py", "browser.py", "certs.py"):
        modules = [module for module, _ in _imports(STANDIN / name)]
        assert modules, name
        assert [m for m in modules if m.split(".")[0] == "cnbkit"] == [], name
        assert "cnbkit" not in (STANDIN / name).read_text(encoding="utf-8").replace(
            "cnbkit's", ""), f"{name} names cnbkit (an import by a string?)"


def test_the_standin_bank_serves_with_cnbkit_blocked(tmp_path):
    """``cnbkit`` cannot be imported in the subprocess: the bank still makes its certificates,
    serves, and refuses a token request without a client certificate (401
    ``unauthorized_client``)."""
    script = textwrap.dedent("""
        import json, sys
        from pathlib import Path
        sys.modules["cnbkit"] = None              # any import of cnbkit now fails
        sys.path.insert(0, sys.argv[1])
        import requests
        from standin_bank.bank import Bank, Variant
        from standin_bank.certs import make_pki
        pki = make_pki(Path(sys.argv[2]))
        bank = Bank(Variant(name="blocked"), pki).start()
        try:
            answer = requests.post(bank.idp + "/oauth2/token", data={}, timeout=30,
                                   verify=str(pki.ca_pem))
        finally:
            bank.stop()
        loaded = sorted(m for m, module in sys.modules.items()
                        if m.split(".")[0] == "cnbkit" and module is not None)
        print(json.dumps({"status": answer.status_code, "error": answer.json()["error"],
                          "loaded": loaded}))
    """)
    done = subprocess.run([sys.executable, "-c", script, str(STANDIN.parent), str(tmp_path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"status": 401, "error": "unauthorized_client", "loaded": []}


def test_the_standin_drivers_use_only_public_names():
    """``drive.py`` and ``variants.py`` import from public modules only (no ``_`` in the path)
    and only names those modules list in ``__all__``."""
    import importlib

    seen = 0
    for name in ("drive.py", "variants.py", "test_standin_bank.py", "conftest.py"):
        for module, names in _imports(STANDIN / name):
            if module.split(".")[0] != "cnbkit":
                continue
            assert not any(part.startswith("_") for part in module.split(".")), (name, module)
            public = set(importlib.import_module(module).__all__)
            assert set(names) <= public, (name, module, set(names) - public)
            seen += len(names)
    assert seen >= 5
