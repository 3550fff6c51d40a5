/**
 * Review ledger, task and roles rules for `findings validate`. The real guard of the roles
 * (issue "Files": local checks are a convenience): for every waiver and CEO event, the commit
 * that added the line must be authored by an identity listed for the role in roles.json at that
 * commit — read from git history, so nobody can slip a waiver into a ledger by editing it.
 */
import { compareStrings, diagnostic, type Diagnostic } from '../diagnostics.js';
import { resolveCommit } from '../git/core.js';
import { blameLines, fileAtCommits, firstParent, prospectiveAuthorEmail, type LineOrigin } from '../git/review.js';
import { splitLines } from '../jsonl.js';
import { idFileNameProblem, Layout } from '../layout.js';
import type { ValidateContext, ValidateTarget } from '../validate/types.js';
import { eventLine, parseLedger } from './events.js';
import { parseTask } from './ledger.js';
import { holdsRole, parseRoles, readRoles, type RoleName } from './roles.js';
import { WAIVABLE, type FiledEvent, type ReviewEvent, type Roles } from './types.js';

const baseName = (file: string, ext: string): string => {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.endsWith(ext) ? base.slice(0, -ext.length) : base;
};

/** A line whose author must hold a role. */
interface RoleClaim {
  readonly line: number;
  readonly text: string;
  readonly role: RoleName;
  readonly what: string;
}

/** Transition and consistency rules over one ledger's events. Pure. */
export function ledgerTransitionProblems(file: string, events: readonly ReviewEvent[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (e: ReviewEvent, ruleId: string, message: string): void => {
    out.push(diagnostic({ file, line: e.ledgerLine ?? 0, ruleId, message }));
  };
  const byEventId = new Map<string, ReviewEvent>();
  const filed = new Map<string, FiledEvent>();
  for (const e of events) {
    const prev = byEventId.get(e.event_id);
    if (prev && eventLine(prev) !== eventLine(e))
      at(e, 'review/duplicate-event-id', `event_id ${e.event_id} is already used on line ${prev.ledgerLine ?? 0} by a different event`);
    if (!prev) byEventId.set(e.event_id, e);
    if (e.type === 'filed') {
      const p = filed.get(e.finding_id);
      const same =
        p &&
        JSON.stringify([p.origin, p.round, p.index, eventLine({ ...p, event_id: '', actor: null, at: '' })]) ===
          JSON.stringify([e.origin, e.round, e.index, eventLine({ ...e, event_id: '', actor: null, at: '' })]);
      if (p && !same)
        at(e, 'review/duplicate-finding', `finding ${e.finding_id} is already filed on line ${p.ledgerLine ?? 0} with different content`);
      if (!p) filed.set(e.finding_id, e);
    }
  }
  const addressed = new Set(events.filter((e) => e.type === 'addressed').map((e) => e.finding_id));
  for (const e of events) {
    if (e.type === 'filed') continue;
    const f = filed.get(e.finding_id);
    if (!f) {
      at(e, 'review/unknown-finding', `${e.type} event names finding ${e.finding_id}, which is not filed on this ledger`);
      continue;
    }
    if (e.type === 'verified') {
      if (!addressed.has(e.finding_id))
        at(
          e,
          'review/illegal-transition',
          `verifies F-${e.finding_id.slice(0, 8)}, which was never addressed (open → verified is not a transition)`,
        );
      if (e.origin !== f.origin)
        at(
          e,
          'review/illegal-transition',
          `a ${e.origin} pass verifies F-${e.finding_id.slice(0, 8)}, a ${f.origin} finding: only the same origin verifies`,
        );
    }
    if ((e.type === 'updated' || e.type === 'resolved') && f.source === undefined)
      at(
        e,
        'review/illegal-transition',
        `${e.type === 'updated' ? 'updates' : 'resolves'} F-${e.finding_id.slice(0, 8)}, which was not imported from a forge: ` +
          'only imported threads are updated or resolved by an import',
      );
    if (e.type === 'waived' && !WAIVABLE.includes(f.finding.severity)) {
      at(
        e,
        'review/illegal-transition',
        `waives F-${e.finding_id.slice(0, 8)}, a ${f.finding.severity} finding: blocker and major findings must be fixed, never waived`,
      );
    }
  }
  return out;
}

/** Checks that every role claim was added by an identity holding the role at that commit. */
async function authorshipProblems(file: string, claims: readonly RoleClaim[], ctx: ValidateContext): Promise<Diagnostic[]> {
  if (claims.length === 0) return [];
  const out: Diagnostic[] = [];
  const commit = ctx.commit ?? (await resolveCommit(ctx.root, 'HEAD'));
  const blame = commit ? await blameLines(ctx.root, commit, file) : new Map<string, LineOrigin[]>();
  const origins = new Map(claims.map((c) => [c, blame.get(c.text) ?? []]));
  const commits = [...new Set([...origins.values()].flat().map((o) => o.commit))].sort(compareStrings);
  const parents = new Map<string, string | null>();
  for (const c of commits) parents.set(c, await firstParent(ctx.root, c));
  const wanted = [...new Set([...commits, ...[...parents.values()].filter((p): p is string => p !== null)])];
  const rolesAt = new Map<string, Roles>();
  for (const [c, data] of await fileAtCommits(ctx.root, Layout.roles, wanted))
    rolesAt.set(c, data ? parseRoles(data.toString('utf8')).roles : {});
  let currentRoles: Roles | null = null;
  for (const claim of claims) {
    const list = origins.get(claim)!;
    const where = { file, line: claim.line };
    if (list.length === 0) {
      if (ctx.commit !== null) {
        out.push(
          diagnostic({
            ...where,
            ruleId: 'review/role-not-held',
            message: `${claim.what}: no commit in the history of ${ctx.commit.slice(0, 12)} added this line, so its author cannot be checked`,
          }),
        );
        continue;
      }
      // Not committed yet: judge the identity that will author the commit, with the roles being committed.
      currentRoles ??= (await readRoles(ctx.files)).roles;
      const email = await prospectiveAuthorEmail(ctx.root);
      if (!holdsRole(currentRoles, claim.role, email)) {
        out.push(
          diagnostic({
            ...where,
            ruleId: 'review/role-not-held',
            message:
              `${claim.what} is not committed yet and would be authored ` +
              `by ${email ?? '(no identity)'}, who is not listed under "${claim.role}" in .agents/roles.json`,
          }),
        );
      }
      continue;
    }
    const ok = list.find((o) => holdsRole(rolesAt.get(o.commit) ?? {}, claim.role, o.authorEmail));
    if (!ok) {
      const o = list[0]!;
      out.push(
        diagnostic({
          ...where,
          ruleId: 'review/role-not-held',
          message:
            `${claim.what} was added by ${o.authorEmail || '(unknown)'} in commit ${o.commit.slice(0, 12)},` +
            ` who is not listed under "${claim.role}" in .agents/roles.json at that commit`,
          notes: o.boundary
            ? [
                'history stops at that commit (shallow clone?): fetch the full history (git fetch --unshallow) so the real author can be checked',
              ]
            : [],
        }),
      );
      continue;
    }
    const parent = parents.get(ok.commit) ?? null;
    if (parent !== null && !holdsRole(rolesAt.get(parent) ?? {}, claim.role, ok.authorEmail)) {
      out.push(
        diagnostic({
          ...where,
          severity: 'warning',
          ruleId: 'review/role-self-granted',
          message:
            `${claim.what} was added by ${ok.authorEmail} in commit ${ok.commit.slice(0, 12)},` +
            ` the same commit that lists them under "${claim.role}" in .agents/roles.json`,
        }),
      );
    }
  }
  return out;
}

export async function validateLedgerTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const task = baseName(t.file, '.jsonl');
    if (idFileNameProblem(task) !== null) {
      out.push(
        diagnostic({ file: t.file, ruleId: 'review/task-id', message: `"${task}" is not a valid task id: it ${idFileNameProblem(task)!}` }),
      );
      continue;
    }
    const { events, diagnostics } = parseLedger(t.text, t.file, task);
    out.push(...diagnostics, ...ledgerTransitionProblems(t.file, events));
    const raw = splitLines(t.text);
    const claims: RoleClaim[] = [];
    const seen = new Set<number>();
    for (const e of events) {
      const line = e.ledgerLine ?? 0;
      if (seen.has(line)) continue;
      seen.add(line);
      const text = raw[line - 1]?.text ?? '';
      if (e.type === 'waived') claims.push({ line, text, role: 'auditor', what: `waiver of F-${e.finding_id.slice(0, 8)}` });
      if (e.type === 'filed' && e.origin === 'ceo')
        claims.push({ line, text, role: 'ceo', what: `CEO rejection F-${e.finding_id.slice(0, 8)}` });
    }
    out.push(...(await authorshipProblems(t.file, claims, ctx)));
  }
  return out;
}

export async function validateTaskTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void ctx;
  const out: Diagnostic[] = [];
  for (const t of targets) {
    const id = baseName(t.file, '.json');
    if (idFileNameProblem(id) !== null) {
      out.push(
        diagnostic({ file: t.file, ruleId: 'review/task-id', message: `"${id}" is not a valid task id: it ${idFileNameProblem(id)!}` }),
      );
      continue;
    }
    out.push(...parseTask(t.text, t.file, id).diagnostics);
  }
  return out;
}

export async function validateRolesTargets(targets: readonly ValidateTarget[], ctx: ValidateContext): Promise<Diagnostic[]> {
  void ctx;
  return targets.flatMap((t) => parseRoles(t.text, t.file).diagnostics);
}
