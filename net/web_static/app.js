// The cardtable page: xterm.js on a websocket to this visitor's cardtable.
// Bytes from the server are the terminal's; keys, mouse and size go back as
// ["stdin", text] and ["resize", cols, rows]. A session the server ends comes
// with a close code from 4000 up and a sentence, shown as it is; a dropped
// connection is tried again a few times (the server keeps the game running
// for a minute, so the tab comes back to the screen it left).
"use strict";

const RETRIES = 5;
const statusLine = document.getElementById("status");
const notice = document.getElementById("notice");
const noticeText = document.getElementById("notice-text");
const terminal = new Terminal({
  fontFamily: '"DejaVu Sans Mono", "Menlo", "Consolas", "Noto Sans Mono", "Noto Sans Symbols 2", "Segoe UI Symbol", monospace',
  fontSize: 15,
  scrollback: 0,
  cursorBlink: false,
  theme: { background: "#0f1419" },
});
const fit = new FitAddon.FitAddon();
terminal.loadAddon(fit);
terminal.open(document.getElementById("terminal"));
fit.fit();
terminal.focus();
// tests and curious visitors read the screen from here (the canvas hides it)
window.cardtable = { terminal: terminal, frames: 0 };

let socket = null;
let retries = 0;

function say(text, kind) {
  statusLine.textContent = text;
  statusLine.className = "status " + (kind || "");
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function finish(text) {
  say("closed", "lost");
  document.body.classList.add("closed"); // a dead terminal's cursor is not a screen
  noticeText.textContent = text;
  notice.hidden = false;
  document.getElementById("again").focus();
}

function opened() {
  say("connected", "live");
  // the terminal's own size (the socket opened at connect.js's guess, or at
  // the size before a reconnect): the program has not drawn yet
  send(["resize", terminal.cols, terminal.rows]);
}

function received(event) {
  if (typeof event.data === "string") return;
  retries = 0;
  window.cardtable.frames += 1;
  terminal.write(new Uint8Array(event.data));
  document.body.classList.add("playing");
}

function connect() {
  // the first time, the socket connect.js opened while the page loaded
  const early = window.cardtableEarly;
  window.cardtableEarly = null;
  socket = early ? early.socket : window.cardtableSocket(terminal.cols, terminal.rows);
  socket.onopen = opened;
  socket.onmessage = received;
  socket.onclose = closed;
  if (early) {
    early.frames.forEach(received);
    if (early.open) opened();
    if (early.closed) closed(early.closed);
  }
}

function closed(event) {
  socket = null;
  if (event.code >= 4000) {
    finish(event.reason || "The session has ended.");
  } else if (retries < RETRIES) {
    retries += 1;
    say("connection lost: trying again…", "lost");
    setTimeout(connect, 500 * retries);
  } else {
    finish("The connection to cardtable was lost. Your games are saved: play again to resume.");
  }
}

terminal.onData((text) => send(["stdin", text]));
terminal.onResize((size) => send(["resize", size.cols, size.rows]));
new ResizeObserver(() => fit.fit()).observe(document.getElementById("terminal"));
document.getElementById("again").onclick = () => window.location.reload();
connect();
