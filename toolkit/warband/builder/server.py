"""Serving the builder: uvicorn on a port of this machine, and the browser opened on it.

The socket is bound here, before uvicorn starts, so that the address (with its port, free when
port 0 is asked for) is known when it is printed and opened. uvicorn stops on Ctrl-C or SIGTERM
and then raises the signal again, so that the command line ends as it ends for any command
(130, 143).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

import uvicorn

from warband.builder.app import create_app
from warband.builder.files import Folder
from warband.builder.session import Session, Writer

LOCAL = "127.0.0.1"


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (OSError when the port is taken or the host is not this machine's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(16)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def hosts_for(host: str, port: int) -> set[str] | None:
    """The Host headers the app answers: this machine's names for a local server; any, for a
    server listening on every address (`--host 0.0.0.0`: its users type whatever name the
    machine has on their network)."""
    if host in ("0.0.0.0", "::"):
        return None
    names = {host, "localhost", LOCAL, "[::1]"} if loopback(host) else {host}
    return {f"{name.lower()}:{port}" for name in names} | ({f"[{host}]:{port}"} if ":" in host
                                                           else set())


def serve(folder: Path, writer: Writer, *, start: Callable[[Session], None],
          rules: Path | None = None, host: str = LOCAL, port: int = 0, open_browser: bool = True,
          announce: Callable[[str], None] = print) -> None:
    """Serve a session until stopped (Ctrl-C, SIGTERM). `start` opens the list or the ruleset
    the command line names; `announce` says where the page is."""
    session = Session(Folder.at(folder), writer, rules)
    start(session)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/?token={token}"
    app = create_app(session, token, cookie=f"warband-build-{port}", hosts=hosts_for(host, port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                          lifespan="off", server_header=False))
    announce(url)
    if open_browser:
        def opened() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)
        threading.Thread(target=opened, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


__all__ = ["LOCAL", "bind", "hosts_for", "loopback", "serve"]
