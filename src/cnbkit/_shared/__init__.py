"""What both of cnbkit's clients share, below them both: the market-data engine
(:mod:`cnbkit._engine`) and the PSD2 client (:mod:`cnbkit.cobs`) import it; it imports only
:mod:`cnbkit.errors`. Private: its names may change in any release (the clocks are public as
``cnbkit.Clock``, ``cnbkit.ManualClock``, ``cnbkit.SystemClock``).

::

    clock               what time it is: Prague, the Clock protocol, the system, shifted and
                        manual clocks, a clock from a setting
    currencies          currency codes as users write them ("EUR", "usd")
    dates               dates as users write them ("2019-05-17", date, datetime, Timestamp)
    deprecation         names that moved keep working for a release, with a FutureWarning
    faces               a package's public names, imported on first use and alone in dir()
    proxies             the proxy requests picks, and how messages show it (no credentials)
    proxy_failures      what a proxy's own answer means, for both clients
    retry_after         how long an answer asks to wait (its Retry-After header)
    tls                 a requests adapter whose trust is one SSLContext, never the environment's
    warnings_at_caller  a warning shown at the user's own line, however deep it is raised
"""
