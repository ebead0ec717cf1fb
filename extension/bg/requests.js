// Requests the side panel makes of the companion that are answered by one reply echoing their id
// (site_info_get / site_forget -> site_info, companion_status_get -> companion_status; the options page's
// llm_settings_get / llm_settings_set -> llm_settings, llm_check -> llm_check_result; Show sections' sections_request -> sections_shown). The worker keeps the
// pending ones here; dispatch.js hands the replies (and any error answering one) back.
import { send } from "./connection.js";

const TIMEOUT_MS = 15_000;
const pending = new Map(); // request id -> { resolve, reject, timer }

export function askCompanion(message, timeoutMs = TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(message.id);
      reject(new Error("the companion did not answer"));
    }, timeoutMs);
    pending.set(message.id, { resolve, reject, timer });
    if (!send(message)) {
      clearTimeout(timer);
      pending.delete(message.id);
      reject(new Error("not connected to the companion"));
    }
  });
}

function settle(msg, outcome) {
  const waiting = msg && pending.get(msg.id);
  if (!waiting) return false;
  pending.delete(msg.id);
  clearTimeout(waiting.timer);
  outcome(waiting);
  return true;
}

// The replies, for dispatch.js's HANDLERS.
export const REPLY_HANDLERS = {
  async site_info(msg) {
    settle(msg, (w) => w.resolve(msg));
  },
  async companion_status(msg) {
    settle(msg, (w) => w.resolve(msg));
  },
  async llm_settings(msg) {
    settle(msg, (w) => w.resolve(msg));
  },
  async llm_check_result(msg) {
    settle(msg, (w) => w.resolve(msg));
  },
  async sections_shown(msg) {
    settle(msg, (w) => w.resolve(msg));
  },
};

// An error the companion answered one of these requests with: true when it was ours.
export function failCompanionRequest(msg) {
  return settle(msg, (w) => w.reject(new Error(msg.message || msg.code)));
}
