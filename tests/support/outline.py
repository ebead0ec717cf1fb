"""Calling an extension module in the page's isolated world, as the content script would."""

from __future__ import annotations

# Runs in an extension page: calls content/outline.js in the isolated world of the tab showing `prefix`, the
# world the outlines live in (the page's own scripts run in another one and cannot).
_ISOLATED_CALL = """
const [prefix, path, args, done] = arguments;
chrome.tabs.query({}).then(async (tabs) => {
  const tab = tabs.find((t) => (t.url || "").startsWith(prefix));
  if (!tab) return done({ error: "no tab " + prefix });
  const [res] = await chrome.scripting.executeScript({
    target: { tabId: tab.id, frameIds: [0] }, world: "ISOLATED", args: [path, args],
    func: (path, args) => {
      const [part, fn] = path.split(".");
      const wc = globalThis.__webchallenger;
      return wc && wc[part] ? wc[part][fn](...args) : { error: "no content script" };
    },
  });
  done(res.result === undefined ? null : res.result);
}).catch((e) => done({ error: String(e) }));
"""


def isolated(driver, page_url: str, path: str, *args):
    result = driver.execute_async_script(_ISOLATED_CALL, page_url, path, list(args))
    assert not (isinstance(result, dict) and "error" in result), result
    return result
