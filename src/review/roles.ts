/** `.agents/roles.json`: who may act as `auditor` (waive) and `ceo` (reject), by git identity. */
import { diagnostic, type Diagnostic } from '../diagnostics.js';
import { parseJsonDocument } from '../jsonl.js';
import { Layout } from '../layout.js';
import type { RepoFiles } from '../repo-files.js';
import { validate } from '../schema.js';
import type { Roles } from './types.js';

export type RoleName = 'auditor' | 'ceo';

/** Parses roles JSON text. Pure. An invalid file grants nobody anything. */
export function parseRoles(text: string, file: string = Layout.roles): { roles: Roles; diagnostics: Diagnostic[] } {
  const doc = parseJsonDocument(text);
  if (!doc.ok)
    return {
      roles: {},
      diagnostics: [diagnostic({ file, line: doc.line, column: doc.column, ruleId: 'review/roles-invalid-json', message: doc.reason })],
    };
  const raw = doc.value;
  const problems = validate('roles', raw);
  if (problems.length > 0)
    return { roles: {}, diagnostics: problems.map((message) => diagnostic({ file, line: 1, ruleId: 'review/roles-schema', message })) };
  const roles: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (Array.isArray(v)) roles[k] = v as string[];
  return { roles, diagnostics: [] };
}

/** Reads roles from a file source; missing → nobody holds a role. */
export async function readRoles(files: RepoFiles): Promise<{ roles: Roles; diagnostics: Diagnostic[] }> {
  const data = await files.read(Layout.roles);
  if (data === null) return { roles: {}, diagnostics: [] };
  return parseRoles(data.toString('utf8'));
}

/** Whether `email` is listed for `role` (emails compare case-insensitively, as mail systems do). */
export function holdsRole(roles: Roles, role: RoleName, email: string | null): boolean {
  if (email === null) return false;
  const e = email.trim().toLowerCase();
  return (roles[role] ?? []).some((x) => x.trim().toLowerCase() === e);
}
