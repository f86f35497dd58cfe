"""cnbkit's engine: what turns a market-data call into a frame, private (its names may change
in any release). Users reach it through :mod:`cnbkit`, the group modules, :mod:`cnbkit.wide`
and :mod:`cnbkit.backends`; it imports nothing of them, only :mod:`cnbkit.catalog`,
:mod:`cnbkit.errors` and the shared leaf (:mod:`cnbkit._shared`, :mod:`cnbkit._os`).

The path of a call, module by module (``docs/architecture.md`` tells it in full)::

    history             cnbkit.plan() (a group by its name) and run_history(), what every
                        group's history() runs: client.collect(plan)
    planners, ranges    a history's range checked and cut into calls; GROUPS, what each
                        group's history takes
    params              one call's arguments checked and written as the API takes them
    plan, call          Plan: the calls and what becomes of their rows; one request as
                        data (Call, Query, RowFilter)
    client              Client: settings, clock, get (a plan of one call) and collect, the
                        one pipeline
    execute             a plan's calls run: the cache, then the network in a bounded pool
    transport, cache    requests, retries, the HTTP cache and its expiry
    tls, failures, peer the certificates trusted; what retrying cannot heal, said with its fix
    decode, columns     bytes to checked records (msgspec) to typed numpy columns
    provenance          the record of where a frame's rows came from
    stitch, notices     many answers as one table; warnings about what is easy to misread
    frames              the columns as a pandas, polars or Arrow frame
    settings            settings from arguments and the environment
    docstrings          the group functions' docstrings completed from the catalog
"""
