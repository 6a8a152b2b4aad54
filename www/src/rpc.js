// The message protocol between the page and its workers: a request is `{id, op, args}`; its reply
// is `{id, ok: true, value}` or `{id, ok: false, error: {name, code, message, bundles?}}`
// (`bundles`: the names a `no-path` error asks to choose from). A worker handles its requests one
// at a time, in the order sent (`serve`), so a call sees the effects of every call made before it;
// the page gets a promise per call (`connect`), rejected with an `Error` carrying the worker's
// `name`, `code` and `bundles`. Arguments and results are structured-cloned: plain data, `File`
// and `Blob` objects.

/**
 * Answer requests in a worker. `ops[op](...args)` may return a value or a promise; what it throws
 * becomes the error reply. `before()` runs (and is awaited) ahead of every request.
 * @param {Record<string, (...args: any[]) => any>} ops
 * @param {{ before?: () => any }} [options]
 */
export function serve(ops, { before } = {}) {
  let queue = Promise.resolve();
  self.onmessage = ({ data: { id, op, args } }) => {
    queue = queue.then(async () => {
      try {
        if (!Object.hasOwn(ops, op)) throw Object.assign(new Error(`unknown operation ${op}`), { code: 'unknown-operation' });
        await before?.();
        self.postMessage({ id, ok: true, value: await ops[op](...args) });
      } catch (e) {
        self.postMessage({ id, ok: false, error: { name: e?.name ?? 'Error', code: e?.code, message: e?.message ?? String(e), bundles: e?.bundles } });
      }
    });
  };
}

/**
 * Call a worker that `serve`s. `onPending(n)` hears how many calls are in flight after each change.
 * @param {Worker} worker
 * @param {(n: number) => void} [onPending]
 * @returns {{ call: (op: string, ...args: any[]) => Promise<any> }}
 */
export function connect(worker, onPending = () => {}) {
  let next = 0;
  const pending = new Map();
  const settle = (id) => {
    const p = pending.get(id);
    pending.delete(id);
    onPending(pending.size);
    return p;
  };
  worker.onmessage = ({ data }) => {
    const p = settle(data.id);
    if (!p) return;
    if (data.ok) p.resolve(data.value);
    else p.reject(Object.assign(new Error(data.error.message), { name: data.error.name, code: data.error.code, ...(data.error.bundles ? { bundles: data.error.bundles } : {}) }));
  };
  // The worker itself failed (it could not start, or threw outside a request): every call fails.
  worker.onerror = (ev) => {
    ev.preventDefault?.();
    const err = Object.assign(new Error(`the worker failed: ${ev.message ?? 'could not start'}`), { name: 'WorkerError', code: 'worker-failed' });
    for (const id of [...pending.keys()]) settle(id).reject(err);
  };
  return {
    call(op, ...args) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        onPending(pending.size);
        worker.postMessage({ id, op, args });
      });
    },
  };
}
