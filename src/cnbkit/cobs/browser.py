"""Authorization in a browser, the redirect caught on this machine (RFC 8252, loopback).

:func:`authorize_in_browser` does what a desktop application does (and google-auth-oauthlib's
``run_local_server``): it listens on ``http://127.0.0.1:<port>/`` (a port of its own unless
given), opens the authorization URL with that address as ``redirect_uri``, waits for the
browser to come back, checks ``state``, exchanges the code and answers the browser with a short
page. The provider must accept the loopback address: register ``http://127.0.0.1/`` as a
redirect URI of a native application (RFC 8252 §7.3 lets any port match it; cnbkit's sandbox
does) or register the exact address with the ``port`` you pass.

Nothing but the redirect is accepted: other paths get 404, a request without ``code`` or
``error`` gets 400, and only loopback addresses are ever listened on. Where the browser cannot
reach the kernel (a notebook on JupyterHub, Binder or Colab), use the paste-the-URL widget of
:mod:`cnbkit.cobs.notebook` instead.

The listener is a :class:`RedirectCatcher` (it lives in ``cnbkit.cobs.loopback``, below the
client, because the authorization of payments, :mod:`cnbkit.cobs.signing`, catches the user's
return with it too; its names are documented here).

Example:
    >>> token = authorize_in_browser(cobs)  # doctest: +SKIP
    >>> token.scopes  # doctest: +SKIP
    ('aisp', 'pisp')
"""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING

from cnbkit.cobs.loopback import LOOPBACK_HOSTS, RedirectCatcher, is_loopback_redirect

if TYPE_CHECKING:
    from cnbkit.cobs.client import CobsClient
    from cnbkit.cobs.oauth import Token

__all__ = ["LOOPBACK_HOSTS", "RedirectCatcher", "authorize_in_browser", "is_loopback_redirect"]


def authorize_in_browser(client: CobsClient, *, port: int = 0, path: str = "/",
                         host: str = "127.0.0.1",
                         open_browser: Callable[[str], object] = webbrowser.open,
                         timeout: float = 300.0) -> Token:
    """Authorize ``client`` in the user's browser and catch the redirect on a loopback port
    (see the module doc); the token.

    Args:
        client: a :class:`~cnbkit.cobs.client.CobsClient` with a registered application.
        port: the port to listen on (0: a free one; register ``http://127.0.0.1/``).
        path: the redirect's path.
        host: ``127.0.0.1`` or ``::1``.
        open_browser: opens the URL for the user (:func:`webbrowser.open`).
        timeout: seconds to wait for the browser to come back.

    Raises:
        StateMismatch: the redirect's ``state`` is not this authorization's.
        OAuthError: the provider answered an error, or the browser did not come back in time.
    """
    with RedirectCatcher(host, port, path) as catcher:
        url = client.authorization_url(redirect_uri=catcher.redirect_uri)
        open_browser(url)
        redirect = catcher.wait(timeout)
    return client.fetch_token(redirect)
