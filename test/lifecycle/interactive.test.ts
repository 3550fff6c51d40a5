/**
 * `constraint label <id> --interactive` through a real pseudo-terminal: tmux runs the bin in a
 * detached session; keys go in with send-keys and the screen comes back with capture-pane. Each
 * key must be saved at once, so the measurement file is checked before the session ends.
 * Skipped, with the reason printed, where tmux cannot give a terminal.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it, afterAll } from 'vitest';
import { constraint, indexJson } from '../hooks/setup.js';
import { BIN, makeRepo, runFindings, type TestRepo } from '../helpers/repo.js';
import { survivalHistory } from './history.js';

interface Hit {
  id: string;
  commit: string;
  path: string;
  line: number;
  label?: string;
}

const SOCKET = `findings-test-${process.pid}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });

/** Why tmux cannot run a session here, or null when it can. */
function noTerminal(): string | null {
  const v = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return 'tmux is not installed (apt-get install -y tmux)';
  const probe = spawnSync('tmux', ['-L', `${SOCKET}-probe`, '-f', '/dev/null', 'new-session', '-d', '-s', 'probe', 'sleep 1'], {
    encoding: 'utf8',
  });
  spawnSync('tmux', ['-L', `${SOCKET}-probe`, 'kill-server']);
  return probe.status === 0 ? null : `tmux cannot open a pseudo-terminal: ${probe.stderr.trim()}`;
}

const reason = noTerminal();
if (reason !== null) console.log(`interactive labelling tests skipped: ${reason}`);

afterAll(() => {
  if (reason === null) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
});

const C = constraint('eval', { status: 'shadow', globs: ['src/**/*.js'] });
const hitsOf = (repo: TestRepo): Hit[] => (JSON.parse(repo.read('.agents/constraints/measurements/eval.json')) as { hits: Hit[] }).hits;

/** Starts the bin in a new tmux session; the shell prints EXIT=<code> when it ends. */
function start(session: string, repo: TestRepo, args: string[]): void {
  const quoted = [process.execPath, BIN, 'constraint', 'label', 'eval', '--interactive', '--root', repo.root, ...args]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
    .join(' ');
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', `${quoted}; echo "EXIT=$?"; sleep 600`);
}

const screen = (session: string, escapes = false): string => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', session);

/** Waits (polling; no time is asserted) until the screen shows `text`. */
async function waitFor(session: string, text: string | RegExp): Promise<string> {
  let last = '';
  for (let i = 0; i < 300; i += 1) {
    last = screen(session);
    if (typeof text === 'string' ? last.includes(text) : text.test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`screen never showed ${String(text)}; it shows:\n${last}`);
}

const press = (session: string, key: string): void => {
  tmux('send-keys', '-t', session, '-l', key);
};

async function measured(): Promise<TestRepo> {
  const repo = makeRepo();
  survivalHistory(repo);
  repo.write('.agents/constraints/index.json', indexJson(C));
  expect((await runFindings(['constraint', 'measure'], { cwd: repo.root })).code).toBe(0);
  return repo;
}

describe.skipIf(reason !== null)('constraint label --interactive in a terminal', () => {
  it('shows each hit in context with the match highlighted, saves every key at once, undoes, skips and quits', async () => {
    const repo = await measured();
    const hits = hitsOf(repo);
    const first = hits[0]!;
    start('a', repo, []);
    let s = await waitFor('a', `hit 1 of 21: ${first.id}`);
    expect(s).toContain(`commit ${first.commit}`);
    expect(s).toContain(`${first.path} line ${first.line}`);
    expect(s).toContain('0/21 labelled, precision n/a');
    expect(s).toContain('t true  f false  s skip  u undo  q quit');
    // the hit's line with up to 3 lines of context above it, read from git at that commit
    const expectedLine = first.path === 'src/keep.js' ? 'eval(a);' : `eval(${first.line});`;
    expect(s).toMatch(new RegExp(`> ${first.line} \\| ${expectedLine.replace(/[()]/g, '\\$&')}`));
    if (first.path === 'src/new.js')
      for (let n = Math.max(1, first.line - 3); n < first.line; n += 1) expect(s).toContain(`${n} | eval(${n});`);
    expect(screen('a', true)).toContain('\x1b[7meval(');

    press('a', 't');
    await waitFor('a', '1/21 labelled, precision 1.00');
    // saved before the session ends
    expect(hitsOf(repo).find((h) => h.id === first.id)!.label).toBe('true_positive');
    expect(screen('a')).toContain(`hit 2 of 21: ${hits[1]!.id}`);

    press('a', 'f');
    await waitFor('a', '2/21 labelled, precision 0.50');
    expect(hitsOf(repo).find((h) => h.id === hits[1]!.id)!.label).toBe('false_positive');

    press('a', 'u');
    s = await waitFor('a', '1/21 labelled, precision 1.00');
    expect(s).toContain(`hit 2 of 21: ${hits[1]!.id}`);
    expect(hitsOf(repo).find((h) => h.id === hits[1]!.id)!.label).toBeUndefined();

    press('a', 's');
    await waitFor('a', `hit 3 of 21: ${hits[2]!.id}`);
    press('a', 't');
    await waitFor('a', '2/21 labelled, precision 1.00');
    press('a', 'q');
    s = await waitFor('a', 'EXIT=0');
    expect(s).toContain('eval: 41 samples, 21 distinct hits, 2 labelled (2 true, 0 false)');
    expect(
      hitsOf(repo)
        .filter((h) => h.label !== undefined)
        .map((h) => h.id),
    ).toEqual([hits[0]!.id, hits[2]!.id]);
  });

  it('loses nothing when the process is killed, and labels only the sample with --sample', async () => {
    const repo = await measured();
    start('b', repo, ['--sample', '--size', '3', '--seed', '1']);
    const sample = await runFindings(['constraint', 'sample', 'eval', '--size', '3', '--seed', '1', '--format', 'json'], {
      cwd: repo.root,
    });
    const ids = (JSON.parse(sample.stdout) as { hits: { id: string }[] }).hits.map((h) => h.id);
    await waitFor('b', `hit 1 of 3: ${ids[0]}`);
    press('b', 't');
    await waitFor('b', `hit 2 of 3: ${ids[1]}`);
    press('b', 'f');
    await waitFor('b', `hit 3 of 3: ${ids[2]}`);
    tmux('kill-session', '-t', 'b');
    const labels = Object.fromEntries(
      hitsOf(repo)
        .filter((h) => h.label !== undefined)
        .map((h) => [h.id, h.label]),
    );
    expect(labels).toEqual({ [ids[0]!]: 'true_positive', [ids[1]!]: 'false_positive' });
  });
});
