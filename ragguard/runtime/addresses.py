"""Whether a listening address is loopback: the rule every server of ragguard (``serve``,
``review``) applies before it binds beyond this machine."""

from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
