// Talking to the server: JSON over HTTP, and websockets on the same host.

export async function api(path, options = {}) {
  const r = await fetch(path, options);
  let body = {};
  try {
    body = await r.json();
  } catch (e) {
    body = {};
  }
  if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
  return body;
}

export function postJSON(path, data) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
}

// A websocket to `path` on this server; onMessage(msg) for each JSON message,
// onClose(event) when it closes. Returns {send(msg), close()}.
export function socket(path, onMessage, onClose) {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  const ws = new WebSocket(url);
  const queue = [];
  let closedByUs = false;
  ws.addEventListener("open", () => {
    while (queue.length) ws.send(queue.shift());
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (e) => {
    if (!closedByUs && onClose) onClose(e);
  });
  return {
    send(msg) {
      const text = JSON.stringify(msg);
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
      else if (ws.readyState === WebSocket.CONNECTING) queue.push(text);
    },
    close() {
      closedByUs = true;
      ws.close();
    },
  };
}
