// Message ids for messages the extension originates (hello, heartbeats, tab events).
export function newId(prefix) {
  return `${prefix}-${crypto.randomUUID()}`;
}
