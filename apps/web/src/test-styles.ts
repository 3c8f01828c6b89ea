import { StyleSheet } from '@emotion/sheet';

/*
 * The screen tests' styles at less cost (docs/measurements.md, stop 68). jsdom computes an element's style
 * (getComputedStyle: every *ByRole query, accessible name and toBeVisible, user-event's pointer-events check) by
 * matching the element against every rule of every sheet: MUI's hundreds, some with :has(). Two changes leave every
 * computed style as it was:
 * - Emotion puts each rule in a <style> of its own outside production, for the browser's devtools; here each rule is
 *   appended to one sheet as production does (insertRule), and jsdom's style cache is cleared as a new <style> clears it.
 * - A rule whose subject (its last compound selector) needs a class the element lacks cannot match it: that is
 *   answered before the full match.
 */
interface DocumentInternals {
  _ownerDocument?: unknown;
  _styleCache?: unknown;
  _nwsapiDontThrow?: { match: (selector: string | undefined, element: Element, ...rest: unknown[]) => boolean };
}
/** jsdom's object behind a document (its own, not a public API): undefined if a later jsdom hides it. */
function internalsOf(page: Document): DocumentInternals | undefined {
  return Object.getOwnPropertySymbols(page)
    .map((symbol) => (page as unknown as Record<symbol, DocumentInternals | undefined>)[symbol])
    .find((value) => value?._ownerDocument === value);
}

const SPEEDY = Symbol.for('portal.test-styles.speedy');

/** Both changes, for this test file's document (test-setup.ts, before each file). */
export function speedUpStyles(): void {
  const insert = StyleSheet.prototype.insert as StyleSheet['insert'] & { [SPEEDY]?: true };
  // Emotion's module may outlive a file's document in the worker: its sheets are patched once, and each clears the
  // cache of the document it writes to.
  if (!insert[SPEEDY]) {
    const speedy = function (this: StyleSheet, rule: string) {
      this.isSpeedy = true;
      insert.call(this, rule);
      const internals = internalsOf(this.container.ownerDocument ?? document);
      if (internals) internals._styleCache = null;
    };
    StyleSheet.prototype.insert = Object.assign(speedy, { [SPEEDY]: true as const });
  }
  const documentImpl = internalsOf(document);

  // Class names match case-sensitively, as classList.contains does, in standards mode (a quirks-mode page would not).
  window.getComputedStyle(document.documentElement); // jsdom makes its rule matcher on the first call
  const matcher = documentImpl?._nwsapiDontThrow;
  if (document.compatMode !== 'CSS1Compat' || !matcher) return;
  const match = matcher.match;
  const required = new Map<string, string[] | null>();
  matcher.match = (selector, element, ...rest) => {
    if (typeof selector !== 'string') return match(selector, element, ...rest);
    let classes = required.get(selector);
    if (classes === undefined) required.set(selector, (classes = requiredClasses(selector)));
    if (classes && !classes.every((name) => element.classList.contains(name))) return false;
    return match(selector, element, ...rest);
  };
}

/**
 * The classes an element must have for `selector` to match it: those of its last compound selector outside any
 * parentheses or brackets (`.a:hover > .b.c:not(.d)` → b, c). Null when that cannot be read so simply (a list, escapes,
 * quotes, namespaces, a name that is not plain ASCII): then only the full match decides.
 */
export function requiredClasses(selector: string): string[] | null {
  if (/[\\,|"']/.test(selector)) return null;
  let depth = 0;
  let subject = 0;
  for (let i = 0; i < selector.length; i += 1) {
    const c = selector[i]!;
    if (c === '(' || c === '[') depth += 1;
    else if (c === ')' || c === ']') depth -= 1;
    else if (depth === 0 && /[\s>+~]/.test(c)) subject = i + 1;
  }
  if (depth !== 0 || subject === selector.length) return null;
  const classes: string[] = [];
  for (let i = subject; i < selector.length; i += 1) {
    const c = selector[i]!;
    if (c === '(' || c === '[') depth += 1;
    else if (c === ')' || c === ']') depth -= 1;
    else if (depth === 0 && c === '.') {
      const name = /^-?[_a-zA-Z][\w-]*/.exec(selector.slice(i + 1))?.[0];
      const next = name === undefined ? undefined : selector[i + 1 + name.length];
      if (name === undefined || (next !== undefined && !'.#:['.includes(next))) return null;
      classes.push(name);
    }
  }
  return classes;
}
