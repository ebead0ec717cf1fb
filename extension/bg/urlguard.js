// The extension opens web pages only, whatever the companion asks: a file:, data:, javascript:, blob:,
// chrome: or extension URL in open_tab or a navigate action is refused here, the last line before Chrome.
// The URL is parsed by the browser's own WHATWG parser, and the parsed href is what Chrome is handed,
// so what was checked is what opens (chrome.tabs would resolve a relative URL against the extension).

const WEB_SCHEMES = new Set(["http:", "https:"]);

export class UrlRefused extends Error {}

// Returns the URL to hand to Chrome, or throws UrlRefused. `allowBlank`: about:blank (an empty new tab).
export function webUrl(url, { allowBlank = false } = {}) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch (_) {
    throw new UrlRefused(`refused to open ${JSON.stringify(String(url).slice(0, 200))}: not an absolute URL`);
  }
  if (WEB_SCHEMES.has(parsed.protocol)) return parsed.href;
  if (allowBlank && parsed.href === "about:blank") return parsed.href;
  throw new UrlRefused(`refused to open a ${parsed.protocol} URL: the extension opens only http and https pages`);
}
