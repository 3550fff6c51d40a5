/** `findings hook pre-commit|pre-merge-commit|pre-push`: what the one-line husky hook files call. */
import { readStdin } from '../io.js';
import type { HookOptions } from '../commit-hook.js';
import { type CommandContext, type CommandSpec, defineCommandGroup, subcommand } from '../define-command.js';

// The same list as HOOK_FORMATS (src/cli/commit-hook.ts), written out so that building this
// command does not load the commit hooks' modules.
const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;

/** Options every hook subcommand takes (husky's line may carry --quiet / --max-warnings). */
const HOOK_OPTIONS = { root: 'git', formats: FORMATS, warnings: true } as const satisfies Partial<CommandSpec<HookOptions, []>>;

const commitHook = (hook: 'pre-commit' | 'pre-merge-commit', description: string) =>
  subcommand(hook, description, {
    ...HOOK_OPTIONS,
    // The root comes from the hook's own probe (one git process for root, HEAD and operation).
    action: async ({ io, opts }: CommandContext<HookOptions>) => (await import('../commit-hook.js')).runCommitHook(hook, opts, io),
  });

export const run = defineCommandGroup('hook', 'Run a git hook: pre-commit, pre-merge-commit or pre-push.', {
  subcommands: [
    commitHook('pre-commit', 'validate staged finding files, apply constraints to staged content, check compiled outputs'),
    commitHook('pre-merge-commit', 'the pre-commit checks for a conflict-free git merge (only what the merge introduces blocks)'),
    subcommand('pre-push', "check each pushed range (git's pre-push lines on stdin)", {
      ...HOOK_OPTIONS,
      declare: (cmd) => cmd.argument('[remote]', 'remote name (git passes it)').argument('[url]', 'remote URL (git passes it)'),
      action: async ({ io, opts, out, repoRoot }: CommandContext<HookOptions>, remote: string | undefined, _url: string | undefined) => {
        const root = await repoRoot();
        const [{ prePush }, { reportHook }] = await Promise.all([import('../../../hooks/pre-push.js'), import('../commit-hook.js')]);
        return reportHook(out, await prePush(root, io.env, remote ?? 'origin', await readStdin(io)), opts, root);
      },
    }),
  ],
  missing: 'give a subcommand: pre-commit, pre-merge-commit, pre-push',
  helpCommand: true,
});
