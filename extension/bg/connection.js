// The WebSocket to the companion: pairing handshake, hello, heartbeats and reconnection.
// Chromium ends an idle MV3 worker after 30 s; WebSocket pings do not count but application
// messages do, so a heartbeat goes out every 20 s. A killed worker is revived by the alarm
// (background.js), whose handler calls ensureConnected().
import { loadSettings, setStatus } from "./settings.js";
import { newId } from "./ids.js";

export const PROTOCOL_VERSION = 1;
const SUBPROTOCOL = "webchallenger.v1";
const HEARTBEAT_MS = 20_000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

// A new value per worker start tells the companion the worker restarted (state in memory is gone).
export const BOOT_ID = crypto.randomUUID();

let socket = null;
let heartbeatTimer = null;
let retryTimer = null;
let failures = 0;
let messageHandler = () => {};

export function onMessage(handler) {
  messageHandler = handler;
}

export function isOpen() {
  return socket !== null && socket.readyState === WebSocket.OPEN;
}

// Sends a message object or an already serialized JSON string (big snapshots are built as strings).
export function send(message) {
  if (!isOpen()) return false;
  socket.send(typeof message === "string" ? message : JSON.stringify(message));
  return true;
}

function clearTimers() {
  clearInterval(heartbeatTimer);
  heartbeatTimer = null;
}

function scheduleRetry() {
  if (retryTimer) return;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** failures);
  failures++;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    ensureConnected();
  }, delay);
}

// The WebSocket API hides the handshake's HTTP status, so a plain HTTP request tells
// "nothing listens there" apart from "something listens but refused us".
async function explainRefusal(port) {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000), cache: "no-store" });
    return "token refused (check the token from the companion)";
  } catch (_) {
    return `companion not running on port ${port}`;
  }
}

export async function ensureConnected() {
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  const { port, token } = await loadSettings();
  // Re-check: another call may have opened a socket while settings loaded.
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  if (!token) {
    await setStatus("unpaired", "not paired: enter the token printed by `webchallenger serve`");
    return;
  }
  // Before the socket exists: written later, "connecting" could land after "connected".
  await setStatus("connecting", `connecting to port ${port}…`);
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  let ws;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [SUBPROTOCOL, `auth.${token}`]);
  } catch (e) {
    // A token with characters a subprotocol cannot carry throws synchronously.
    await setStatus("error", `token refused (${e.message})`);
    return;
  }
  socket = ws;
  let opened = false;
  // Handlers are attached in the same task that created the socket, so no event can be missed.

  ws.onopen = () => {
    opened = true;
    send({
      type: "hello",
      id: newId("hello"),
      protocol_version: PROTOCOL_VERSION,
      extension_version: chrome.runtime.getManifest().version,
      boot_id: BOOT_ID,
      user_agent: navigator.userAgent,
    });
    heartbeatTimer = setInterval(() => {
      send({ type: "heartbeat", id: newId("hb"), sent_at: Date.now() / 1000 });
    }, HEARTBEAT_MS);
  };
  ws.onmessage = (event) => {
    if (typeof event.data === "string") messageHandler(event.data);
  };
  ws.onclose = async (event) => {
    if (socket === ws) socket = null;
    clearTimers();
    const detail = opened
      ? `connection to port ${port} closed (code ${event.code}${event.reason ? ": " + event.reason : ""}); reconnecting`
      : await explainRefusal(port);
    await setStatus("error", detail);
    scheduleRetry();
  };
}

// The companion accepted our hello: the link is up.
export async function markConnected() {
  failures = 0;
  await setStatus("connected", "connected");
}

// After the options page saves new settings: drop the old socket and dial again at once.
export async function reconnectNow() {
  failures = 0;
  clearTimeout(retryTimer);
  retryTimer = null;
  const old = socket;
  socket = null;
  clearTimers();
  if (old) {
    old.onclose = null;
    old.close();
  }
  await ensureConnected();
}
