/**
 * The HTTP side of the analysis API (`/api/analysis...`, docs/protocol.md): JSON in, JSON or
 * text out. Every call settles with `{ok, status, data}` or `{ok, status, text}`; a network
 * failure or a reply of the wrong kind is `ok: false` with a message, never a throw.
 */

/** Send `body` as JSON to `url` (GET when body is undefined); the reply read as JSON. */
export async function fetchJson(url, body) {
  try {
    const response = await fetch(url, options(body));
    const type = response.headers.get('Content-Type') ?? '';
    const data = type.includes('json') ? await response.json() : null;
    if (data === null) {
      return refusal(response.status, `${url} answered ${response.status}`);
    }
    return { ok: response.ok, status: response.status, data };
  } catch (error) {
    return refusal(0, `could not reach the server: ${error.message}`);
  }
}

/** Send `body` as JSON to `url` (GET when undefined); the reply read as text (a PGN). */
export async function fetchText(url, body) {
  try {
    const response = await fetch(url, options(body));
    const text = await response.text();
    if (!response.ok) return refusal(response.status, messageOf(text, response.status));
    return { ok: true, status: response.status, text };
  } catch (error) {
    return refusal(0, `could not reach the server: ${error.message}`);
  }
}

/** The words of a refused reply's body: its JSON `message` (or `error`), else the status. */
export function errorMessage(reply) {
  return reply.data?.message ?? reply.data?.error ?? reply.message ?? `error ${reply.status}`;
}

function options(body) {
  if (body === undefined) return { credentials: 'same-origin' };
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  };
}

function refusal(status, message) {
  return { ok: false, status, message, data: null };
}

function messageOf(text, status) {
  try {
    const data = JSON.parse(text);
    return data.message ?? data.error ?? `error ${status}`;
  } catch {
    return `error ${status}`;
  }
}
