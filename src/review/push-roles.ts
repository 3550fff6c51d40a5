/**
 * Roles at push time (docs/hooks.md, "What a change can and cannot do to its own judgment"):
 * `roles.json` is read at the remote side of the pushed range. A waiver or CEO line that the push
 * adds must be authored by someone who already held the role there; one who was granted the role
 * by a commit inside the same push is refused, and the message names that commit. The grant
 * itself is fine: it counts from the next push, once it is on the remote for others to see.
 *
 * (`findings validate` separately checks the role at the commit that added each line; this adds
 * only the case it cannot see, so nothing is reported twice.)
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { splitLines } from '../jsonl.js';
import { Layout } from '../layout.js';
import { blameLines, commitsTouching, fileAtCommits } from '../git/review.js';
import { readObjects } from '../git/core.js';
import { parseLedger } from './events.js';
import { holdsRole, parseRoles, type RoleName } from './roles.js';
import type { Roles } from './types.js';

/** A ledger line whose author must hold a role. */
export interface RoleClaim {
  readonly line: number;
  readonly text: string;
  readonly role: RoleName;
  readonly what: string;
}

/** The waiver and CEO lines of a ledger text. Pure. */
export function roleClaims(text: string, file: string, task: string): RoleClaim[] {
  const { events } = parseLedger(text, file, task);
  const raw = splitLines(text);
  const claims: RoleClaim[] = [];
  for (const e of events) {
    const line = e.ledgerLine ?? 0;
    const lineText = raw[line - 1]?.text ?? '';
    if (e.type === 'waived') claims.push({ line, text: lineText, role: 'auditor', what: `waiver of F-${e.finding_id.slice(0, 8)}` });
    if (e.type === 'filed' && e.origin === 'ceo')
      claims.push({ line, text: lineText, role: 'ceo', what: `CEO rejection F-${e.finding_id.slice(0, 8)}` });
  }
  return claims;
}

const taskOf = (file: string): string => file.slice(file.lastIndexOf('/') + 1).replace(/\.jsonl$/, '');

/**
 * Errors for the role lines the push adds to `ledgers` (paths at `tip`) whose author held the
 * role only inside `base..tip`. `base` null: the push has no remote side, so nobody held a role.
 */
export async function rolesGrantedInPush(
  root: string,
  base: string | null,
  tip: string,
  ledgers: readonly string[],
): Promise<Diagnostic[]> {
  if (ledgers.length === 0) return [];
  const names = ledgers.flatMap((f) => [`${tip}:${f}`, ...(base === null ? [] : [`${base}:${f}`])]);
  if (base !== null) names.push(`${base}:${Layout.roles}`);
  const objects = await readObjects(root, names);
  const rolesBefore: Roles = base === null ? {} : parseRoles(objects.get(`${base}:${Layout.roles}`)?.toString('utf8') ?? '{}').roles;
  const out: Diagnostic[] = [];
  let grants: Map<string, Roles> | null = null;
  for (const file of [...ledgers].sort()) {
    const text = objects.get(`${tip}:${file}`)?.toString('utf8');
    if (text === undefined) continue;
    const before = new Set(base === null ? [] : splitLines(objects.get(`${base}:${file}`)?.toString('utf8') ?? '').map((l) => l.text));
    const added = roleClaims(text, file, taskOf(file)).filter((c) => !before.has(c.text));
    if (added.length === 0) continue;
    const blame = await blameLines(root, tip, file);
    for (const claim of added) {
      const origin = blame.get(claim.text)?.[0];
      if (origin === undefined || holdsRole(rolesBefore, claim.role, origin.authorEmail)) continue;
      if (grants === null) {
        // Every commit of the push that touches roles.json, oldest first, with its roles.
        const commits = await commitsTouching(root, base, tip, Layout.roles);
        grants = new Map(
          [...(await fileAtCommits(root, Layout.roles, commits))].map(([c, data]) => [
            c,
            data ? parseRoles(data.toString('utf8')).roles : {},
          ]),
        );
      }
      const grant = [...grants].find(([, roles]) => holdsRole(roles, claim.role, origin.authorEmail))?.[0];
      // Never granted in the push: not held at all, which `findings validate` reports (review/role-not-held).
      if (grant === undefined) continue;
      const side =
        base === null
          ? 'the push has no remote side, so nobody holds a role yet'
          : `at the remote side of the push (${base.slice(0, 12)}) they do not`;
      out.push(
        diagnostic({
          file,
          line: claim.line,
          ruleId: 'review/role-granted-in-push',
          message:
            `${claim.what} was added by ${origin.authorEmail} in commit ${origin.commit.slice(0, 12)}, who ` +
            `holds "${claim.role}" only since commit ${grant.slice(0, 12)} of this same push (.agents/roles.json); ${side}`,
          notes: [
            `push the roles.json change on its own first (git push <remote> ${grant.slice(0, 12)}:<branch>); a role counts from the next push`,
          ],
        }),
      );
    }
  }
  return out;
}
