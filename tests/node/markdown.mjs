// The fenced blocks of a Markdown text, for the tests that run the documents' examples
// (tests/node/docs.test.mjs, tests/e2e/docs.test.mjs; tests/doc_examples.rs reads them the same way).

/** The fenced blocks of `text` (fences of three or more backticks): `{info, line, body}`, `line` 1-based. */
export function blocks(text) {
  const out = [];
  let open = null;
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trimStart();
    if (open) {
      if (trimmed.trimEnd() === open.fence) { out.push(open.block); open = null; } else open.block.body.push(line);
    } else if (trimmed.startsWith('```')) {
      const fence = trimmed.match(/^`+/)[0];
      open = { fence, block: { info: trimmed.slice(fence.length).trim(), line: i + 1, body: [] } };
    }
  });
  return out;
}
