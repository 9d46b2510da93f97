"""The viewer's web server: Starlette on uvicorn, read-only, on 127.0.0.1 by default.

Routes mirror the static site's paths (see :mod:`seebench.view.site`). Every response carries
a Content-Security-Policy that loads nothing from anywhere, ``nosniff`` and ``no-referrer``;
artifacts are sent as ``text/plain`` in a sandbox. Requests whose ``Host`` is not a local
name are refused (a page on another site cannot reach the viewer by DNS rebinding). A page
that fails to render answers 500 with one line, and the server goes on.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from seebench.view.index import SampleFilter
from seebench.view.site import CSP, Site

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
MAX_QUERY_CHARS = 200
FILTER_KEYS = ("q", "wrong", "invalid", "damaged", "label", "scorer", "min", "max", "sort", "desc")
_log = logging.getLogger(__name__)


def _headers(csp: str = CSP) -> dict[str, str]:
    return {
        "Content-Security-Policy": csp,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Cache-Control": "no-store",
    }


def parse_filter(params: Any) -> tuple[SampleFilter, str]:
    """The sample filter of a page's query parameters, and the query string to keep."""
    from urllib.parse import urlencode

    def number(name: str) -> float | None:
        try:
            value = float(params.get(name, "") or "nan")
        except ValueError:
            return None
        return None if value != value else value

    wanted = SampleFilter(
        query=(params.get("q") or "")[:MAX_QUERY_CHARS],
        wrong=params.get("wrong") == "1",
        invalid=params.get("invalid") == "1",
        damaged=params.get("damaged") == "1",
        label=(params.get("label") or "")[:MAX_QUERY_CHARS],
        scorer=(params.get("scorer") or "")[:MAX_QUERY_CHARS],
        min_value=number("min"),
        max_value=number("max"),
        sort=(params.get("sort") or "")[:MAX_QUERY_CHARS],
        desc=params.get("desc") == "1",
    )
    kept = {k: v for k, v in params.items() if k in FILTER_KEYS and v}
    return wanted, ("?" + urlencode(kept)) if kept else ""


def build_app(site: Site, allowed_hosts: tuple[str, ...] = LOCAL_HOSTS) -> Any:
    """The Starlette application serving ``site``."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    lock = threading.Lock()

    def page(render, *args) -> Response:
        try:
            with lock:
                text = render(*args)
        except Exception as exc:  # a hostile unit must not take the server down
            _log.exception("rendering failed")
            return PlainTextResponse(
                f"cannot show this page: {type(exc).__name__}", 500, headers=_headers()
            )
        if text is None:
            return PlainTextResponse("not found", 404, headers=_headers())
        return HTMLResponse(text, headers=_headers())

    async def home(request):
        return RedirectResponse("index.html")

    def runs(request):
        def render():
            site.catalog.refresh()
            return site.runs_page()

        return page(render)

    def leaderboard(request):
        return page(site.leaderboard_page)

    def task(request):
        return page(site.task_page, request.path_params["name"])

    def unit(request):
        number = _int(request.path_params["page"])
        wanted, qs = parse_filter(request.query_params)
        return page(site.unit_page, request.path_params["uid"], number, wanted, qs)

    def sample(request):
        wanted, qs = parse_filter(request.query_params)
        line = _int(request.path_params["line"])
        return page(site.sample_page, request.path_params["uid"], line, wanted, qs)

    def artifact(request):
        name = request.query_params.get("path", "")
        with lock:
            data = site.artifact_bytes(request.path_params["uid"], name)
        if data is None:
            return PlainTextResponse("not found", 404, headers=_headers())
        return Response(
            data,
            media_type="text/plain; charset=utf-8",
            headers=_headers("default-src 'none'; sandbox"),
        )

    def compare(request):
        p = request.path_params
        return page(site.compare_page, p["a"], p["b"], _int(p["page"]))

    routes = [
        Route("/", home),
        Route("/index.html", runs),
        Route("/leaderboard.html", leaderboard),
        Route("/task/{name}.html", task),
        Route("/unit/{uid}/page-{page}.html", unit),
        Route("/unit/{uid}/sample-{line}.html", sample),
        Route("/unit/{uid}/artifact.txt", artifact),
        Route("/compare/{a}/{b}/page-{page}.html", compare),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    return Starlette(routes=routes, middleware=middleware)


def _int(text: str) -> int:
    try:
        return max(0, min(int(text), 10**9))
    except ValueError:
        return 1


def serve(site: Site, host: str, port: int) -> None:
    """Serve ``site`` until interrupted."""
    # SciPy (the compare view's t interval) takes a while to import on a busy machine, and the
    # templates to compile: both before serving, not in the first pages' time.
    import scipy.special  # noqa: F401
    import uvicorn

    site.warm_up()
    site.start_leaderboard(own_process=True)
    site.start_inputs()
    hosts = LOCAL_HOSTS if host in LOCAL_HOSTS else (*LOCAL_HOSTS, host)
    uvicorn.run(build_app(site, hosts), host=host, port=port, log_level="warning")
