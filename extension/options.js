// Options page: enter the companion's port and pairing token, see the connection status.
// The worker owns the socket; this page stores settings, asks it to reconnect, and mirrors the
// status it keeps in chrome.storage.session.
const DEFAULT_PORT = 47611;
const $ = (id) => document.getElementById(id);

function show(connection) {
  if (!connection) return;
  $("status").textContent = connection.status === "connected" ? "connected" : connection.detail || connection.status;
}

async function load() {
  const { port, token } = await chrome.storage.local.get(["port", "token"]);
  $("port").value = port || DEFAULT_PORT;
  $("token").value = token || "";
  // Asking the worker also wakes it if Chromium had stopped it.
  show(await chrome.runtime.sendMessage({ type: "status" }).catch(() => null));
}

async function save() {
  const port = Number.parseInt($("port").value, 10);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    $("status").textContent = "port must be a number between 1 and 65535";
    return;
  }
  const token = $("token").value.trim();
  await chrome.storage.local.set({ port, token });
  $("status").textContent = "connecting…";
  show(await chrome.runtime.sendMessage({ type: "reconnect" }).catch((e) => ({ detail: e.message })));
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes.connection) show(changes.connection.newValue);
});
$("save").addEventListener("click", save);
load();

// Benchmark hook (webchallenger bench / tests/bench): in-page snapshot vs bare-walk timings of a tab,
// callable from Selenium on this page as `await webchallengerBench(tabId, runs)`.
globalThis.webchallengerBench = (tabId, runs = 5) => chrome.runtime.sendMessage({ type: "bench", tab_id: tabId, runs });
