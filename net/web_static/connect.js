// The first thing the page runs, before xterm.js has loaded: it opens the
// websocket at once, so that the visitor's cardtable starts while the page
// loads (the program's start is most of the first frame's time). The size
// is a guess from the window; app.js sends the terminal's own as soon as it
// has one, long before the program draws. What comes before the terminal
// exists waits in `frames`.
"use strict";

window.cardtableSocket = function (cols, rows) {
  const url = new URL("ws", window.location.href);
  url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  url.search = "cols=" + cols + "&rows=" + rows;
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  return socket;
};

(function () {
  // a 15px monospace cell is about 9 by 18 pixels; the title bar takes ~40
  const cols = Math.max(20, Math.floor((window.innerWidth - 16) / 9));
  const rows = Math.max(10, Math.floor((window.innerHeight - 44) / 18));
  const early = { socket: window.cardtableSocket(cols, rows), frames: [], open: false, closed: null };
  early.socket.onopen = () => { early.open = true; };
  early.socket.onmessage = (event) => { early.frames.push(event); };
  early.socket.onclose = (event) => { early.closed = event; };
  window.cardtableEarly = early;
})();
