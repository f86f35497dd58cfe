"""The one PSD2 QCStatement codec of cnbkit (cnbkit._shared.qcstatements, on pyasn1), judged by
what it did not write: the statement of tests/cobs/test_independence.py written byte by byte
from ETSI TS 119 495 and RFC 3739, OpenSSL's ASN.1 parser, and the stand-in bank's own
transcription of the ETSI type (tests/cobs/standin_bank/certs.py), each way."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from cnbkit._shared import qcstatements
from cnbkit._shared.qcstatements import Psd2Statement, certificate_roles, decode, encode
from cnbkit.sandbox.cobs.pki import issue_client_cert, new_ca

from ..cobs.standin_bank.certs import make_pki, read_psd2_roles
from ..cobs.test_independence import QC_STATEMENTS


def test_the_statement_written_from_the_standard_byte_by_byte() -> None:
    """QcCompliance, then PSD2 with PSP_PI and PSP_IC: the judge's bytes, both ways."""
    written = encode(["PSP_PI", "PSP_IC"], "Czech National Bank", "CZ-CNB", web=False)
    assert written == QC_STATEMENTS
    assert decode(QC_STATEMENTS) == Psd2Statement(("PSP_PI", "PSP_IC"), "Czech National Bank",
                                                  "CZ-CNB")


def test_a_certificate_the_sandbox_issues_as_openssl_reads_it(tmp_path: Path) -> None:
    """The QCStatements of a sandbox client certificate, parsed by ``openssl asn1parse``:
    QcCompliance, QcType web, and the PSD2 statement with its roles and authority."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line is not installed")
    cert, _ = issue_client_cert(new_ca("test CA"), ("PSP_AI", "PSP_PI"))
    value = cert.extensions.get_extension_for_oid(
        x509.ObjectIdentifier(qcstatements.QC_STATEMENTS_OID)).value
    assert isinstance(value, x509.UnrecognizedExtension)
    der = tmp_path / "qcstatements.der"
    der.write_bytes(value.value)
    done = subprocess.run(["openssl", "asn1parse", "-inform", "DER", "-in", str(der)],
                          capture_output=True, text=True, encoding="utf-8", check=True)
    fields = [line.split(":", 3)[-1].strip() for line in done.stdout.splitlines()
              if "OBJECT" in line or "UTF8STRING" in line]
    assert fields == ["0.4.0.1862.1.1", "0.4.0.1862.1.6", "0.4.0.1862.1.6.3", "0.4.0.19495.2",
                      "0.4.0.19495.1.3", "PSP_AI", "0.4.0.19495.1.2", "PSP_PI",
                      "Czech National Bank", "CZ-CNB"]
    assert certificate_roles(cert) == ("PSP_AI", "PSP_PI")


def test_the_standin_banks_transcription_and_cnbkits_read_each_other(tmp_path: Path) -> None:
    """The stand-in bank's certificate read by cnbkit, and a sandbox certificate read by the
    stand-in bank: the two declarations of the ETSI type agree."""
    pki = make_pki(tmp_path / "standin", roles=("PSP_IC", "PSP_AI"))
    standin = x509.load_pem_x509_certificate(pki.client_cert.read_bytes())
    assert certificate_roles(standin) == ("PSP_IC", "PSP_AI")
    ours, _ = issue_client_cert(new_ca("test CA"), ("PSP_PI",))
    org, roles = read_psd2_roles(ours.public_bytes(serialization.Encoding.DER))
    assert (org, roles) == ("PSDCZ-CNB-12345678", ("PSP_PI",))


def test_other_statements_are_skipped_and_unknown_roles_kept_dotted() -> None:
    assert decode(bytes.fromhex("3000")) is None  # no statement at all
    compliance_only = bytes.fromhex("300a3008060604008e460101")
    assert decode(compliance_only) is None
    # a role the standard may add later (0.4.0.19495.1.9): named by its OID
    future = encode(["PSP_AI"], "N", "I", compliance=False, web=False).replace(
        bytes.fromhex("0607040081982701" "03"), bytes.fromhex("0607040081982701" "09"))
    assert decode(future) == Psd2Statement(("0.4.0.19495.1.9",), "N", "I")


@pytest.mark.parametrize("cut", [1, 2, 10, 40, 90])
def test_a_truncated_statement_is_a_value_error(cut: int) -> None:
    with pytest.raises(ValueError, match="not a QCStatements value"):
        decode(QC_STATEMENTS[:-cut])


def test_trailing_bytes_and_a_psd2_statement_without_info_are_value_errors() -> None:
    with pytest.raises(ValueError):
        decode(QC_STATEMENTS + b"\x00")
    no_info = bytes.fromhex("300a" "3008" "0606040081982702")
    with pytest.raises(ValueError, match="no statementInfo"):
        decode(no_info)


def test_what_cannot_be_written_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown PSD2 role 'PSP_XX'"):
        encode(["PSP_XX"], "N", "I")
    with pytest.raises(ValueError, match="nca_id must be 1 to 256 characters"):
        encode(["PSP_AI"], "N", "")
