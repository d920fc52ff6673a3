"""``python -m bot.ops.probe [--live]``: ask the running ``belote-bot run`` of this machine (or container) whether
it is ready (``/readyz``; ``--live``: ``/healthz``) on the port of ``BELOTE_HEALTH_PORT``.

Exit status 0 when it answers 200, 1 otherwise (the reason on standard output), 2 when no health port is set. The
container image's HEALTHCHECK runs it: python:3.11-slim has no curl, and this reads the same settings as the bot.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request

from bot.config import SettingsProblem, load_settings

TIMEOUT = 4.0
ANY_ADDRESS = {"0.0.0.0", "::", ""}


def probe_url(listen: str, port: int, path: str) -> str:
    """Where to ask: the listen address, or the loopback address when the server listens on every address."""
    host = "127.0.0.1" if listen in ANY_ADDRESS else listen
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}{path}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ops.probe", description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", action="store_true", help="ask /healthz (the process runs) instead of /readyz")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsProblem as exc:
        print(f"belote-bot probe: {exc}")
        return 2
    if settings.health_port is None:
        print("belote-bot probe: BELOTE_HEALTH_PORT is not set, so the bot serves no health check; set it, e.g. 8080")
        return 2
    url = probe_url(settings.health_listen, settings.health_port, "/healthz" if args.live else "/readyz")
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            print(response.read().decode(errors="replace"))
            return 0
    except urllib.error.HTTPError as err:
        body = err.read().decode(errors="replace")
        try:
            reason = json.loads(body).get("reason", body)
        except (ValueError, AttributeError):
            reason = body
        print(f"not ready ({err.code}): {reason}")
        return 1
    except (urllib.error.URLError, OSError) as err:
        print(f"no answer from {url}: {getattr(err, 'reason', err)}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
