"""Private files on every system: the COBS token file and the temporary copy of a client key.

Each way of :mod:`cnbkit._os.private_files` is chosen through its ``system`` argument:

* ``"posix"`` runs for real on Linux and macOS (file modes, umask 000).
* ``"windows"`` runs for real on Windows, where its ACL is read back with PowerShell's
  ``Get-Acl`` (Windows' own reader, not cnbkit's), in CI's Windows jobs. On Linux and macOS it
  runs with its three system calls answered by :class:`AclStore`, which keeps each file's
  security descriptor by inode as NTFS keeps it with the file (a rename keeps it), and its
  judgement is tested on descriptors as Windows printed them for real files.
"""

from __future__ import annotations

import os
import ssl
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from cnbkit._os import private_files, windows_acl
from cnbkit._os.private_files import WindowsCalls
from cnbkit._os.windows_acl import UnsupportedSystem
from cnbkit.cobs import CertificateError, Token, TokenFile, TokenFileError
from cnbkit.cobs.identity import ClientIdentity
from cnbkit.cobs.tls import client_ssl_context
from cnbkit.errors import ConfigError
from cnbkit.sandbox.cobs.pki import issue_client_cert, new_ca

POSIX_ONLY = pytest.mark.only_on("linux", "darwin", reason="POSIX file modes")
WINDOWS_ONLY = pytest.mark.only_on("windows", reason="a real Windows ACL, read back by Get-Acl")

# Security descriptors as Windows printed them (Get-Acl's Sddl, GetNamedSecurityInfo) for real
# files, published with their machines' SIDs.
#: a file in a user's profile: SYSTEM, Administrators and the user, inherited
PROFILE_USER = "S-1-5-21-3800247982-3998391507-3990260446-1001"
PROFILE_FILE = ("O:S-1-5-21-3800247982-3998391507-3990260446-1001"
                "G:S-1-5-21-3800247982-3998391507-3990260446-513"
                "D:(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;FA;;;S-1-5-21-3800247982-3998391507-"
                "3990260446-1001)")
#: a file on a data drive where every user may modify (0x1301bf) what is there
DRIVE_USER = "S-1-5-21-1004336348-1177238915-682003330-512"
DRIVE_FILE = ("O:S-1-5-21-1004336348-1177238915-682003330-512"
              "D:AI(A;ID;0x1301bf;;;BU)(A;ID;FA;;;SY)(A;ID;FA;;;BA)"
              "(A;ID;FA;;;S-1-5-21-1004336348-1177238915-682003330-512)")
#: a shared folder owned by Administrators that every user may read (0x1200a9)
SHARED_FOLDER = "O:BAG:SYD:AI(A;OICIID;FA;;;BA)(A;OICIID;FA;;;SY)(A;OICIID;0x1200a9;;;BU)"
#: CPython's os.mkdir(mode=0o700) on Windows (a protected DACL; OWNER RIGHTS is the owner)
PYTHON_PRIVATE_DIR = "D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;FA;;;OW)"


def _token(n: int = 1) -> Token:
    return Token(access_token=f"access-{n}-" + "a" * 20, refresh_token=f"refresh-{n}-" + "r" * 20,
                 expires_at=4e9, scopes=("aisp",))


class AclStore:
    """The three Windows calls, answered on any system: each file's security descriptor kept
    by inode (NTFS keeps it with the file, so a rename keeps it), the owner being the user
    who created it."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.descriptors: dict[int, str] = {}
        self.created: list[str] = []

    def create_file(self, path: Path, sddl: str) -> int:
        self.created.append(sddl)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_BINARY", 0))
        self.descriptors[os.fstat(fd).st_ino] = f"O:{self.user}{sddl}"
        return fd

    def file_sddl(self, path: Path) -> str:
        return self.descriptors[os.stat(path).st_ino]

    def set(self, path: Path, sddl: str) -> None:
        self.descriptors[os.stat(path).st_ino] = sddl

    def calls(self) -> WindowsCalls:
        return WindowsCalls(lambda: self.user, self.file_sddl, self.create_file)


# -- the Windows way's judgement, on descriptors Windows printed --------------------------------
@pytest.mark.parametrize("sddl, user, expected", [
    (PROFILE_FILE, PROFILE_USER, []),
    (DRIVE_FILE, DRIVE_USER, ["Users (BU)"]),
    (SHARED_FOLDER, PROFILE_USER, ["Users (BU)"]),
    (f"O:{PROFILE_USER}{PYTHON_PRIVATE_DIR}", PROFILE_USER, []),
    # the same descriptor on a file that another account owns: OWNER RIGHTS is that account
    (f"O:S-1-5-21-1-2-3-1002{PYTHON_PRIVATE_DIR}", PROFILE_USER,
     ["S-1-5-21-1-2-3-1002 (the owner)"]),
    # cnbkit's own descriptor, as Windows stores it for a file the user creates
    (f"O:{PROFILE_USER}{windows_acl.private_sddl(PROFILE_USER)}", PROFILE_USER, []),
    # created from an elevated prompt: the Administrators group owns it
    (f"O:BA{windows_acl.private_sddl(PROFILE_USER)}", PROFILE_USER, []),
    ("D:NO_ACCESS_CONTROL", PROFILE_USER, ["Everyone (no access-control list)"]),
    # inherit-only entries do not apply to the file; denying entries never widen access
    (f"O:{PROFILE_USER}D:P(A;OICIIO;FA;;;WD)(D;;FA;;;AU)(A;;FA;;;{PROFILE_USER})",
     PROFILE_USER, []),
    # numeric SIDs are the same accounts as their abbreviations
    (f"O:S-1-5-32-544D:P(A;;FR;;;S-1-1-0)(A;;FA;;;S-1-5-18)(A;;FA;;;{PROFILE_USER})",
     PROFILE_USER, ["Everyone (WD)"]),
    # a conditional entry nests parentheses
    (f'O:{PROFILE_USER}D:(XA;;FR;;;AU;(@User.Title=="PM"))(A;;FA;;;{PROFILE_USER})',
     PROFILE_USER, ["Authenticated Users (AU)"]),
    # a DACL followed by a SACL
    (f"O:{PROFILE_USER}D:P(A;;FA;;;{PROFILE_USER})S:(ML;;NW;;;LW)", PROFILE_USER, []),
])
def test_windows_acl_judgement_on_descriptors_windows_printed(sddl, user, expected):
    assert windows_acl.others(sddl, user) == expected


@pytest.mark.parametrize("sddl", ["", "O:BA", "D:P(A;;FA;;;SY", "D:P(A;FA)", "not sddl"])
def test_a_descriptor_that_is_no_sddl_is_an_error(sddl):
    with pytest.raises(ValueError):
        windows_acl.others(sddl, PROFILE_USER)


def test_the_windows_calls_exist_on_windows_only():
    calls = (windows_acl.user_sid, lambda: windows_acl.file_sddl(__file__),
             lambda: windows_acl.create_file(Path(tempfile.gettempdir()) / "never", "D:P"))
    for call in calls:
        if os.name == "nt":
            continue
        with pytest.raises(UnsupportedSystem, match="Windows only"):
            call()


# -- both ways, chosen by the system argument ---------------------------------------------------
#: Each way where it runs: POSIX modes on Linux and macOS; the Windows way everywhere (for real
#: on Windows, with :class:`AclStore` answering its system calls elsewhere).
WAYS = [pytest.param("posix", marks=POSIX_ONLY), "windows"]


@pytest.fixture(params=WAYS)
def way(request) -> tuple[str, WindowsCalls, AclStore | None]:
    system = request.param
    if system == "posix" or os.name == "nt":
        return system, private_files.NATIVE, None
    store = AclStore(PROFILE_USER)
    return system, store.calls(), store


def test_a_new_private_file_is_private_from_the_first_byte(way, tmp_path):
    system, calls, store = way
    old = os.umask(0) if system == "posix" else None  # even a permissive umask
    try:
        with private_files.create(tmp_path / "t.json", system=system, windows=calls) as out:
            out.write(b"{}")
    finally:
        if old is not None:
            os.umask(old)
    path = tmp_path / "t.json"
    assert private_files.problem(path, system=system, windows=calls) is None
    if system == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    elif store is not None:
        assert store.created == [f"D:P(A;;FA;;;{PROFILE_USER})"]
    with pytest.raises(FileExistsError):  # never opens what is there already
        private_files.create(path, system=system, windows=calls)


def test_the_token_file_on_both_ways(way, tmp_path):
    system, calls, store = way
    path = tmp_path / "tokens" / "cobs.json"
    file = TokenFile(path, system=system, windows=calls)
    file.save(_token(1))
    file.save(_token(2))  # replaced through a new private file and a rename
    assert file.load().access_token.startswith("access-2-")
    assert sorted(p.name for p in path.parent.iterdir()) == ["cobs.json"]
    if system == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        os.chmod(path, 0o640)
        wider = "permissions 0640, wider than 0600.*chmod 600"
    else:
        (store.set(path, DRIVE_FILE.replace(DRIVE_USER, PROFILE_USER)) if store
         else _grant_users_read(path))
        wider = r"Users \(BU\) besides you.*delete it"
    with pytest.raises(TokenFileError, match=wider):
        file.load()
    with pytest.raises(TokenFileError, match=wider):
        file.save(_token(3))
    path.unlink()
    file.save(_token(4))  # deleted, it is written anew, private again
    assert file.load().access_token.startswith("access-4-")


def test_windows_file_modes_do_not_decide(tmp_path):
    """Windows reports 0o666 for every writable file: the Windows way judges the ACL alone."""
    store = AclStore(PROFILE_USER)
    path = tmp_path / "cobs.json"
    file = TokenFile(path, system="windows", windows=store.calls())
    file.save(_token(1))
    os.chmod(path, 0o666)
    assert file.load() is not None


def test_key_material_is_private_and_removed_on_every_exit(way, tmp_path, monkeypatch):
    system, calls, _ = way
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the documented default dir
    with private_files.temporary(b"secret", prefix="cnbkit-k-", system=system,
                                 windows=calls) as path:
        assert path.read_bytes() == b"secret" and path.parent == tmp_path
        assert private_files.problem(path, system=system, windows=calls) is None
    assert not path.exists()
    for error in (ValueError("refused"), KeyboardInterrupt()):
        with pytest.raises(type(error)), private_files.temporary(
                b"secret", system=system, windows=calls) as path:
            raise error
        assert not path.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def identity() -> ClientIdentity:
    cert, key = issue_client_cert(new_ca("cnbkit test CA"), ("PSP_AI",))
    return ClientIdentity(cert=cert, key=key, source="test")


def test_the_client_key_reaches_the_tls_library_through_a_private_file_then_goes(
        identity, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    seen: list[tuple[str | None, bool]] = []
    load = ssl.SSLContext.load_cert_chain

    def watching(self, certfile, keyfile=None, password=None):
        seen.append((private_files.problem(certfile), Path(certfile).parent == tmp_path))
        return load(self, certfile, keyfile, password)

    monkeypatch.setattr(ssl.SSLContext, "load_cert_chain", watching)
    client_ssl_context(identity)
    assert seen == [(None, True)]
    assert list(tmp_path.iterdir()) == []
    other_key = issue_client_cert(new_ca("another CA"), ("PSP_AI",))[1]
    with pytest.raises(CertificateError):  # the TLS library refuses a key of another cert
        client_ssl_context(ClientIdentity(cert=identity.cert, key=other_key, source="test"))
    assert len(seen) == 2 and list(tmp_path.iterdir()) == []


# -- the Windows way for real: read back by Windows' own reader --------------------------------
def _get_acl(path: Path) -> str:
    """The file's descriptor as PowerShell's Get-Acl prints it (SDDL)."""
    literal = str(path).replace("'", "''")
    done = subprocess.run(
        ["powershell", "-NoProfile", "-NonInteractive", "-Command",
         f"(Get-Acl -LiteralPath '{literal}').Sddl"],
        capture_output=True, text=True, encoding="utf-8", errors="replace", check=True)
    return done.stdout.strip()


def _whoami_sid() -> str:
    done = subprocess.run(["whoami", "/user", "/fo", "csv", "/nh"], capture_output=True,
                          text=True, encoding="utf-8", errors="replace", check=True)
    return done.stdout.strip().split(",")[-1].strip('"')


def _grant_users_read(path: Path) -> None:
    subprocess.run(["icacls", str(path), "/grant", "*S-1-5-32-545:(R)"], capture_output=True,
                   check=True)


@WINDOWS_ONLY
def test_windows_token_file_acl_read_back_by_get_acl(tmp_path):
    path = tmp_path / "cobs.json"
    TokenFile(path).save(_token(1))
    user = _whoami_sid()
    assert windows_acl.user_sid() == user
    printed = _get_acl(path)
    descriptor = windows_acl.parse(printed)
    assert [(ace.type, ace.sid) for ace in descriptor.dacl] == [("A", user)]
    assert "D:P" in printed  # protected: nothing inherited from the folder
    assert windows_acl.file_sddl(path).split("D:", 1)[1] == printed.split("D:", 1)[1]
    with private_files.temporary(b"key", prefix="cnbkit-mtls-") as key:
        assert windows_acl.others(_get_acl(key), user) == []
    assert not key.exists()


@POSIX_ONLY
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o666, 0o610, 0o601])
def test_posix_modes_wider_than_0600_are_refused(tmp_path, mode):
    path = tmp_path / "t.json"
    path.write_bytes(b"{}")
    os.chmod(path, mode)
    assert private_files.problem(path, system="posix") == (
        f"has permissions {mode:04o}, wider than 0600, so others could read it")
    os.chmod(path, 0o600)
    assert private_files.problem(path, system="posix") is None


@POSIX_ONLY
def test_posix_create_never_follows_a_link(tmp_path):
    link = tmp_path / "t.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(FileExistsError):
        private_files.create(link, system="posix")
    assert not (tmp_path / "elsewhere.json").exists()


def test_the_token_files_signature_names_public_types_only(tmp_path):
    """What a user reads in the API reference and an editor's hint: the private Windows calls
    are a hook the signature does not name; a wrong value is a ConfigError, not a late crash."""
    import inspect
    import typing

    hints = typing.get_type_hints(TokenFile.__init__)
    shown = " ".join(str(hint) for hint in hints.values())
    assert "_os" not in shown and "private_files" not in shown and "WindowsCalls" not in shown
    assert inspect.signature(TokenFile).parameters["system"].default is None
    with pytest.raises(ConfigError, match="'posix' or 'windows'"):
        TokenFile(tmp_path / "t.json", system="dos")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="windows"):
        TokenFile(tmp_path / "t.json", windows=object())
