"""Data producers of the market-data sandbox, one small module per job.

``fixing`` (the real CNB fixing from the ``cnb-rates`` wheel), ``names`` and ``collation``
(country and currency names, Czech sort order), ``calendar`` (business days), ``averages``
(averages computed from the fixing); ``facts`` (the one table of dated facts), ``policy`` (the
rate paths they make), ``expectations`` (what the market expected of them from what it knew),
``liquidity`` and ``period_ends`` (the excess liquidity and the deposits at the CNB), and one
module per synthetic series (``czeonia``, ``pribor``, ``forward``, ``fxrates``, ``omo``,
``skd``). docs/sandbox.md states their rules on one page.
"""
