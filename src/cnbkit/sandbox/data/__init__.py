"""Data producers of the market-data sandbox, one small module per job.

``fixing`` (the real CNB fixing from the ``cnb-rates`` wheel), ``names`` and ``collation``
(country and currency names, Czech sort order), ``calendar`` (business days), ``policy``
(the policy-rate path), ``averages`` (averages computed from the fixing) and one module per
synthetic series (``czeonia``, ``pribor``, ``forward``, ``fxrates``, ``omo``, ``skd``).
"""
