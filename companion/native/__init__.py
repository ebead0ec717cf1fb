"""Pairing without copying a token: Chrome's native messaging.

`webchallenger install-browser` registers a native messaging host (install.py) that only this extension may
start (Chrome checks the manifest's allowed_origins; the host checks the caller's origin again). The extension
asks it for the running companion's port and the pairing token, and asks it to start a companion when none is
running (host.py). The token path (options page) stays as the fallback where native messaging is not set up.
"""
