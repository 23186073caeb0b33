"""The builder as a web app (Starlette): the routes, and who may use them.

The app serves one person on this machine, but a page of any site open in their browser, and
any other user of the machine, can send it requests. So:

- every request must carry the session's token: the address `warband build` prints holds it
  (`?token=...`), which the app turns into a cookie (HttpOnly, SameSite=Strict, named for the
  port) and takes out of the address; without it, 403 and nothing else;
- every request that changes anything (a POST) must also carry the token in the form or in the
  X-Warband-Token header, which only the page itself can read (a cross-site form cannot);
- the Host header must name this server (a site cannot rebind its name to 127.0.0.1 and read
  the page), and an Origin or Sec-Fetch-Site header, where sent, must be this server's;
- a request's body is at most MAX_BUILD_REQUEST_BYTES, as a URL-encoded form of at most
  MAX_BUILD_FIELDS fields (413 beyond);
- every answer forbids framing, inline script and style, and caching.

The work is the session's (session.py); the endpoints read the form and call it, one request
at a time (they run on the event loop, which serialises them: one person, small lists).
"""

from __future__ import annotations

import hmac
import logging
from urllib.parse import parse_qs, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from warband.builder import pages
from warband.builder.document import TooLarge, Unloadable
from warband.builder.files import Refused
from warband.builder.forms import FormError
from warband.builder.session import Session, WriteFailed, slug
from warband.limits import MAX_BUILD_FIELDS, MAX_BUILD_REQUEST_BYTES

PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# the roster's page is one file with its own <style>, and no script
ROSTER_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                 "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
LOG = logging.getLogger("warband.build")
FORBIDDEN = ("This page belongs to a `warband build` session: open the address the command "
             "printed (it carries the session's key).\n")


class Rejected(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def headers(policy: str = PAGE_POLICY) -> dict[str, str]:
    return {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY",
            "Cache-Control": "no-store"}


class Guard:
    """The checks every request passes before any route sees it (the module's docstring)."""

    def __init__(self, app: ASGIApp, token: str, cookie: str, hosts: set[str] | None) -> None:
        self.app, self.token, self.cookie, self.hosts = app, token, cookie, hosts

    def _key(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        host = request.headers.get("host", "")
        if self.hosts is not None and host.lower() not in self.hosts:
            await PlainTextResponse("unknown host\n", 421, headers())(scope, receive, send)
            return
        origin = request.headers.get("origin")
        site = request.headers.get("sec-fetch-site")
        if (origin is not None and origin.lower() not in {f"http://{host.lower()}"}) or \
                site not in (None, "same-origin", "none"):
            await PlainTextResponse("cross-site request refused\n", 403, headers())(
                scope, receive, send)
            return
        if request.method == "GET" and self._key(request.query_params.get("token")):
            # the address the command printed: the token becomes a cookie, and leaves the
            # address (and the browser's history)
            rest = urlencode([(k, v) for k, v in request.query_params.multi_items()
                              if k != "token"])
            path = "/" + request.url.path.lstrip("/")   # (never `//host`: another site)
            answer = RedirectResponse(path + (f"?{rest}" if rest else ""), 303, headers())
            answer.set_cookie(self.cookie, self.token, httponly=True, samesite="strict",
                              path="/")
            await answer(scope, receive, send)
            return
        if not self._key(request.cookies.get(self.cookie)):
            await PlainTextResponse(FORBIDDEN, 403, headers())(scope, receive, send)
            return
        if request.method not in ("GET", "HEAD", "POST"):
            await PlainTextResponse("method not allowed\n", 405, headers())(scope, receive, send)
            return
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BUILD_REQUEST_BYTES):
            await PlainTextResponse("request too large\n", 413, headers())(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def read_form(request: Request, token: str) -> dict[str, list[str]]:
    """The posted form, read within its bounds, with the session's token checked (in the
    X-Warband-Token header, or the form's `token` field)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in ("application/x-www-form-urlencoded", ""):
        raise Rejected(415, "a form is sent URL-encoded")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BUILD_REQUEST_BYTES:
            raise Rejected(413, "request too large")
    try:
        form = parse_qs(body.decode("utf-8"), keep_blank_values=True,
                        max_num_fields=MAX_BUILD_FIELDS, strict_parsing=False)
    except UnicodeDecodeError:
        raise Rejected(400, "a form is sent as UTF-8") from None
    except ValueError:
        raise Rejected(413, f"a form has at most {MAX_BUILD_FIELDS} fields") from None
    given = request.headers.get("x-warband-token") or one(form, "token")
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        raise Rejected(403, "this request does not carry the session's key")
    return form


def one(form: dict[str, list[str]], name: str, default: str = "") -> str:
    values = form.get(name)
    return values[-1] if values else default


def create_app(session: Session, token: str, *, cookie: str = "warband-build",
               hosts: set[str] | None = None) -> ASGIApp:
    """The app for one session; `hosts`: the Host headers it answers (None: any)."""

    def answer(request: Request) -> Response:
        """After a change: the list (to the page's script), or the page again (a plain form)."""
        if request.headers.get("x-warband-part") == "sheet":
            if session.document is None:
                return Response(b"", 204, headers() | {"X-Warband-Reload": "1"})
            return HTMLResponse(pages.sheet(session, token), headers=headers())
        return RedirectResponse("/", 303, headers())

    def change(work):
        """An endpoint that reads the form and hands it to `work`; a refusal is said on the
        page, never as an error page."""
        async def endpoint(request: Request) -> Response:
            try:
                form = await read_form(request, token)
            except Rejected as error:
                return PlainTextResponse(f"{error}\n", error.status, headers())
            try:
                work(request, form)
            except (Refused, FormError, TooLarge) as error:
                session.say("error", str(error))
            except WriteFailed as error:
                session.say("error", f"not saved: {error}", error.hint)
            except Unloadable as error:
                session.say("error", "the file cannot be opened: it does not load as a "
                                     "warband file", str(error))
            except Exception as error:   # a bug: said on the page, and logged
                LOG.exception("warband build: a request failed")
                session.say("error", f"the builder failed ({type(error).__name__}: {error}); "
                                     "this is a bug of the toolkit: please report it",
                            "Undo takes back what the change did, if anything")
            if request.url.path in ("/new", "/open"):
                return RedirectResponse("/", 303, headers())
            return answer(request)
        return endpoint

    def download(suffix: str) -> str:
        """The name a download is offered under: the list's file name, in letters, digits and
        dashes only (it goes into a header)."""
        stem = session.save_name().rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return slug(stem).removesuffix(".yaml") + suffix

    def entry_id(request: Request) -> int:
        return int(request.path_params["entry"])

    def entry_action(request: Request, form: dict) -> None:
        action = request.path_params["action"]
        if action == "duplicate":
            session.duplicate(entry_id(request))
        elif action == "remove":
            session.remove(entry_id(request))
        elif action in ("up", "down"):
            session.move(entry_id(request), -1 if action == "up" else 1)
        else:
            raise Refused(f"no such action: {action}")

    async def home(request: Request) -> Response:
        return HTMLResponse(pages.page(session, token), headers=headers())

    async def static(request: Request) -> Response:
        found = pages.static(request.path_params["name"])
        if found is None:
            return PlainTextResponse("not found\n", 404, headers())
        body, kind = found
        return Response(body, 200, headers(), media_type=kind)

    async def roster_page(request: Request) -> Response:
        html = pages.roster_page(session) if session.document is not None else None
        if html is None:
            return PlainTextResponse("the list cannot be read yet: see its problems\n", 409,
                                     headers())
        extra = {}
        if request.query_params.get("download"):
            extra["Content-Disposition"] = f'attachment; filename="{download(".html")}"'
        return HTMLResponse(html, headers=headers(ROSTER_POLICY) | extra)

    async def list_yaml(request: Request) -> Response:
        if session.document is None:
            return PlainTextResponse("no list yet\n", 404, headers())
        return Response(session.document.raw(), 200, headers() | {
            "Content-Disposition": f'attachment; filename="{download(".yaml")}"'},
            media_type="application/yaml")

    async def nothing(request: Request) -> Response:
        return Response(b"", 204, headers())

    routes = [
        Route("/", home, methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/roster.html", roster_page, methods=["GET"]),
        Route("/list.yaml", list_yaml, methods=["GET"]),
        Route("/favicon.ico", nothing, methods=["GET"]),
        Route("/new", change(lambda r, f: session.new(one(f, "ruleset"), one(f, "name"))),
              methods=["POST"]),
        Route("/open", change(lambda r, f: session.open(one(f, "file"))), methods=["POST"]),
        Route("/add", change(lambda r, f: session.add(one(f, "class"))), methods=["POST"]),
        Route("/list", change(lambda r, f: session.edit_list(f)), methods=["POST"]),
        Route("/undo", change(lambda r, f: session.undo()), methods=["POST"]),
        Route("/save", change(lambda r, f: session.save(one(f, "file"),
                                                        one(f, "replace") == "1")),
              methods=["POST"]),
        Route("/entry/{entry:int}", change(lambda r, f: session.edit(entry_id(r), f)),
              methods=["POST"]),
        Route("/entry/{entry:int}/{action}", change(entry_action), methods=["POST"]),
    ]
    return Guard(Starlette(routes=routes), token, cookie, hosts)


__all__ = ["create_app"]
