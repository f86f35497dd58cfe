"""Authorization from a notebook, wherever the kernel runs.

On a laptop the browser can reach the kernel's machine, so the redirect is caught on a loopback
port (:func:`cnbkit.cobs.browser.authorize_in_browser`). On a hosted notebook (JupyterHub,
Binder, Colab) the kernel runs elsewhere and a loopback redirect never reaches it; there
:class:`AuthorizationWidget` shows the link to open and a field where the user pastes the
address the browser was sent back to (the configured ``redirect_uri``, whatever the page then
shows), and exchanges it on **Finish** (``state`` checked as always). :func:`authorize_in_notebook`
picks one of the two (``hosted=None`` guesses from the environment). The widget needs ipywidgets
(``pip install 'cnbkit[notebooks]'``).

Example:
    >>> widget = authorize_in_notebook(cobs, hosted=True)  # doctest: +SKIP
    >>> widget  # the link, the field and the Finish button  # doctest: +SKIP
"""

from __future__ import annotations

import html
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cnbkit.cobs.browser import authorize_in_browser
from cnbkit.errors import CnbError, ConfigError

if TYPE_CHECKING:
    from cnbkit.cobs.client import CobsClient
    from cnbkit.cobs.oauth import Token

__all__ = ["HOSTED_MARKERS", "AuthorizationWidget", "authorize_in_notebook", "is_hosted"]

#: Environment variables that say the kernel runs on a server the browser cannot reach
#: over loopback (JupyterHub, Binder, Colab, Kaggle, SageMaker).
HOSTED_MARKERS = ("JUPYTERHUB_API_URL", "JUPYTERHUB_SERVICE_PREFIX", "BINDER_SERVICE_HOST",
                  "BINDER_REQUEST", "COLAB_RELEASE_TAG", "KAGGLE_KERNEL_RUN_TYPE",
                  "SAGEMAKER_INTERNAL_IMAGE_URI")


def is_hosted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the kernel looks like it runs on a hosted notebook server.

    Example:
        >>> is_hosted({"JUPYTERHUB_API_URL": "http://hub:8081/hub/api"}), is_hosted({})
        (True, False)
    """
    env = os.environ if environ is None else environ
    return any(env.get(name) for name in HOSTED_MARKERS) or (
        environ is None and "google.colab" in sys.modules)


class AuthorizationWidget:
    """The paste-the-redirect authorization: a link, a text field and a **Finish** button.

    Attributes:
        url: the authorization URL (a fresh ``state``).
        link: the ipywidgets HTML that holds the link to the bank's page.
        redirect: the text field; ``redirect.value`` is what the user pasted.
        finish: the button; ``finish.click()`` runs the exchange, as a click does.
        status: the ipywidgets HTML that says what happened.
        token: the token once the exchange succeeded, else None.
        error: the last error (typed, secrets masked), else None.

    Example:
        >>> AuthorizationWidget(cobs)  # doctest: +SKIP
    """

    def __init__(self, client: CobsClient,
                 on_token: Callable[[Token], object] | None = None) -> None:
        try:
            import ipywidgets as w
        except ImportError:  # pragma: no cover - depends on the environment
            raise ConfigError("ipywidgets", None, "the authorization widget needs ipywidgets: "
                              "pip install 'cnbkit[notebooks]'") from None
        self.client = client
        self.on_token = on_token
        self.token: Token | None = None
        self.error: CnbError | None = None
        self.url = client.authorization_url()
        self.link = w.HTML(
            f'<p>1. <a href="{html.escape(self.url, quote=True)}" target="_blank" '
            'rel="noopener">Open the bank\'s authorization page</a> and approve.</p>'
            "<p>2. Paste the address your browser was sent back to (even if that page shows an "
            "error) and press Finish.</p>")
        self.redirect = w.Text(placeholder=str(client.config.redirect_uri or "redirect URL"),
                               description="Redirect", layout=w.Layout(width="100%"))
        self.finish = w.Button(description="Finish", button_style="primary")
        self.status = w.HTML("")
        self.finish.on_click(self._finish)
        self.box = w.VBox([self.link, self.redirect, self.finish, self.status])

    def _finish(self, _: Any = None) -> None:
        pasted = str(self.redirect.value or "").strip()
        if not pasted:
            self.status.value = "<b>Paste the address first.</b>"
            return
        try:
            token = self.client.fetch_token(pasted)
        except CnbError as exc:
            self.error = exc
            self.status.value = f"<b>Not authorized:</b> {html.escape(str(exc))}"
            return
        self.token, self.error = token, None
        self.redirect.value = ""  # the code is used up; do not leave it on screen
        self.status.value = (f"Authorized: scopes {html.escape(' '.join(token.scopes))}, "
                             f"the token expires in {int(token.expires_in())} s.")
        if self.on_token is not None:
            self.on_token(token)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        state = "authorized" if self.token is not None else "waiting for the redirect"
        return f"AuthorizationWidget({state})"


def authorize_in_notebook(client: CobsClient, *, hosted: bool | None = None,
                          **browser: Any) -> Token | AuthorizationWidget:
    """Authorize from a notebook: on a hosted server (``hosted``; None guesses with
    :func:`is_hosted`) the :class:`AuthorizationWidget` to display; otherwise the token from
    :func:`~cnbkit.cobs.browser.authorize_in_browser` (``browser`` are its arguments).

    Example:
        >>> result = authorize_in_notebook(cobs)  # doctest: +SKIP
    """
    if hosted is None:
        hosted = is_hosted()
    if hosted:
        return AuthorizationWidget(client)
    return authorize_in_browser(client, **browser)
