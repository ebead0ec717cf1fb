// Pairing settings (chrome.storage.local, entered on the options page) and the connection status
// (chrome.storage.session: survives a worker restart, gone when the browser closes).

export const DEFAULT_PORT = 47611;

// typed: the port and token were entered by hand on the options page (the native host's answer does not replace
// them, bg/connection.js); false when they came from the native host.
export async function loadSettings() {
  const { port, token, typed } = await chrome.storage.local.get(["port", "token", "typed"]);
  const p = Number.parseInt(port, 10);
  return { port: Number.isInteger(p) && p > 0 && p < 65536 ? p : DEFAULT_PORT, token: token || "", typed: Boolean(typed && token) };
}

// status: "connected" | "connecting" | "error" | "unpaired"; detail: the text the options page shows.
// `at` is strictly increasing, even for two statuses written in the same millisecond: pages order statuses by it
// (connection-words.js newestOnly).
let lastAt = 0;
export async function setStatus(status, detail) {
  lastAt = Math.max(Date.now(), lastAt + 1);
  await chrome.storage.session.set({ connection: { status, detail, at: lastAt } });
}

export async function getStatus() {
  const { connection } = await chrome.storage.session.get("connection");
  return connection || { status: "connecting", detail: "connecting…", at: 0 };
}
