/**
 * A tokenizer of RE2 pattern syntax (Go's regexp/syntax, which re2js follows), just deep enough to
 * answer two questions about a pattern without parsing it into a tree: where its anchors are
 * (`^`, `$`, `\A`, `\z`), so line-by-line matching can be run as one search over the whole text
 * (src/match/regex.ts, docs/compiler.md "Matching"); and whether it is a multi-line pattern, one
 * that asks for a line feed explicitly (docs/compiler.md "The extended index"). Escaped and
 * quoted characters (`\^`, `\Q…\E`) and characters inside a class (`[$^]`) are literals, never
 * anchors. The tokens' texts concatenate back to the pattern exactly. Pure.
 */

export type Token =
  /** A literal character, an escaped punctuation character or a `\Q…\E` run. */
  | { readonly t: 'literal'; readonly text: string }
  /** A backslash escape: a class (`\d`, `\pL`), an assertion (`\b`, `\A`, `\z`) or a character (`\n`, `\x41`, `\012`). */
  | { readonly t: 'escape'; readonly text: string }
  /** A bracket class, `[…]`, whole. */
  | { readonly t: 'class'; readonly text: string }
  | { readonly t: 'dot' | 'caret' | 'dollar' | 'alternate' | 'close'; readonly text: string }
  /** `(`, `(?:`, `(?P<name>`, `(?<name>`, `(?flags:`, or a lookaround opener (which re2js may refuse). */
  | { readonly t: 'open'; readonly text: string }
  /** A flag group that applies to the rest of the enclosing group: `(?i)`, `(?s-m)`. */
  | { readonly t: 'flags'; readonly text: string }
  /** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each possibly followed by `?`. */
  | { readonly t: 'repeat'; readonly text: string };

/** The tokens of a pattern, or null when it cannot be split (an unclosed class, a trailing backslash). */
export function tokenize(pattern: string): Token[] | null {
  const out: Token[] = [];
  const chars = Array.from(pattern);
  let i = 0;
  const take = (n: number): string => {
    const text = chars.slice(i, i + n).join('');
    i += n;
    return text;
  };
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return null;
      if (next === 'Q') {
        // Everything up to \E (or the end) is literal.
        let end = i + 2;
        while (end < chars.length && !(chars[end] === '\\' && chars[end + 1] === 'E')) end += 1;
        const stop = end < chars.length ? end + 2 : end;
        out.push({ t: 'literal', text: take(stop - i) });
        continue;
      }
      const len = escapeLength(chars, i);
      if (len === null) return null;
      const text = take(len);
      out.push(/^\\[0-9A-Za-z]/.test(text) ? { t: 'escape', text } : { t: 'literal', text });
      continue;
    }
    if (c === '[') {
      const len = classLength(chars, i);
      if (len === null) return null;
      out.push({ t: 'class', text: take(len) });
      continue;
    }
    if (c === '(') {
      const rest = chars.slice(i, i + 64).join('');
      const flags = /^\(\?[imsU-]*\)/.exec(rest);
      if (flags) {
        out.push({ t: 'flags', text: take(Array.from(flags[0]).length) });
        continue;
      }
      const open = /^\((?:\?(?:P?<[^>]*>|[imsU-]*:|[=!]|<[=!])?)?/.exec(rest)!;
      out.push({ t: 'open', text: take(Array.from(open[0]).length) });
      continue;
    }
    if (c === ')') out.push({ t: 'close', text: take(1) });
    else if (c === '|') out.push({ t: 'alternate', text: take(1) });
    else if (c === '.') out.push({ t: 'dot', text: take(1) });
    else if (c === '^') out.push({ t: 'caret', text: take(1) });
    else if (c === '$') out.push({ t: 'dollar', text: take(1) });
    else if (c === '*' || c === '+' || c === '?') out.push({ t: 'repeat', text: take(chars[i + 1] === '?' ? 2 : 1) });
    else if (c === '{') {
      const m = /^\{\d+(?:,\d*)?\}\??/.exec(chars.slice(i, i + 24).join(''));
      // A brace that is not a repetition is a literal brace (Go's reading).
      out.push(m ? { t: 'repeat', text: take(m[0].length) } : { t: 'literal', text: take(1) });
    } else out.push({ t: 'literal', text: take(1) });
  }
  return out;
}

/** Length (in code points) of the escape at `chars[i]` (a backslash), or null when it runs off the end. */
function escapeLength(chars: readonly string[], i: number): number | null {
  const next = chars[i + 1];
  if (next === undefined) return null;
  if (next === 'p' || next === 'P') {
    if (chars[i + 2] === '{') {
      const close = chars.indexOf('}', i + 3);
      return close === -1 ? null : close - i + 1;
    }
    return chars[i + 2] === undefined ? null : 3;
  }
  if (next === 'x') {
    if (chars[i + 2] === '{') {
      const close = chars.indexOf('}', i + 3);
      return close === -1 ? null : close - i + 1;
    }
    return 4;
  }
  if (next >= '0' && next <= '7') {
    // Octal: up to three digits.
    let n = 1;
    while (n < 3 && chars[i + 1 + n] !== undefined && chars[i + 1 + n]! >= '0' && chars[i + 1 + n]! <= '7') n += 1;
    return 1 + n;
  }
  return 2;
}

/** Length (in code points) of the bracket class starting at `chars[i]`, or null when it never closes. */
function classLength(chars: readonly string[], i: number): number | null {
  let j = i + 1;
  if (chars[j] === '^') j += 1;
  // A `]` first in the class is a literal.
  if (chars[j] === ']') j += 1;
  while (j < chars.length) {
    const c = chars[j]!;
    if (c === ']') return j - i + 1;
    if (c === '\\') {
      const len = escapeLength(chars, j);
      if (len === null) return null;
      j += len;
      continue;
    }
    if (c === '[' && chars[j + 1] === ':') {
      const close = chars
        .slice(j + 2)
        .join('')
        .indexOf(':]');
      if (close !== -1) {
        j +=
          2 +
          Array.from(
            chars
              .slice(j + 2)
              .join('')
              .slice(0, close),
          ).length +
          2;
        continue;
      }
    }
    j += 1;
  }
  return null;
}

/** True when an escape or class text names the line feed itself: `\n`, `\x0A`, `\x{a}`, `\012`, or a literal line feed. */
function namesLineFeed(text: string): boolean {
  return /\n|\\n|\\x0[aA]|\\x\{0*[aA]\}|\\0?12(?![0-7])/.test(text);
}

/**
 * True when a pattern asks for a line feed explicitly, i.e. it is meant to span lines: it holds a
 * line feed (literally, `\n`, `\x0A`, `\x{A}`, `\012`, also inside a class) or turns on the `s`
 * flag (`.` then matches a line feed). Such a pattern is matched over the whole file, and only
 * from the extended index (upstream's gate reads every pattern line by line). A class that merely
 * contains the line feed (`\s`, `[^;]`, `[\s\S]`) does not count: line by line it never sees one. Pure.
 */
export function isMultiLinePattern(pattern: string): boolean {
  const tokens = tokenize(pattern);
  // A pattern that cannot be split is refused by the engine anyway; judge its text.
  if (tokens === null) return namesLineFeed(pattern) || /\(\?[imU]*s/.test(pattern);
  return tokens.some((k) => {
    if (k.t === 'literal' || k.t === 'escape' || k.t === 'class') return namesLineFeed(k.text);
    if (k.t === 'flags' || k.t === 'open') return /^\(\?[imU]*s/.test(k.text);
    return false;
  });
}

/**
 * The pattern with its anchors made line anchors: `^` and `\A` match at the start of any line,
 * `$` and `\z` at the end of any line (`(?m:^)`, `(?m:$)`), whatever the flags around them. Over
 * a text without a line feed this is the same pattern; searched over a whole text, a pattern that
 * cannot match a line feed then finds exactly the matches of each line searched on its own
 * (src/match/regex.ts). Null when the pattern cannot be split. Pure.
 */
export function withLineAnchors(pattern: string): string | null {
  const tokens = tokenize(pattern);
  if (tokens === null) return null;
  return tokens
    .map((k) => {
      if (k.t === 'caret' || (k.t === 'escape' && k.text === '\\A')) return '(?m:^)';
      if (k.t === 'dollar' || (k.t === 'escape' && k.text === '\\z')) return '(?m:$)';
      return k.text;
    })
    .join('');
}
