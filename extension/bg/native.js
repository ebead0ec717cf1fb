// Pairing through the native messaging host that `webchallenger install-browser` registers: it tells us the
// running companion's port and the pairing token, and starts a companion when none runs. Chrome lets only the
// extension ids in the host's manifest reach it. Without the host (not installed, another browser) the
// options page's token stays the way to pair.
const HOST = "com.webchallenger.companion";
// A companion that does not answer is not re-asked for this long (each ask may start a process).
const ASK_AGAIN_MS = 30_000;

let lastAsk = 0;
let lastGood = null; // the last answer with a port and token, and when it came: repeated while re-asking is held back
let inFlight = null; // one question at a time: concurrent callers share its answer

// {port, token, started} on success (with repeated: true when it is the last answer again), {error} otherwise
// (never throws).
export function askNativeHost({ start = true, port = 0, force = false } = {}) {
  if (inFlight) return inFlight;
  const now = Date.now();
  if (!force && now - lastAsk < ASK_AGAIN_MS) {
    // A companion the host just started may take a few seconds to accept: its answer still holds.
    if (lastGood && now - lastGood.at < ASK_AGAIN_MS) return Promise.resolve({ ...lastGood.answer, repeated: true });
    return Promise.resolve({ error: "asked the native host a moment ago" });
  }
  lastAsk = now;
  inFlight = ask(start, port)
    .then((answer) => {
      if (!answer.error) lastGood = { answer, at: Date.now() };
      return answer;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

async function ask(start, port) {
  if (!chrome.runtime.sendNativeMessage) return { error: "native messaging is not available" };
  let answer;
  try {
    answer = await chrome.runtime.sendNativeMessage(HOST, { type: "native_pair", start, port });
  } catch (e) {
    // "Specified native messaging host not found." when install-browser was not run: say what to do, in words.
    const missing = /not found/i.test(e.message);
    return {
      error: missing
        ? "the companion is found and started automatically only after `webchallenger install-browser` is run once and the browser restarted"
        : `the companion's native host did not answer (${e.message}): run \`webchallenger install-browser\` again`,
    };
  }
  if (!answer || answer.type !== "native_pair_answer") return { error: "the native host gave no answer" };
  if (answer.error) return { error: answer.error };
  if (!Number.isInteger(answer.port) || answer.port <= 0 || answer.port > 65535 || typeof answer.token !== "string" || !answer.token) {
    return { error: "the native host's answer has no port and token" };
  }
  return { port: answer.port, token: answer.token, started: Boolean(answer.started) };
}
