"""The certificate authorities of a bank's network, made by trustme for the tests.

* the *origin* CA signs the HTTPS sandbox's certificate: a CA that certifi and the system's
  store lack, as any CA unknown to Python looks;
* the *company* CA is the root of the inspecting proxy (proxy.py signs the certificate it
  shows for every host with it), as a bank's TLS inspection does: IT installs it in the
  system's store, or hands out a bundle with it.

Their files (PEM) are written to one folder; :func:`subject` reads a CA's name with the
``cryptography`` package, the judge of the issuer that cnbkit's messages name.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import trustme
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


@dataclass(frozen=True)
class Pki:
    """The files of the network's CAs."""

    folder: Path
    origin: trustme.CA
    company: trustme.CA

    @property
    def origin_ca(self) -> Path:
        """The origin CA's certificate (PEM): what trusts the HTTPS sandbox directly."""
        return self.folder / "origin-ca.pem"

    @property
    def company_ca(self) -> Path:
        """The company CA's certificate (PEM): the bundle IT hands out."""
        return self.folder / "company-ca.pem"

    @property
    def company_key(self) -> Path:
        return self.folder / "company-ca.key"

    @property
    def signing_key(self) -> Path:
        """The key proxy.py puts in every certificate it makes."""
        return self.folder / "signing.key"

    def server_context(self, *hosts: str) -> ssl.SSLContext:
        """A server context with a certificate of the origin CA for ``hosts``."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.origin.issue_cert(*hosts).configure_cert(context)
        return context

    def company_server_files(self, host: str) -> tuple[Path, Path]:
        """(certificate chain, key) of a certificate of the company CA for ``host`` (an
        ``https://`` proxy's own)."""
        leaf = self.company.issue_cert(host)
        chain, key = self.folder / f"{host}-chain.pem", self.folder / f"{host}.key"
        chain.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
        key.write_bytes(leaf.private_key_pem.bytes())
        return chain, key


def make_pki(folder: Path) -> Pki:
    """Both CAs and their files in ``folder``."""
    origin = trustme.CA(organization_name="Origin Sandbox",
                        organization_unit_name="cnbkit tests")
    company = trustme.CA(organization_name="Example Bank a.s.",
                         organization_unit_name="TLS inspection",
                         key_type=trustme.KeyType.RSA)
    pki = Pki(folder, origin, company)
    origin.cert_pem.write_to_path(str(pki.origin_ca))
    company.cert_pem.write_to_path(str(pki.company_ca))
    company.private_key_pem.write_to_path(str(pki.company_key))
    signing = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pki.signing_key.write_bytes(signing.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()))
    return pki


def subject(ca_file: Path) -> str:
    """A CA certificate's subject as RFC 4514 writes it, read by ``cryptography``."""
    return x509.load_pem_x509_certificate(ca_file.read_bytes()).subject.rfc4514_string()
