// The CodeMirror 6 editor with live validation: every change re-validates the whole loaded tree
// (with this file's new text; in the worker, so `check` answers with a promise) and underlines
// this file's findings at their line and column.
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, forceLinting } from '@codemirror/lint';

/**
 * @param {HTMLElement} parent
 * @param {(text: string) => Promise<import('olm-catalog').Diagnostic[]>} check findings for this file given its text
 * @param {(text: string) => void} onChange
 */
export function createEditor(parent, check, onChange) {
  let view;
  const lint = linter(async (v) => {
    const doc = v.state.doc;
    let found;
    try {
      found = await check(doc.toString());
    } catch {
      return []; // the catalog was replaced meanwhile: the next check answers
    }
    return found.map((d) => {
      const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
      const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
      const to = Math.max(from + 1, Math.min(line.to, doc.length));
      return { from, to: Math.min(to, doc.length), severity: d.severity === 'note' ? 'info' : d.severity, message: `${d.message} [${d.code}]`, source: 'olm-catalog' };
    });
  }, { delay: 250 });
  const listener = EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); });
  view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions: [basicSetup, yaml(), lintGutter(), lint, listener] }) });
  return {
    view,
    /** Show `text`, the cursor at `line` and `column`; focused unless `focus` is false. */
    open(text, line, column, { focus = true } = {}) {
      view.setState(EditorState.create({ doc: text, extensions: [basicSetup, yaml(), lintGutter(), lint, listener] }));
      if (line) {
        const l = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
        const pos = Math.min(l.from + Math.max((column ?? 1) - 1, 0), l.to);
        view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      }
      if (focus) view.focus();
      forceLinting(view);
    },
  };
}
