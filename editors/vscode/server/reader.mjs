// The server's message reader: vscode-jsonrpc's stream reader, answering what it would only log —
// a body that is not JSON gets a Parse error response, a JSON value that is neither a request, a
// notification nor a response gets an Invalid Request response (JSON-RPC 2.0, id null) — so that a
// client sending garbage hears about it and the server carries on. Before `initialize`, a request
// is answered ServerNotInitialized and a notification other than `exit` dropped (LSP 3.17).
import lsp from 'vscode-languageserver/node.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_NOT_INITIALIZED = -32002;

/** Whether `m` has the shape of a JSON-RPC request, notification or response. */
function isMessage(m) {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  if (typeof m.method === 'string') return true;
  return 'id' in m && ('result' in m || 'error' in m);
}

/** A reader of `input` that reports malformed and early messages through `writer`. */
export function guardedReader(input, writer) {
  const reply = (code, message, id = null) => writer.write({ jsonrpc: '2.0', id, error: { code, message } });
  let initialized = false;
  /** Whether `m` is to be handled: the first `initialize` opens the door. */
  const admit = (m) => {
    if (initialized || m.method === undefined || m.method === 'exit') return true;
    if (m.method === 'initialize') return (initialized = true);
    if ('id' in m) reply(SERVER_NOT_INITIALIZED, `${m.method}: the server is not initialized`, m.id);
    return false;
  };
  class GuardedReader extends lsp.StreamMessageReader {
    listen(callback) {
      return super.listen((m) => {
        if (!isMessage(m)) reply(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC message');
        else if (admit(m)) callback(m);
      });
    }
  }
  const reader = new GuardedReader(input);
  reader.onError((e) => reply(PARSE_ERROR, `Parse error: ${e.message}`));
  return reader;
}
