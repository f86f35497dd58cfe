"""What cnbkit needs of the operating system, private (its names may change in any release):
the same behaviour on Linux, macOS and Windows, each system's way chosen by a ``system``
argument so that every way can be tested on any system. Nothing here imports cnbkit but
:mod:`cnbkit.errors`.

::

    systems        which system this is; a loopback server that owns its port on every system
    windows_acl    Windows access-control lists (the user's SID, a file created private)
    private_files  files only their owner may read (0600 on POSIX, an ACL on Windows)
    stopping       the signals that mean "stop", a child process stopped with its parent
    bundled        the notebooks the wheel ships, copied into a folder the user owns
"""
