"""A phone's student id, issued by the server and bound to the browser: a cookie holding the id and its signature
(HMAC-SHA256 under the store's key, ir_metrics_lab.core.classroom.store.Store.identity_key). A page cannot choose its
id: an id without the server's signature is not one, and a session keeps the id it started with. A second tab or a
second scan of the QR code sends the same cookie, so it is the same student.

>>> key = b"k" * 32
>>> token = issue(key, "abc123")
>>> verify(key, token)
'abc123'
>>> verify(key, "abc123.forged") is None
True

A projector keeps the poll it runs in a cookie too (``TEACHER_COOKIE``): the poll's code and its teacher token, which
the store checks (Store.is_teacher), so a restarted server or another replica brings the projector back to its poll
without the token ever appearing in the projector's address bar.

>>> teacher_cookie("ABCDEFGH", "tok-en_1")
'ABCDEFGH.tok-en_1'
>>> held_teacher("ABCDEFGH.tok-en_1")
('ABCDEFGH', 'tok-en_1')
>>> held_teacher("no token") is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac

COOKIE = "irml_student"
COOKIE_DAYS = 1  # a class, and the day's later classes; a poll lives hours
TEACHER_COOKIE = "irml_teacher"
_MAC_BYTES = 16


def _mac(key: bytes, student: str) -> str:
    digest = hmac.new(key, b"student:" + student.encode(), hashlib.sha256).digest()[:_MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def issue(key: bytes, student: str) -> str:
    """The cookie's value for ``student``: ``id.signature``."""
    return f"{student}.{_mac(key, student)}"


def verify(key: bytes, token: object) -> str | None:
    """The student id a cookie's value carries, or None when it is not one this server signed."""
    if not isinstance(token, str) or token.count(".") != 1:
        return None
    student, mac = token.split(".")
    return student if student and hmac.compare_digest(mac, _mac(key, student)) else None


def teacher_cookie(code: str, token: str) -> str:
    """The teacher cookie's value for poll ``code`` (a join code has no dot, nor has a URL-safe token)."""
    return f"{code}.{token}"


def held_teacher(value: object) -> tuple[str, str] | None:
    """The (code, token) a teacher cookie's value carries, or None; the store decides whether it is the teacher."""
    if not isinstance(value, str) or value.count(".") != 1:
        return None
    code, token = value.split(".")
    return (code, token) if code and token else None
