// Options page, pairing: enter the companion's port and pairing token, see the connection status
// (the LLM section is options-llm.js).
// The worker owns the socket; this page stores settings, asks it to reconnect, and mirrors the
// status it keeps in chrome.storage.session.
import { connectionWords, newestOnly } from "./connection-words.js";

const DEFAULT_PORT = 47611;
const $ = (id) => document.getElementById(id);

const show = newestOnly((connection) => {
  if (!connection) return;
  const { status, word, detail } = connectionWords(connection);
  $("conn").textContent = word;
  $("status").textContent = status === "connected" ? word : detail;
});

// Fields the user already typed into are not overwritten by the stored values arriving late.
const edited = new Set();
for (const id of ["port", "token"]) $(id).addEventListener("input", () => edited.add(id));

async function load() {
  const { port, token } = await chrome.storage.local.get(["port", "token"]);
  if (!edited.has("port")) $("port").value = port || DEFAULT_PORT;
  if (!edited.has("token")) $("token").value = token || "";
  // Asking the worker also wakes it if Chromium had stopped it.
  await chrome.runtime.sendMessage({ type: "status" }).catch(() => null);
  show(await currentStatus());
}

async function save() {
  const port = Number.parseInt($("port").value, 10);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    $("status").textContent = "port must be a number between 1 and 65535";
    return;
  }
  const token = $("token").value.trim();
  // Typed by hand: the native host's answer will not replace them (an empty token asks the native host).
  await chrome.storage.local.set({ port, token, typed: Boolean(token) });
  $("status").textContent = "connecting…";
  const reply = await chrome.runtime.sendMessage({ type: "reconnect" }).catch((e) => ({ error: e.message }));
  if (reply && reply.error) {
    show({ status: "error", detail: `the extension could not reconnect: ${reply.error}`, at: Date.now() });
    return;
  }
  // The reply may be older than a "connected" that already arrived through onChanged: re-read.
  show(await currentStatus());
}

async function currentStatus() {
  const { connection } = await chrome.storage.session.get("connection");
  return connection;
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes.connection) show(changes.connection.newValue);
});
$("save").addEventListener("click", save);
load();

