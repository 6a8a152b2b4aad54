// The baseline of the GitHub Action: which commit the catalogs are compared with (the pull
// request's base, a push's previous commit, or the `baseline` input), and its version of each
// catalog path extracted with git into a temporary directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

export class ActionError extends Error {}

const NO_COMMIT = /^0+$/;

/**
 * The commit to compare with: `input` when given (`none`: no comparison), else the pull request's
 * base (pull_request, pull_request_target events) or a push's previous commit, read from the event
 * payload at `eventPath`; undefined when there is none.
 */
export function baselineCommit(input, eventPath) {
  if (input === 'none') return undefined;
  if (input !== '') return input;
  if (!eventPath) return undefined;
  let event;
  try {
    event = JSON.parse(readFileSync(eventPath, 'utf8'));
  } catch (e) {
    throw new ActionError(`GITHUB_EVENT_PATH ${eventPath}: ${e.message}`);
  }
  const sha = event.pull_request?.base?.sha ?? event.merge_group?.base_sha ?? event.before;
  return typeof sha === 'string' && !NO_COMMIT.test(sha) ? sha : undefined;
}

function git(cwd, args, options = {}) {
  return spawnSync('git', args, { cwd, maxBuffer: 1 << 30, ...options });
}

/**
 * The full name of `rev` in the repository at `cwd`, fetched from `origin` when the checkout does
 * not have it (actions/checkout fetches one commit by default).
 */
export function resolveCommit(cwd, rev) {
  const has = () => git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { encoding: 'utf8' });
  let found = has();
  if (found.status !== 0) {
    git(cwd, ['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', rev]);
    found = has();
  }
  if (found.status !== 0) {
    throw new ActionError(
      `baseline ${rev}: no such commit in ${cwd} (fetch it, e.g. actions/checkout with fetch-depth: 0, or set baseline: none)`,
    );
  }
  return found.stdout.trim();
}

/**
 * Write `commit`'s version of `path` (relative to the repository at `cwd`) under `dir`; whether
 * the commit had it.
 */
export function extractPath(cwd, commit, path, dir) {
  const listed = git(cwd, ['ls-tree', '--name-only', commit, '--', path], { encoding: 'utf8' });
  if (listed.status !== 0) throw new ActionError(`git ls-tree ${commit}: ${listed.stderr.trim()}`);
  if (listed.stdout.trim() === '') return false;
  const archive = git(cwd, ['archive', '--format=tar', commit, '--', path]);
  if (archive.status !== 0) throw new ActionError(`git archive ${commit} -- ${path}: ${archive.stderr}`);
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-f', '-', '-C', dir], { input: archive.stdout });
  return true;
}
