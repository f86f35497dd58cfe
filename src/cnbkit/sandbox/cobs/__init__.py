"""The COBS (PSD2) sandbox: HTTPS on loopback that requires a client certificate.

At start it generates a test PKI (CA, server and client certificates; see
:mod:`cnbkit.sandbox.cobs.pki`) in a temporary directory, and serves registration in the CNB's
dialect (``/cobs/<v>/applications``) and the standard's (``/oauth2/register``),
``/oauth/authorize``, ``/oauth/token``, ``/oauth/revoke``, the
page users sign on (``/sign/…``) and the AISP/PISP/CISP API for COBS 2.0 and 5.0 (see
:mod:`cnbkit.sandbox.cobs.app`), under the CNB's root (``/cobs/<v>``) and under a root per
area (:meth:`CobsSandbox.api_roots`). What the standard leaves to each bank (optional
authorization steps, a federated POST login, no ``pollInterval``, the standard's or the CNB's
standing-order limits) is played per application or per order
(:meth:`CobsApp.set_variant`, :mod:`cnbkit.sandbox.cobs.variants`). Connections without a
client certificate, with one from another CA, or with an expired one fail the TLS handshake.

``CobsSandbox(cnb_sandbox=True)`` plays the CNB's public sandbox instead
(:mod:`cnbkit.sandbox.cobs.public`): no client certificate needed (one that is presented must
still be the sandbox CA's), fixed tokens ``token-aisp``/``token-pisp``/``token-no-scope`` and
canned certificates picked by ``X-Client-Certificate``.

Example:
    >>> with CobsSandbox() as sandbox:  # doctest: +SKIP
    ...     print(sandbox.api_url("5.0"), sandbox.ca_path, sandbox.client_p12_path)
    ...     sandbox.count("/oauth/token", method="POST")
"""

from __future__ import annotations

import logging
import re
import shutil
import ssl
import tempfile
from pathlib import Path

from cnbkit.sandbox.cobs.app import VERSIONS, CobsApp
from cnbkit.sandbox.cobs.data import SandboxBank
from cnbkit.sandbox.cobs.pki import Pki, generate_pki
from cnbkit.sandbox.cobs.variants import BankVariant
from cnbkit.sandbox.httpserver import READ_TIMEOUT, LoopbackServer, Reply, Request
from cnbkit.sandbox.served import Served

__all__ = ["BankVariant", "CobsApp", "CobsSandbox", "SandboxBank", "SignPathFilter"]


def server_ssl_context(pki: Pki, *, certificate_optional: bool = False) -> ssl.SSLContext:
    """The sandbox's server side: its certificate, and client certificates required from its CA
    (asked for but optional with ``certificate_optional``, the CNB's public sandbox; one that
    is presented must still verify).

    This is the only place where server-side verification settings live.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(pki.server_cert, pki.server_key)
    context.verify_mode = ssl.CERT_OPTIONAL if certificate_optional else ssl.CERT_REQUIRED
    context.load_verify_locations(cafile=str(pki.ca_cert))
    return context


class SignPathFilter(logging.Filter):
    """The sandbox's access log (logger ``cnbkit.sandbox``) never records a signId or the
    ticket of a signing page: the path segment after ``/sign/`` is masked, as a bank's log
    would mask it.

    Example:
        >>> record = logging.LogRecord("cnbkit.sandbox", 10, "", 0, '"GET %s"', ("/sign/abc",),
        ...                            None)
        >>> SignPathFilter().filter(record), record.getMessage()
        (True, '"GET /sign/***"')
    """

    _PATH = re.compile(r"(/sign/)[^/?#\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = str(record.msg)
        if "/sign/" in message:
            record.msg, record.args = self._PATH.sub(r"\1***", message), None
        return True


def _mask_sign_paths() -> None:
    """Attach :class:`SignPathFilter` to the sandbox's logger (once per process)."""
    logger = logging.getLogger("cnbkit.sandbox")
    if not any(isinstance(f, SignPathFilter) for f in logger.filters):
        logger.addFilter(SignPathFilter())


#: The COBS error code of each answer the server gives itself (the standard's error shape,
#: ``{"errors": [{"error", "message"}]}``; 501 is in its list of statuses, the rest are HTTP's).
_SERVER_ERRORS = {
    400: ("BAD_REQUEST", "the request cannot be read (its Content-Length, Transfer-Encoding "
                         "or request line)"),
    408: ("REQUEST_TIMEOUT", "the request did not arrive in time"),
    413: ("PAYLOAD_TOO_LARGE", "the request body is larger than the bank accepts"),
    414: ("URI_TOO_LONG", "the request line is too long"),
    431: ("HEADERS_TOO_LARGE", "the request headers are too long"),
    500: ("INTERNAL_SERVER_ERROR", None),
    501: ("NOT_IMPLEMENTED", "the request method is not implemented"),
    503: ("SERVICE_UNAVAILABLE", None),
}


def _fault_reply(request: Request, status: int) -> Reply:
    """An answer the server gives itself (an injected 500/503, a request it refused), in the
    COBS error shape, not to be cached."""
    code, message = _SERVER_ERRORS.get(status, ("ERROR", None))
    entry = {"error": code} if message is None else {"error": code, "message": message}
    headers = {"Cache-Control": "no-store"} if status < 500 else {}
    return Reply.json(status, {"errors": [entry]}, headers)


class CobsSandbox(Served):
    """A COBS sandbox (a ``with`` block, or ``start()`` / ``stop()``: the lifecycle of
    :class:`~cnbkit.sandbox.served.Served`, the market-data :class:`~cnbkit.sandbox.Sandbox`'s
    too; ``url`` is :attr:`base_url`).

    Args:
        port: 0 picks a free port.
        token_lifetime: seconds an access token lives.
        max_page_size: the largest page served.
        workdir: where to write the PKI; a new temporary directory (removed on stop) when None.
        cnb_sandbox: play the CNB's public sandbox (see the module doc).
        read_timeout: seconds a connection has to send a whole request, or to finish its TLS
            handshake, or may stay idle (``READ_TIMEOUT`` of ``cnbkit.sandbox.httpserver``, 20 s).

    Attributes (after start): ``base_url``, ``authorize_url``, ``token_url``, ``ca_path``,
    ``client_cert_path``, ``client_key_path``, ``client_p12_path``, ``client_p12_password``,
    ``aisp_cert_path``/``aisp_key_path`` (PSP_AI only), ``cisp_cert_path``/``cisp_key_path``
    (PSP_IC only: the CISP balance check), ``expired_cert_path``/
    ``expired_key_path``, ``foreign_cert_path``/``foreign_key_path`` (another CA), ``server``
    (the :class:`LoopbackServer`), ``app`` (the :class:`CobsApp`, with test switches) and
    ``workdir``.
    """

    versions = VERSIONS

    def __init__(self, *, port: int = 0, token_lifetime: int = 3600, max_page_size: int = 100,
                 workdir: str | Path | None = None, cnb_sandbox: bool = False,
                 read_timeout: float = READ_TIMEOUT) -> None:
        _mask_sign_paths()
        self._own_dir = workdir is None
        self.cnb_sandbox = cnb_sandbox
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="cnbkit-cobs-"))
        self.pki: Pki = generate_pki(self.workdir)
        self.app = CobsApp(token_lifetime=token_lifetime, max_page_size=max_page_size,
                           cnb_sandbox=cnb_sandbox)
        context = server_ssl_context(self.pki, certificate_optional=cnb_sandbox)
        self.server = LoopbackServer(self.app, port=port, ssl_context=context,
                                     fault_reply=_fault_reply, read_timeout=read_timeout)

    # -- lifecycle (start, the with block, log, count, faults: Served's) ----------------------
    def stop(self) -> None:
        """Stop the server, free the port and remove the PKI's temporary directory."""
        super().stop()
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __repr__(self) -> str:
        mode = ", cnb_sandbox=True" if self.cnb_sandbox else ""
        return f"CobsSandbox(base_url={self.base_url!r}, workdir={str(self.workdir)!r}{mode})"

    # -- URLs -----------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self.server.origin

    @property
    def url(self) -> str:
        """The sandbox's origin, ``https://127.0.0.1:PORT`` (:attr:`base_url`)."""
        return self.server.origin

    def api_url(self, version: str = "5.0") -> str:
        """``{base_url}/cobs/{version}``: the CNB's layout, every area under one root."""
        if version not in VERSIONS:
            raise ValueError(f"version must be one of {VERSIONS}")
        return f"{self.base_url}/cobs/{version}"

    def api_roots(self, version: str = "5.0") -> dict[str, str]:
        """The separate roots of each area, as providers that document them apart serve them
        (``{"aisp": …/aisp/{version}, "pisp": …, "cisp": …}``): a root serves its own area's
        operations (and registration, standing-order detail and consents), 404 the others."""
        if version not in VERSIONS:
            raise ValueError(f"version must be one of {VERSIONS}")
        return {area: f"{self.base_url}/{area}/{version}" for area in ("aisp", "pisp", "cisp")}

    @property
    def authorize_url(self) -> str:
        return f"{self.base_url}/oauth/authorize"

    @property
    def token_url(self) -> str:
        return f"{self.base_url}/oauth/token"

    @property
    def registration_url(self) -> str:
        """Registration as the standard has it (PDF §1.4.1, ``/oauth2/register``; the CNB's
        own is ``{api_url}/applications``)."""
        return f"{self.base_url}/oauth2/register"

    @property
    def revoke_url(self) -> str:
        """Token revocation (PDF §1.4.6), beside the CNB's other OAuth endpoints."""
        return f"{self.base_url}/oauth/revoke"

    # -- files ----------------------------------------------------------------------------------
    @property
    def ca_path(self) -> Path:
        return self.pki.ca_cert

    @property
    def client_cert_path(self) -> Path:
        return self.pki.client_cert

    @property
    def client_key_path(self) -> Path:
        return self.pki.client_key

    @property
    def client_p12_path(self) -> Path:
        return self.pki.client_p12

    @property
    def client_p12_password(self) -> str:
        return self.pki.client_p12_password

    @property
    def aisp_cert_path(self) -> Path:
        return self.pki.aisp_cert

    @property
    def aisp_key_path(self) -> Path:
        return self.pki.aisp_key

    @property
    def cisp_cert_path(self) -> Path:
        return self.pki.cisp_cert

    @property
    def cisp_key_path(self) -> Path:
        return self.pki.cisp_key

    @property
    def expired_cert_path(self) -> Path:
        return self.pki.expired_cert

    @property
    def expired_key_path(self) -> Path:
        return self.pki.expired_key

    @property
    def foreign_cert_path(self) -> Path:
        return self.pki.foreign_cert

    @property
    def foreign_key_path(self) -> Path:
        return self.pki.foreign_key

    def paths(self) -> dict[str, str]:
        """Every file path by name (for printing from ``cnbkit sandbox``)."""
        return {
            "ca": str(self.ca_path),
            "client_cert": str(self.client_cert_path),
            "client_key": str(self.client_key_path),
            "client_p12": str(self.client_p12_path),
            "aisp_cert": str(self.aisp_cert_path),
            "aisp_key": str(self.aisp_key_path),
            "cisp_cert": str(self.cisp_cert_path),
            "cisp_key": str(self.cisp_key_path),
            "expired_cert": str(self.expired_cert_path),
            "expired_key": str(self.expired_key_path),
            "foreign_cert": str(self.foreign_cert_path),
            "foreign_key": str(self.foreign_key_path),
        }
