"""``sqlite://`` cache URLs on every system: drive letters, UNC paths, percent-escapes.

Each system's reading is followed on any system through :func:`cnbkit._engine.cache.sqlite_path`'s
``system`` argument, judged by :mod:`pathlib`'s pure paths of that system
(``PureWindowsPath``, ``PurePosixPath``); :class:`~cnbkit._engine.cache.CacheLocation` reads
with the running system's.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath, PureWindowsPath

import pytest

import cnbkit
from cnbkit import Client
from cnbkit._engine.cache import CacheLocation
from cnbkit._os.systems import SYSTEM
from cnbkit.errors import ConfigError, OfflineCacheMiss

WINDOWS = [
    ("sqlite:///C:/Users/me/cache.sqlite", r"C:\Users\me\cache.sqlite"),
    ("sqlite:///c:/Users/me/cache.sqlite", r"c:\Users\me\cache.sqlite"),
    (r"sqlite:///C:\Users\me\cache.sqlite", r"C:\Users\me\cache.sqlite"),  # as pasted
    ("sqlite:///C:/Users/Jan%20Nov%C3%A1k/AppData/cache.sqlite",
     r"C:\Users\Jan Novák\AppData\cache.sqlite"),
    ("sqlite:///D:/quant%20desk/C%23/cache%25.sqlite", r"D:\quant desk\C#\cache%.sqlite"),
    ("sqlite://fileserver/quants/cnbkit/cache.sqlite",
     r"\\fileserver\quants\cnbkit\cache.sqlite"),
    ("sqlite:////fileserver/quants/cnbkit/cache.sqlite",
     r"\\fileserver\quants\cnbkit\cache.sqlite"),
    ("sqlite://file%20server/quant%20desk/cache.sqlite", r"\\file server\quant desk\cache.sqlite"),
]
POSIX = [
    ("sqlite:///home/me/.cache/cnbkit/cnbkit-http.sqlite",
     "/home/me/.cache/cnbkit/cnbkit-http.sqlite"),
    ("sqlite:////home/me/cache.sqlite", "/home/me/cache.sqlite"),  # as SQLAlchemy writes it
    ("sqlite:///Users/Jan%20Nov%C3%A1k/Library/Caches/cache.sqlite",
     "/Users/Jan Novák/Library/Caches/cache.sqlite"),
    ("sqlite:///home/me/C%23/cache%3F.sqlite", "/home/me/C#/cache?.sqlite"),
    ("sqlite:///C:/Users/me/cache.sqlite", "/C:/Users/me/cache.sqlite"),  # a legal POSIX name
]


@pytest.mark.parametrize("url, expected", WINDOWS)
def test_windows_urls_name_drive_and_unc_paths(url, expected):
    from cnbkit._engine.cache import sqlite_path

    assert sqlite_path(url, "windows") == PureWindowsPath(expected)


@pytest.mark.parametrize("url, expected", POSIX)
def test_posix_urls_name_absolute_paths(url, expected):
    from cnbkit._engine.cache import sqlite_path

    assert sqlite_path(url, "posix") == PurePosixPath(expected)


@pytest.mark.parametrize("system, url, why", [
    ("windows", "sqlite:///cache.sqlite", "absolute path with a drive letter"),  # \cache.sqlite
    ("windows", "sqlite:///C:cache.sqlite", "absolute path with a drive letter"),
    ("windows", "sqlite://C:/Users/me/cache.sqlite", "goes after three slashes"),
    ("windows", "sqlite://fileserver", "the server, the share and the file"),
    ("windows", "sqlite://fileserver/quants", "the server, the share and the file"),
    ("windows", "sqlite:////fileserver/quants/", "the server, the share and the file"),
    ("windows", "sqlite://me:pw@fileserver/quants/cache.sqlite", "no file server"),
    ("posix", "sqlite://cache.sqlite", "a host"),
    ("posix", "sqlite://server/share/cache.sqlite", "a host"),
    ("posix", "sqlite:///", "name the SQLite file"),
    ("posix", "sqlite:///home/me/C#/cache.sqlite", "%23"),  # '#' left raw: refused, not cut
    ("windows", "sqlite:///C:/Users/me/cache.sqlite?mode=ro", "takes no"),
    ("posix", "sqlite:///home/me/cache.sqlite#", "takes no"),
    ("posix", "redis://localhost/0", "not a sqlite"),
])
def test_relative_and_malformed_paths_are_refused_with_the_form_to_write(system, url, why):
    from cnbkit._engine.cache import sqlite_path

    with pytest.raises(ConfigError, match=why) as info:
        sqlite_path(url, system)
    assert ("sqlite:///C:/Users/me" if system == "windows" else "sqlite:///home/me") \
        in str(info.value)


@pytest.mark.parametrize("path", [
    PureWindowsPath(r"C:\Users\Jan Novák\AppData\Local\cnbkit\Cache\cnbkit-http.sqlite"),
    PureWindowsPath(r"C:\Users\me\C# and 100%\?\cnbkit-http.sqlite".replace("?", "q")),
    PureWindowsPath(r"\\fileserver\quant desk\cnbkit\cnbkit-http.sqlite"),
    PurePosixPath("/home/Jan Novák/.cache/cnbkit/cnbkit-http.sqlite"),
    PurePosixPath("/home/me/C#/100%/what?/cnbkit-http.sqlite"),
])
def test_a_paths_url_reads_back_as_the_same_path(path):
    from cnbkit._engine.cache import sqlite_path, sqlite_url

    system = "windows" if isinstance(path, PureWindowsPath) else "posix"
    url = sqlite_url(path)
    assert " " not in url and "#" not in url.removeprefix("sqlite:")
    assert sqlite_path(url, system) == path


def _read_a_cache(client: Client) -> None:
    """Open the client's cache the way a call does: an offline call reads it (and finds no
    answer in a new one)."""
    with pytest.raises(OfflineCacheMiss):
        cnbkit.exrates.daily("2019-05-17", client=client)


def test_the_default_cache_dir_round_trips_on_this_system(tmp_path):
    """The default client's URL (built from the user cache dir) names that dir, also when
    the dir holds a space, a '#', a '%' or a Czech letter (the URL is read back by
    CacheLocation.parse when the client opens its cache)."""
    directory = tmp_path / "Jiří Novák" / "C# 100%" / "cache"
    location = CacheLocation.sqlite_in(directory)
    assert CacheLocation.parse(location.url).path == location.path == \
        directory.absolute() / "cnbkit-http.sqlite"
    client = Client(cache_dir=directory, progress=False, offline=True)
    try:
        assert client.cache_info().path == location.path
        assert not location.path.exists()  # looking creates no file, nor does clearing none
        assert client.clear_cache() == 0 and not location.path.exists()
        _read_a_cache(client)
        assert location.path.exists()
    finally:
        client.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Jiří Novák"]


def test_cnbkit_cache_url_with_a_percent_escape_opens_that_file(tmp_path, monkeypatch):
    target = tmp_path / "my cache" / "cnbkit-http.sqlite"
    url = "sqlite://" + ("/" if SYSTEM == "windows" else "") + \
        target.as_posix().replace(" ", "%20")
    monkeypatch.setenv("CNBKIT_CACHE_URL", url)
    client = Client(progress=False, offline=True)
    try:
        assert client.cache_info().path == target
        _read_a_cache(client)
    finally:
        client.close()
    assert target.exists() and not (tmp_path / "my%20cache").exists()
    assert os.listdir(tmp_path) == ["my cache"]
