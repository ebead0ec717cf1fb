// The WebSocket to the companion: the pairing check, hello, heartbeats and reconnection.
// Whatever answers on the paired port is a stranger until it proves it holds the pairing token
// (bg/pairing.js): until then nothing goes out but our challenge and no message it sends is handled.
// Chromium ends an idle MV3 worker after 30 s; WebSocket pings do not count but application
// messages do, so a heartbeat goes out every 20 s. A killed worker is revived by the alarm
// (background.js), whose handler calls ensureConnected().
import { getStatus, loadSettings, setStatus } from "./settings.js";
import { newId } from "./ids.js";
import { PairingCheck } from "./pairing.js";
import { askNativeHost } from "./native.js";

export const PROTOCOL_VERSION = 1;
const SUBPROTOCOL = "webchallenger.v2";
// From dialling to a checked proof; a peer that has not proven itself by then is dropped.
const PAIRING_TIMEOUT_MS = 8_000;
const HEARTBEAT_MS = 20_000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

// A new value per worker start tells the companion the worker restarted (state in memory is gone).
export const BOOT_ID = crypto.randomUUID();

let socket = null;
let proven = false; // the companion on `socket` passed the pairing check
let connectedNow = false; // and accepted its hello
let heartbeatTimer = null;
let retryTimer = null;
let failures = 0;
let messageHandler = () => {};
// The number of the newest dial. A socket's close and refusal handlers await (a fetch that explains the refusal,
// the native host) before they write the status; a newer dial may have connected meanwhile, and the older one's
// "not connected" written after it stayed on every page for good while the link was up. So a handler writes the
// status only while its dial is still the newest (`say`).
let dials = 0;

export function onMessage(handler) {
  messageHandler = handler;
}

// Open and paired: the only state in which anything may be sent or handled.
export function isOpen() {
  return socket !== null && socket.readyState === WebSocket.OPEN && proven;
}

// Sends a message object or an already serialized JSON string (big snapshots are built as strings).
// Nothing goes to a peer that has not passed the pairing check.
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

// The WebSocket API hides the handshake's HTTP status, so a plain HTTP request tells "nothing listens there"
// apart from "something listens but refused us", and the companion's own answer to GET / (its service name)
// tells our companion apart from another program holding the port. The token is not part of the handshake.
async function explainRefusal(port) {
  let response;
  try {
    response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000), cache: "no-store" });
  } catch (_) {
    return `companion not running on port ${port}`;
  }
  let service = "";
  try {
    service = (await response.json()).service || "";
  } catch (_) {
    // not JSON: not our companion
  }
  if (service === "webchallenger") {
    return `the companion on port ${port} refused this extension (its terminal says why; an older companion: update it, then pair again)`;
  }
  return `port ${port} is used by another program, not the WebChallenger companion: stop it, or start the companion on another port (webchallenger serve --port N) and enter that port here`;
}

export async function ensureConnected() {
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  let { port, token } = await loadSettings();
  if (!token) {
    // No token typed: the native host (webchallenger install-browser) knows it, and starts a companion.
    await setStatus("connecting", "asking the companion's native host…");
    const found = await askNativeHost({ start: true, port, force: true });
    if (found.error) {
      await setStatus("unpaired", `not paired: enter the token printed by \`webchallenger serve\` (${found.error})`);
      return;
    }
    ({ port, token } = found);
    await chrome.storage.local.set({ port, token, typed: false });
  }
  // Re-check: another call may have opened a socket while settings loaded.
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  // Before the socket exists: written later, "connecting" could land after "connected".
  await setStatus("connecting", `connecting to port ${port}…`);
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  // Numbered here, where the dial is sure to happen: a call that returned above must not outnumber the socket
  // another call opened.
  const dial = ++dials;
  const say = (status, detail) => (dial === dials ? setStatus(status, detail) : Promise.resolve());
  let ws;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [SUBPROTOCOL]);
  } catch (e) {
    await say("error", `cannot connect to port ${port} (${e.message})`);
    return;
  }
  socket = ws;
  proven = false;
  connectedNow = false;
  const pairing = new PairingCheck(token, port, newId("auth"));
  let opened = false;
  let answered = false; // the peer's first message arrived (it must be the pairing answer)
  let failure = null; // why this peer is not our companion; shown instead of the close code
  const pairingTimer = setTimeout(() => refuse("it did not answer the pairing check in time"), PAIRING_TIMEOUT_MS);
  const mine = () => socket === ws;

  // The peer is not (proven to be) our companion: say so, drop it, and let the retry dial again.
  async function refuse(why) {
    if (!mine() || proven || failure) return;
    failure = `something on port ${port} is not your companion (${why})`;
    ws.close(4001, "pairing check failed"); // a page may only send 1000 or 3000-4999
    await say("error", failure);
    // Our companion may have moved or have a new token; the native host knows (it never starts one here:
    // the port is taken by whatever failed the check).
    if ((await adoptNativeAnswer(port, token, false)) === "offered") await say("error", `${failure}${NATIVE_OFFER}`);
  }

  async function checkAnswer(raw) {
    let msg = null;
    try {
      msg = JSON.parse(raw);
    } catch (_) {
      // not JSON: answer() names it
    }
    const outcome = await pairing.answer(msg);
    if (!mine() || failure) return;
    if (outcome.failure) {
      await refuse(outcome.failure);
      return;
    }
    clearTimeout(pairingTimer);
    proven = true;
    ws.send(JSON.stringify(outcome.proof));
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
      healStatus().catch((e) => console.warn("status", e));
    }, HEARTBEAT_MS);
  }

  // Handlers are attached in the same task that created the socket, so no event can be missed.
  ws.onopen = () => {
    opened = true;
    ws.send(JSON.stringify(pairing.challenge())); // the only thing an unproven peer ever gets
  };
  ws.onmessage = (event) => {
    if (!mine()) return;
    if (proven) {
      if (typeof event.data === "string") messageHandler(event.data);
      return;
    }
    if (answered) {
      // A companion sends nothing between its answer and our proof: anything here is not one.
      refuse("it sent messages before proving it knows the token");
      return;
    }
    answered = true;
    checkAnswer(typeof event.data === "string" ? event.data : null).catch((e) => refuse(`the pairing check failed: ${e.message}`));
  };
  ws.onclose = async (event) => {
    clearTimeout(pairingTimer);
    if (!mine()) return;
    socket = null;
    proven = false;
    connectedNow = false;
    clearTimers();
    if (!failure) {
      let detail;
      if (!opened) {
        // Nothing (of ours) listens: the native host, when installed, starts the companion or says where it is.
        // Starting one takes seconds; meanwhile the pages say so, not "not connected".
        if (!(await loadSettings()).typed) await say("connecting", `no companion answers on port ${port}; asking its native host, which starts one…`);
        detail = await explainRefusal(port);
        const native = await adoptNativeAnswer(port, token, true);
        if (native === "adopted") {
          failures = 0;
          detail = null;
          await say("connecting", "the native host gave the companion's new port; connecting…");
        } else if (native === "here") {
          detail = null;
          await say("connecting", `the companion is starting on port ${port}; connecting…`);
        }
        if (native === "offered") detail += NATIVE_OFFER;
      }
      else if (!answered) detail = `something on port ${port} closed the connection before answering the pairing check (code ${event.code}${event.reason ? ": " + event.reason : ""})`;
      else detail = `connection to port ${port} closed (code ${event.code}${event.reason ? ": " + event.reason : ""}); reconnecting`;
      if (detail) await say("error", detail);
    }
    scheduleRetry();
  };
}

// What the status adds when the native host knows another companion than the one typed by hand.
const NATIVE_OFFER = "; the native host knows a running companion: to use it, empty the token on the options page and save";

// What the native host says: "adopted" (another port or token, stored, to dial next), "offered" (a port and
// token typed by hand are kept: the user chose them, the status says the host is there), "here" (the host has
// just started a companion on the settings in use: it will accept in a moment), or null.
// For typed settings the host is only asked, never made to start a companion.
async function adoptNativeAnswer(port, token, start) {
  const { typed } = await loadSettings();
  const found = await askNativeHost({ start: start && !typed, port });
  if (found.error) return null;
  // Only a companion the host has just started is worth waiting for; one it says was already running yet does
  // not answer is an error the status shows.
  if (found.port === port && found.token === token) return !typed && found.started ? "here" : null;
  if (typed) return "offered";
  await chrome.storage.local.set({ port: found.port, token: found.token, typed: false });
  return "adopted";
}

// Whatever else wrote the status, a link that is up reads "connected" again within a heartbeat: the pages never
// show a stale "not connected" for long (an unforeseen write order must not leave them wrong for good).
async function healStatus() {
  if (connectedNow && isOpen() && (await getStatus()).status !== "connected") await setStatus("connected", "connected");
}

// The companion accepted our hello: the link is up.
export async function markConnected() {
  connectedNow = true;
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
  proven = false;
  connectedNow = false;
  clearTimers();
  if (old) {
    old.onclose = null;
    old.close();
  }
  await ensureConnected();
}
