"""The companion's half of the bridge: the authenticated WebSocket server, one session per browser,
the recorder, and the launcher that starts a paired headless Chromium for tests and headless use."""
