"""Files only their owner may read: the COBS token file and the temporary copy of a client key.

One job, two ways, chosen by ``system`` (default: the system running,
:data:`cnbkit._os.systems.SYSTEM`):

* ``"posix"`` (Linux, macOS): mode 0600. A new file is opened with ``O_CREAT | O_EXCL |
  O_NOFOLLOW`` and mode 0600, then ``fchmod``-ed to 0600 on its descriptor, so that no umask
  can widen it. A file is private when its mode gives the group and others nothing
  (``mode & 0o077 == 0``).
* ``"windows"``: permission bits mean nothing there (``st_mode`` of every writable file is
  0o666). A new file is created with a protected ACL that grants the current user alone (from
  the first byte: :func:`cnbkit._os.windows_acl.create_file`); a file is private when its ACL lets
  no account but the user, ``SYSTEM`` and ``Administrators`` open it and one of those owns it.

Asking one system's way of another (a Windows ACL on Linux) raises
:class:`~cnbkit._os.windows_acl.UnsupportedSystem`. The Windows way's three system calls (the
user's SID, a file's ACL, creating a file with an ACL) come from a :class:`WindowsCalls`,
:data:`NATIVE` by default, so that its decisions can be followed on any system with ACLs that
Windows printed.

Example:
    >>> path = Path(tempfile.mkdtemp()) / "secret.json"
    >>> with create(path) as handle:
    ...     _ = handle.write(b"{}")
    >>> problem(path) is None
    True
    >>> with temporary(b"key material", prefix="cnbkit-demo-") as name:
    ...     name.read_bytes()
    b'key material'
    >>> name.exists()
    False
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from . import windows_acl
from .systems import SYSTEM, System
from .windows_acl import UnsupportedSystem

__all__ = ["NATIVE", "SYSTEM", "System", "WindowsCalls", "create", "fix", "problem",
           "temporary"]

@dataclass(frozen=True)
class WindowsCalls:
    """The system calls the Windows way makes (see :mod:`cnbkit._os.windows_acl`)."""

    user_sid: Callable[[], str]
    file_sddl: Callable[[Path], str]
    create_file: Callable[[Path, str], int]


#: The real calls (they raise :class:`UnsupportedSystem` outside Windows).
NATIVE = WindowsCalls(windows_acl.user_sid, windows_acl.file_sddl, windows_acl.create_file)


def _create_posix(path: Path) -> int:
    if sys.platform != "win32":  # os.fchmod and O_NOFOLLOW do not exist on Windows
        flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags, 0o600)
        try:
            os.fchmod(fd, 0o600)  # the umask may narrow the mode, never widen it: be exact
        except BaseException:
            os.close(fd)
            os.unlink(path)
            raise
        return fd
    raise UnsupportedSystem("POSIX file modes do not exist on Windows")


def create(path: str | os.PathLike[str], *, system: System = SYSTEM,
           windows: WindowsCalls = NATIVE) -> io.BufferedWriter:
    """Create a new file at ``path`` that only the current user may read, and open it for
    writing bytes. Like ``O_EXCL``: fails (:class:`FileExistsError`) when anything, a link
    included, is at ``path`` already.

    Example:
        >>> with create(Path(tempfile.mkdtemp()) / "t.json") as handle:
        ...     handle.write(b"{}")
        2
    """
    target = Path(path)
    if system == "posix":
        fd = _create_posix(target)
    elif system == "windows":
        fd = windows.create_file(target, windows_acl.private_sddl(windows.user_sid()))
    else:
        raise ValueError(f"system must be 'posix' or 'windows', not {system!r}")
    return os.fdopen(fd, "wb")


def _posix_problem(path: Path) -> str | None:
    mode = stat.S_IMODE(path.lstat().st_mode)
    if mode & 0o077:
        return f"has permissions {mode:04o}, wider than 0600, so others could read it"
    return None


def windows_problem(sddl: str, user: str) -> str | None:
    """Why a file whose ACL is ``sddl`` is not private to ``user`` (a SID), or None."""
    readers = windows_acl.others(sddl, user)
    if readers:
        return (f"can be opened by {', '.join(readers)} besides you, so others could read it "
                "(its access-control list)")
    return None


def problem(path: str | os.PathLike[str], *, system: System = SYSTEM,
            windows: WindowsCalls = NATIVE) -> str | None:
    """Why others could read the file at ``path`` (a sentence starting with a verb), or None
    when it is private. The file must exist.

    Example:
        >>> path = Path(tempfile.mkdtemp()) / "t.json"
        >>> with create(path) as handle:
        ...     _ = handle.write(b"{}")
        >>> problem(path) is None
        True
    """
    target = Path(path)
    if system == "posix":
        return _posix_problem(target)
    if system == "windows":
        return windows_problem(windows.file_sddl(target), windows.user_sid())
    raise ValueError(f"system must be 'posix' or 'windows', not {system!r}")


def fix(path: str | os.PathLike[str], *, system: System = SYSTEM) -> str:
    """What the user can do about a file that is not private (a sentence fragment).

    Example:
        >>> fix("/home/me/tokens.json", system="posix")
        "run 'chmod 600 /home/me/tokens.json' or delete it"
    """
    if system == "posix":
        return f"run 'chmod 600 {path}' or delete it"
    return (f'delete it (cnbkit writes the next one readable by you alone), or run '
            f'\'icacls "{path}" /inheritance:r /grant:r "%USERNAME%:F"\' and remove the other '
            "accounts it lists")


@contextlib.contextmanager
def temporary(data: bytes, *, prefix: str = "cnbkit-", suffix: str = "",
              system: System = SYSTEM, windows: WindowsCalls = NATIVE) -> Iterator[Path]:
    """A new private file holding ``data`` in the temporary directory, for an API that reads
    only files (``ssl.SSLContext.load_cert_chain``); removed when the block ends, however it
    ends (an exception, Ctrl-C). Only a killed process leaves it behind, so put nothing in it
    that is useful alone (``cnbkit.cobs.tls`` writes the key encrypted with a one-time
    password that stays in memory).
    """
    path = Path(tempfile.gettempdir()) / f"{prefix}{secrets.token_hex(12)}{suffix}"
    handle = create(path, system=system, windows=windows)  # nothing to remove if this fails
    try:
        with handle:
            handle.write(data)
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
