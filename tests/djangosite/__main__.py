"""Serve the seeded shop admin by hand: `.venv/bin/python -m tests.djangosite [--grid]`, Ctrl-C to stop."""

from __future__ import annotations

import argparse
import signal
import sys
import time

from .server import MODELS, DjangoSite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--grid", action="store_true", help="also start Selenium Grid on 127.0.0.1")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop the servers on `kill` too
    with DjangoSite() as site:
        print(f"admin:    {site.admin_url}  (user {site.credentials.username!r}, password {site.credentials.password!r})")
        for model in MODELS:
            print(f"  {model:9} {site.changelist_url(model)}")
        print(f"database: {site.db_path}  (log: {site.log_path})")
        grid = None
        if args.grid:
            from .grid import SeleniumGrid

            grid = SeleniumGrid().start()
            print(f"grid:     {grid.url}")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            if grid is not None:
                grid.close()


if __name__ == "__main__":
    main()
