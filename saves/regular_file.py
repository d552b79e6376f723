"""Reading a small file of ours (a saved game, a cache, the settings) safely:
never blocking (a FIFO in its place would wait for a writer forever), never
following a symbolic link (to ``/dev/zero``, say, which never ends), only a
regular file, and at most ``limit`` bytes of it. Anything else is a
:class:`~saves.errors.SaveError` with the reason in words, which a cache
takes as "rebuild me" and the settings as "use the defaults".

Imports nothing of cardtable but the error: the settings read it at start-up.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import SaveError

# Opening never blocks and never follows a symbolic link.
READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)

# what os.open says of a symbolic link with O_NOFOLLOW (Linux, macOS; FreeBSD; NetBSD)
LINK_ERRNOS = {errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP)}


def read_regular(path: Path, limit: int) -> tuple[bytes, os.stat_result]:
    """At most ``limit + 1`` bytes of the regular file ``path`` (one more than
    allowed: the caller can tell a file over the limit), and its stat.
    FileNotFoundError if there is none; SaveError (a reason) for anything
    else that cannot be read, without blocking or following a link."""
    try:
        fd = os.open(path, READ_FLAGS)
    except FileNotFoundError:
        raise
    except OSError as err:
        if err.errno in LINK_ERRNOS:
            raise SaveError("not a regular file (a symbolic link): not reading it") from None
        if err.errno == errno.ENXIO:  # a socket
            raise SaveError("not a regular file (a socket): not reading it") from None
        raise SaveError(f"cannot open the file: {os_reason(err)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(f"not a regular file ({file_kind(st.st_mode)}): not reading it")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), st
    except OSError as err:
        raise SaveError(f"cannot read the file: {os_reason(err)}") from None
    finally:
        os.close(fd)


def read_small_text(path: Path, limit: int) -> str:
    """The whole text (UTF-8) of a regular file of at most ``limit`` bytes:
    FileNotFoundError if there is none, SaveError for anything else (a FIFO,
    a link, a device, a file too large, text that is not UTF-8)."""
    raw, _ = read_regular(path, limit)
    if len(raw) > limit:
        raise SaveError(f"the file is over {limit:,} bytes: not ours")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError("the file is not UTF-8 text") from None


def file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a plain file"


def os_reason(err: OSError) -> str:
    """An OSError in words, without the file name it carries (often a temp file's)."""
    reason = err.strerror or str(err) or type(err).__name__
    return "".join(c if c.isprintable() else "?" for c in reason)[:100]
