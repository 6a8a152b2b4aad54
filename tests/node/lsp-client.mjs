// A JSON-RPC client over a child process's stdio, for tests of the bundled server: frames messages
// with Content-Length headers, matches responses to requests, and waits for notifications.
import { spawn } from 'node:child_process';

export class LspClient {
  /** Start `command` with `args` and `env` (added to this process's environment). */
  constructor(command, args, env = {}) {
    this.child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.buffer = Buffer.alloc(0);
    this.nextId = 1;
    this.pending = new Map();
    this.messages = [];
    this.waiters = [];
    this.stderr = '';
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdout.on('data', (d) => this.receive(d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  receive(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString());
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.dispatch(body);
    }
  }

  dispatch(message) {
    if (message.id != null && this.pending.has(message.id) && !message.method) {
      this.pending.get(message.id)(message);
      this.pending.delete(message.id);
      return;
    }
    this.messages.push(message);
    this.waiters = this.waiters.filter(([pred, resolve]) => !(pred(message) && (resolve(message), true)));
  }

  /** Write raw `text` as one framed message body. */
  sendRaw(text) {
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  notify(method, params) {
    this.sendRaw(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  /** Send a request; resolves to the whole response message. */
  request(method, params) {
    const id = this.nextId++;
    const answer = new Promise((resolve) => this.pending.set(id, resolve));
    this.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer;
  }

  /** The first message (already received or to come) satisfying `pred`; consumed. Fails after `ms`. */
  waitFor(pred, ms = 10000) {
    const i = this.messages.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.messages.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; stderr: ${this.stderr}; unclaimed: ${JSON.stringify(this.messages)}`)), ms);
      this.waiters.push([pred, (m) => (clearTimeout(timer), this.messages.splice(this.messages.indexOf(m), 1), resolve(m))]);
    });
  }
}
