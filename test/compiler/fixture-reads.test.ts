/**
 * How a compile reads fixtures from the working tree (compiler/raw-inputs.ts readFixtures): a
 * fixture is read where its path really leads, and refused when any symlink on that path — the
 * file or one of its folders — leads out of the repository. Missing paths, dangling symlinks and
 * a file where a folder should be read as missing.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastWorktreeFiles } from '../../compiler/fast-files.js';
import { readFixtures } from '../../compiler/raw-inputs.js';
import { makeRepo, tempDir } from '../helpers/repo.js';

const FX = '.agents/constraints/fixtures';

function setup(): { root: string; outside: string } {
  const repo = makeRepo({
    [`${FX}/f-a/bad.txt`]: 'eval(1)\n',
    [`${FX}/f-a/good.txt`]: 'ok\n',
    'common/fixtures/common.txt': 'common\n',
    'common/fixtures/deeper/x.txt': 'deeper\n',
    notafolder: 'file\n',
  });
  const outside = tempDir('findings-outside-');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  mkdirSync(path.join(outside, 'dir'));
  writeFileSync(path.join(outside, 'dir/x.txt'), 'outside x\n');
  const at = (rel: string): string => path.join(repo.root, rel);
  mkdirSync(at(`${FX}/f-links`), { recursive: true });
  symlinkSync(path.join(outside, 'secret.txt'), at(`${FX}/f-links/out.txt`));
  symlinkSync('../f-a/bad.txt', at(`${FX}/f-links/in.txt`));
  symlinkSync('nowhere.txt', at(`${FX}/f-links/dangling.txt`));
  symlinkSync(path.join(outside, 'dir'), at(`${FX}/f-outdir`));
  symlinkSync('../../../common/fixtures', at(`${FX}/f-indir`));
  // A folder inside the root whose entry leads out again.
  symlinkSync(path.join(outside, 'dir/x.txt'), at('common/fixtures/deeper/out.txt'));
  return { root: repo.root, outside };
}

describe('fixture reads through symlinks', () => {
  it('reads plain files, follows symlinks that stay inside, refuses every one that leaves', async () => {
    const { root } = setup();
    const refs = [
      `${FX}/f-a/bad.txt`,
      `${FX}/f-a/good.txt`,
      `${FX}/f-a/none.txt`,
      `${FX}/f-none/bad.txt`,
      `${FX}/f-links/out.txt`,
      `${FX}/f-links/in.txt`,
      `${FX}/f-links/dangling.txt`,
      `${FX}/f-outdir/x.txt`,
      `${FX}/f-outdir/missing.txt`,
      `${FX}/f-indir/common.txt`,
      `${FX}/f-indir/deeper/x.txt`,
      `${FX}/f-indir/deeper/out.txt`,
      'notafolder/bad.txt',
      'common/fixtures/common.txt',
    ];
    const got = await readFixtures(fastWorktreeFiles(root), refs);
    const text = (t: string) => ({ kind: 'text', text: t });
    const refused = { kind: 'refused', problem: 'leaves the repository through a symlink' };
    const missing = { kind: 'missing' };
    expect(Object.fromEntries(got)).toEqual({
      [`${FX}/f-a/bad.txt`]: text('eval(1)\n'),
      [`${FX}/f-a/good.txt`]: text('ok\n'),
      [`${FX}/f-a/none.txt`]: missing,
      [`${FX}/f-none/bad.txt`]: missing,
      [`${FX}/f-links/out.txt`]: refused,
      [`${FX}/f-links/in.txt`]: text('eval(1)\n'),
      [`${FX}/f-links/dangling.txt`]: missing,
      [`${FX}/f-outdir/x.txt`]: refused,
      [`${FX}/f-outdir/missing.txt`]: missing,
      [`${FX}/f-indir/common.txt`]: text('common\n'),
      [`${FX}/f-indir/deeper/x.txt`]: text('deeper\n'),
      [`${FX}/f-indir/deeper/out.txt`]: refused,
      'notafolder/bad.txt': missing,
      'common/fixtures/common.txt': text('common\n'),
    });
  });

  it("a folder named as a fixture is that fixture's problem, not the run's", async () => {
    const { root } = setup();
    const got = await readFixtures(fastWorktreeFiles(root), [`${FX}/f-a`]);
    expect(got.get(`${FX}/f-a`)).toMatchObject({ kind: 'refused' });
  });
});
