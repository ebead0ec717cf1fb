// The options page's LLM section: which backend and model the companion's tasks use (llm_settings_get /
// llm_settings_set, answered by llm_settings) and "Check" (llm_check: the companion runs `llm check` on the
// choice, answered by llm_check_result). The companion validates and keeps the choice; this only relays.
import { isOpen } from "./connection.js";
import { newId } from "./ids.js";
import { askCompanion } from "./requests.js";

// The companion gives up on a check after 120 s (companion/panel/llm_settings.py CHECK_DEADLINE_S) and answers
// with that error: wait a little longer than it does, so its answer, not ours, is what the page shows.
const CHECK_TIMEOUT_MS = 150_000;
const TYPES = new Set(["llm_settings_get", "llm_settings_set", "llm_check"]);

// Runtime requests from an extension page; returns a promise, or null when the request is not ours.
export function handleLlmRequest(request) {
  const type = request && request.type;
  if (!TYPES.has(type)) return null;
  if (!isOpen()) return Promise.reject(new Error("not connected to the companion"));
  const id = newId("llm");
  if (type === "llm_settings_get") return askCompanion({ type, id });
  const spec = typeof request.spec === "string" ? request.spec : "";
  // The API key of a hosted server: passed through, never stored or logged by the extension (the companion keeps it).
  const key = typeof request.api_key === "string" ? { api_key: request.api_key } : {};
  if (type === "llm_settings_set") return askCompanion({ type, id, spec, ...key });
  return askCompanion({ type, id, spec, ...key }, CHECK_TIMEOUT_MS);
}
