"""cnbkit's engine: what turns a call into a frame, private (its names may change in any
release). Users reach it through :mod:`cnbkit` and the group modules.

The path of a call, module by module (``docs/architecture.md`` tells it in full)::

    params              arguments checked and written as the API takes them (one call's,
                        and a history's options)
    planners, ranges    a history's range checked and cut into calls
    plan, call          Plan: the calls and what becomes of their rows; one request as
                        data (Call, Query, RowFilter)
    client              Client: settings, clock, ``get`` (a plan of one call) and
                        ``collect``, the one pipeline
    execute             a plan's calls run: the cache, then the network in a bounded pool
    transport, cache    requests, retries, the HTTP cache and its expiry
    decode, columns     bytes to checked records (msgspec) to typed numpy columns
    origin              the provenance every frame carries
    stitch, notices     many answers as one table; warnings about what is easy to misread
    settings, clock     settings from arguments and the environment; what "today" is
    history             ``cnbkit.history()`` and ``cnbkit.plan()``
    caller_warning      warnings that point at the user's own line
"""
