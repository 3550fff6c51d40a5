/**
 * re2js, loaded on first use (docs/hooks.md "Speed"). It is a quarter of a megabyte of code to
 * compile, and a commit whose patterns are all plain and whose files hold none of their
 * literals never runs it (src/match/plain-pattern.ts): such a commit does not load it at all.
 * Everything that runs a pattern gets re2js from here, so there is one instance of it.
 */
import { createRequire } from 'node:module';

type Re2js = typeof import('re2js');

const require = createRequire(import.meta.url);
let loaded: Re2js | null = null;

/** The re2js module. */
export function re2js(): Re2js {
  loaded ??= require('re2js') as Re2js;
  return loaded;
}
