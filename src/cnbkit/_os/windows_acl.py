"""Windows access-control lists for cnbkit's private files (the COBS token file, the temporary
copy of a client key).

On Windows a file's permission bits say nothing about who may read it: ``os.stat`` reports
``0o666`` for every writable file, whatever its ACL. Its discretionary ACL (DACL) decides.
This module

* builds the security descriptor of a private file, in SDDL (the text form Windows itself
  prints, the same in every language): a protected DACL, so nothing is inherited from the
  folder, with one entry, full control for the current user (:func:`private_sddl`);
* judges a file's descriptor in SDDL and names every other account that may open it
  (:func:`others`): anyone but the current user, ``SYSTEM`` and the ``Administrators`` group
  (who can take any file anyway, as root can on Linux);
* and, on Windows only, finds the current user's SID (:func:`user_sid`), reads a file's
  descriptor as SDDL (:func:`file_sddl`) and creates a file with a given descriptor
  (:func:`create_file`: ``CreateFileW`` with ``SECURITY_ATTRIBUTES``, so the file never exists
  with a wider ACL, not even empty). These go through ``ctypes`` to ``advapi32`` and
  ``kernel32``: nothing to install beyond Python. Elsewhere they raise
  :class:`UnsupportedSystem`.

Example:
    >>> private_sddl("S-1-5-21-1-2-3-1001")
    'D:P(A;;FA;;;S-1-5-21-1-2-3-1001)'
    >>> others("O:S-1-5-21-1-2-3-1001D:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)"
    ...        "(A;ID;0x1200a9;;;BU)(A;ID;FA;;;S-1-5-21-1-2-3-1001)", "S-1-5-21-1-2-3-1001")
    ['Users (BU)']
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Ace",
    "Descriptor",
    "UnsupportedSystem",
    "create_file",
    "file_sddl",
    "others",
    "parse",
    "private_sddl",
    "user_sid",
]


class UnsupportedSystem(OSError):
    """An operating-system call asked of a system that does not have it (a Windows ACL on
    Linux, a POSIX mode on Windows)."""


#: Well-known SIDs as SDDL writes them, both ways (the abbreviation and the numeric form).
_ALIASES = {
    "SY": "S-1-5-18", "BA": "S-1-5-32-544", "OW": "S-1-3-4", "CO": "S-1-3-0", "CG": "S-1-3-1",
    "WD": "S-1-1-0", "AU": "S-1-5-11", "BU": "S-1-5-32-545", "IU": "S-1-5-4", "NU": "S-1-5-2",
    "AN": "S-1-5-7", "BG": "S-1-5-32-546", "AC": "S-1-15-2-1", "LS": "S-1-5-19",
    "NS": "S-1-5-20", "PU": "S-1-5-32-547", "RD": "S-1-5-32-555",
}
#: What an account is called in messages (SDDL's abbreviation stays beside it).
_NAMES = {
    "S-1-5-18": "SYSTEM", "S-1-5-32-544": "Administrators", "S-1-3-4": "OWNER RIGHTS",
    "S-1-1-0": "Everyone", "S-1-5-11": "Authenticated Users", "S-1-5-32-545": "Users",
    "S-1-5-4": "INTERACTIVE", "S-1-5-2": "NETWORK", "S-1-5-7": "ANONYMOUS LOGON",
    "S-1-5-32-546": "Guests", "S-1-15-2-1": "ALL APPLICATION PACKAGES",
    "S-1-5-19": "LOCAL SERVICE", "S-1-5-20": "NETWORK SERVICE", "S-1-5-32-547": "Power Users",
    "S-1-5-32-555": "Remote Desktop Users",
}
_ABBREVIATION = {sid: short for short, sid in _ALIASES.items()}
#: Accounts that may always hold a private file besides the user: the system itself and the
#: machine's administrators (both can take ownership of any file).
_TRUSTED = frozenset({"S-1-5-18", "S-1-5-32-544"})
#: SIDs that are placeholders for inheritance and never stand in anyone's token.
_PLACEHOLDERS = frozenset({"S-1-3-0", "S-1-3-1"})
#: ACE types that grant access (plain, object, callback, callback object).
_GRANTING = frozenset({"A", "OA", "XA", "ZA"})
_SID = re.compile(r"[A-Z]{2}|S(?:-\d+)+")
_HEADER = re.compile(
    rf"(?:O:(?P<owner>{_SID.pattern}))?(?:G:(?P<group>{_SID.pattern}))?"
    r"(?:D:(?P<flags>NO_ACCESS_CONTROL|[A-Z]*))?")


@dataclass(frozen=True)
class Ace:
    """One access-control entry, as SDDL writes it: ``(type;flags;rights;;;sid)``.

    Attributes:
        type: ``A`` allowed, ``D`` denied, ``OA``/``XA``/``ZA`` other allowed forms, ...
        flags: two-letter flags (``ID`` inherited, ``IO`` inherit only, ``OI``, ``CI``, ...).
        rights: the access mask as written (``FA``, ``0x1200a9``, ``GRGW``, ...).
        sid: the account, normalised to its numeric form (``SY`` becomes ``S-1-5-18``).
    """

    type: str
    flags: tuple[str, ...]
    rights: str
    sid: str

    @property
    def grants(self) -> bool:
        """True when the entry gives some access to the object it sits on."""
        return (self.type in _GRANTING and "IO" not in self.flags
                and self.rights not in ("", "0", "0x0"))


@dataclass(frozen=True)
class Descriptor:
    """A security descriptor's owner and DACL (``dacl`` None: a NULL DACL, open to all)."""

    owner: str | None
    dacl: tuple[Ace, ...] | None


def _sid(text: str) -> str:
    return _ALIASES.get(text, text)


def _split_aces(text: str, sddl: str) -> list[str]:
    """The ``(...)`` groups at depth 0 (a conditional ACE nests parentheses)."""
    groups: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0:
                start = index + 1
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                groups.append(text[start:index])
            if depth < 0:
                break
        elif depth == 0:
            break  # a new section (S: for the SACL) starts here
    if depth != 0:
        raise ValueError(f"unbalanced parentheses in the security descriptor {sddl!r}")
    return groups


def parse(sddl: str) -> Descriptor:
    """Read the owner and the DACL of an SDDL security descriptor.

    Raises:
        ValueError: the text is no security descriptor in SDDL, or it has no DACL section.

    Example:
        >>> parse("O:BAD:P(A;;FA;;;SY)").dacl
        (Ace(type='A', flags=(), rights='FA', sid='S-1-5-18'),)
    """
    header = _HEADER.match(sddl)
    if header is None or header.group("flags") is None:
        raise ValueError(f"no DACL (D:) in the security descriptor {sddl!r}")
    owner = header.group("owner")
    if header.group("flags") == "NO_ACCESS_CONTROL":
        return Descriptor(_sid(owner) if owner else None, None)
    aces: list[Ace] = []
    for group in _split_aces(sddl[header.end():], sddl):
        fields = group.split(";")
        if len(fields) < 6:
            raise ValueError(f"an access-control entry needs 6 fields: ({group})")
        kind, flags, rights, _, _, sid = fields[:6]
        aces.append(Ace(kind, tuple(re.findall("..", flags)), rights, _sid(sid)))
    return Descriptor(_sid(owner) if owner else None, tuple(aces))


def _label(sid: str) -> str:
    name = _NAMES.get(sid)
    short = _ABBREVIATION.get(sid)
    if name and short:
        return f"{name} ({short})"
    return name or sid


def others(sddl: str, user: str) -> list[str]:
    """Every account besides ``user`` (a SID), ``SYSTEM`` and ``Administrators`` that the
    descriptor lets open the file, or that owns it; empty when the file is private.

    ``OWNER RIGHTS`` entries count as the owner's. Inherit-only entries do not apply to the
    file itself and are left out; denying entries never widen access.

    Example:
        >>> others("O:BAD:P(A;;FA;;;SY)(A;;FA;;;S-1-5-21-9-1001)", "S-1-5-21-9-1001")
        []
        >>> others("D:NO_ACCESS_CONTROL", "S-1-5-21-9-1001")
        ['Everyone (no access-control list)']
    """
    descriptor = parse(sddl)
    allowed = _TRUSTED | {_sid(user)}
    found: list[str] = []
    if descriptor.owner is not None and descriptor.owner not in allowed:
        found.append(f"{_label(descriptor.owner)} (the owner)")
    if descriptor.dacl is None:
        return [*found, "Everyone (no access-control list)"]
    for ace in descriptor.dacl:
        if not ace.grants or ace.sid in _PLACEHOLDERS:
            continue
        sid = ace.sid
        if sid == "S-1-3-4":  # OWNER RIGHTS: whoever owns the file
            if descriptor.owner is None or descriptor.owner in allowed:
                continue
            sid = descriptor.owner
        label = _label(sid)
        if sid not in allowed and label not in found and f"{label} (the owner)" not in found:
            found.append(label)
    return found


def private_sddl(user: str) -> str:
    """The descriptor cnbkit gives a private file: a protected DACL (nothing inherited) with
    full control for ``user`` alone."""
    if not _SID.fullmatch(user):
        raise ValueError(f"not a SID: {user!r}")
    return f"D:P(A;;FA;;;{user})"


def _unsupported(what: str) -> UnsupportedSystem:
    return UnsupportedSystem(f"{what} exists on Windows only (this is {sys.platform})")


if sys.platform == "win32":
    import ctypes
    import msvcrt
    from ctypes import wintypes

    _advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
    _kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)

    _kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    _kernel32.GetCurrentProcess.argtypes = []
    _kernel32.CloseHandle.restype = wintypes.BOOL
    _kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
    _kernel32.LocalFree.restype = ctypes.c_void_p
    _kernel32.LocalFree.argtypes = [ctypes.c_void_p]
    _kernel32.CreateFileW.restype = wintypes.HANDLE
    _kernel32.CreateFileW.argtypes = [wintypes.LPCWSTR, wintypes.DWORD, wintypes.DWORD,
                                      ctypes.c_void_p, wintypes.DWORD, wintypes.DWORD,
                                      wintypes.HANDLE]
    _advapi32.OpenProcessToken.restype = wintypes.BOOL
    _advapi32.OpenProcessToken.argtypes = [wintypes.HANDLE, wintypes.DWORD,
                                           ctypes.POINTER(wintypes.HANDLE)]
    _advapi32.GetTokenInformation.restype = wintypes.BOOL
    _advapi32.GetTokenInformation.argtypes = [wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p,
                                              wintypes.DWORD, ctypes.POINTER(wintypes.DWORD)]
    _advapi32.ConvertSidToStringSidW.restype = wintypes.BOOL
    _advapi32.ConvertSidToStringSidW.argtypes = [ctypes.c_void_p,
                                                 ctypes.POINTER(ctypes.c_void_p)]
    _advapi32.GetNamedSecurityInfoW.restype = wintypes.DWORD
    _advapi32.GetNamedSecurityInfoW.argtypes = [
        wintypes.LPCWSTR, ctypes.c_int, wintypes.DWORD, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    _advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW.restype = wintypes.BOOL
    _advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW.argtypes = [
        ctypes.c_void_p, wintypes.DWORD, wintypes.DWORD, ctypes.POINTER(ctypes.c_void_p),
        ctypes.c_void_p]
    _advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW.restype = wintypes.BOOL
    _advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW.argtypes = [
        wintypes.LPCWSTR, wintypes.DWORD, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]

    class _SecurityAttributes(ctypes.Structure):
        _fields_ = [("nLength", wintypes.DWORD), ("lpSecurityDescriptor", ctypes.c_void_p),
                    ("bInheritHandle", wintypes.BOOL)]

    _TOKEN_QUERY = 0x0008
    _TOKEN_USER = 1  # TOKEN_INFORMATION_CLASS.TokenUser
    _SE_FILE_OBJECT = 1
    _OWNER_AND_DACL = 0x1 | 0x4  # OWNER_ and DACL_SECURITY_INFORMATION
    _SDDL_REVISION_1 = 1
    _GENERIC_WRITE = 0x40000000
    _CREATE_NEW = 1
    _FILE_ATTRIBUTE_NORMAL = 0x80
    _FILE_FLAG_OPEN_REPARSE_POINT = 0x00200000
    _INVALID_HANDLE_VALUE = wintypes.HANDLE(-1).value

    def _error(path: str | None = None, code: int | None = None) -> OSError:
        code = ctypes.get_last_error() if code is None else code
        return OSError(None, ctypes.FormatError(code), path, code)

    def _take_string(text: ctypes.c_void_p) -> str:
        """A wide string that Windows allocated for the caller, read and then freed."""
        try:
            return ctypes.wstring_at(text)
        finally:
            _kernel32.LocalFree(text)

    def _user_sid() -> str:
        token = wintypes.HANDLE()
        if not _advapi32.OpenProcessToken(_kernel32.GetCurrentProcess(), _TOKEN_QUERY,
                                          ctypes.byref(token)):
            raise _error()
        try:
            size = wintypes.DWORD()
            _advapi32.GetTokenInformation(token, _TOKEN_USER, None, 0, ctypes.byref(size))
            buffer = ctypes.create_string_buffer(size.value)
            if not _advapi32.GetTokenInformation(token, _TOKEN_USER, buffer, size,
                                                 ctypes.byref(size)):
                raise _error()
            # TOKEN_USER starts with SID_AND_ATTRIBUTES, whose first field points to the SID
            sid = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_void_p))[0]
            text = ctypes.c_void_p()
            if not _advapi32.ConvertSidToStringSidW(sid, ctypes.byref(text)):
                raise _error()
            return _take_string(text)
        finally:
            _kernel32.CloseHandle(token)

    def _file_sddl(name: str) -> str:
        descriptor = ctypes.c_void_p()
        code = _advapi32.GetNamedSecurityInfoW(name, _SE_FILE_OBJECT, _OWNER_AND_DACL, None,
                                               None, None, None, ctypes.byref(descriptor))
        if code != 0:
            raise _error(name, code)
        try:
            text = ctypes.c_void_p()
            if not _advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW(
                    descriptor, _SDDL_REVISION_1, _OWNER_AND_DACL, ctypes.byref(text), None):
                raise _error(name)
            return _take_string(text)
        finally:
            _kernel32.LocalFree(descriptor)

    def _create_file(name: str, sddl: str) -> int:
        descriptor = ctypes.c_void_p()
        if not _advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl, _SDDL_REVISION_1, ctypes.byref(descriptor), None):
            raise _error()
        try:
            attributes = _SecurityAttributes(ctypes.sizeof(_SecurityAttributes), descriptor,
                                             False)
            handle = _kernel32.CreateFileW(
                name, _GENERIC_WRITE, 0, ctypes.byref(attributes), _CREATE_NEW,
                _FILE_ATTRIBUTE_NORMAL | _FILE_FLAG_OPEN_REPARSE_POINT, None)
            if handle is None or handle == _INVALID_HANDLE_VALUE:
                raise _error(name)
        finally:
            _kernel32.LocalFree(descriptor)
        try:
            return msvcrt.open_osfhandle(handle, os.O_WRONLY | os.O_BINARY)
        except BaseException:
            _kernel32.CloseHandle(handle)
            raise


def user_sid() -> str:
    """The SID of the user this process runs as (its token's user), e.g. ``S-1-5-21-…-1001``.

    Raises:
        UnsupportedSystem: not on Windows.
    """
    if sys.platform == "win32":
        return _user_sid()
    raise _unsupported("a Windows user's SID")


def file_sddl(path: str | os.PathLike[str]) -> str:
    """The owner and DACL of the file at ``path`` in SDDL, e.g.
    ``O:S-1-5-21-…-1001D:P(A;;FA;;;S-1-5-21-…-1001)``.

    Raises:
        UnsupportedSystem: not on Windows.
        OSError: the file cannot be read (missing, no permission to read its ACL).
    """
    if sys.platform == "win32":
        return _file_sddl(str(Path(path)))
    raise _unsupported("a Windows access-control list")


def create_file(path: str | os.PathLike[str], sddl: str) -> int:
    """Create a new file at ``path`` whose security descriptor is ``sddl`` from the start and
    return a file descriptor open for writing bytes (``os.fdopen(fd, "wb")``).

    Like ``O_CREAT | O_EXCL``: fails when anything (a file, a link) is there already. The file
    is opened without sharing, so nothing else can open it until it is closed.

    Raises:
        UnsupportedSystem: not on Windows.
        FileExistsError: something is at ``path`` already.
    """
    if sys.platform == "win32":
        return _create_file(str(Path(path)), sddl)
    raise _unsupported("a Windows access-control list")
