import { describe, expect, it } from 'vitest';

/**
 * The portal speaks to the clerk in one voice (tú) and never in the words of its machinery. Every screen's source
 * is read as text: a formal "usted" imperative or an internal word fails here before it reaches a user.
 */
const sources = import.meta.glob(
  [
    '../**/*.tsx',
    '../../../../packages/contract/src/*.ts',
    '../../../../packages/lending/src/*.ts',
    '!../**/*.test.*',
    '!../../../../packages/**/*.test.*',
  ],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
) as Record<string, string>;

const INTERNAL = ['modo embebido', 'bandeja de salida', 'dictamen del servidor', 'outbox', 'payload', 'endpoint'];
// Formal imperatives and possessives addressed to the reader ("revise", "verifique"…): the app says "revisa".
const USTED = /\b(revise|verifique|ingrese|seleccione|elija|escriba|intente|comuníquese|presione)\b/i;

/** The Spanish a user reads: string literals and JSX text, not comments or identifiers. */
function userText(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const literals = withoutComments.match(/'[^'\n]*'|`[^`]*`|>[^<>{}]+</g) ?? [];
  return literals.filter((text) => /[áéíóúñ]|\s/.test(text));
}

describe('Spanish copy', () => {
  it('reads every screen and shared message', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(40);
  });

  it('uses no internal words on screen', () => {
    const found = Object.entries(sources).flatMap(([file, source]) =>
      userText(source)
        .filter((text) => INTERNAL.some((word) => text.toLowerCase().includes(word)))
        .map((text) => `${file}: ${text}`),
    );
    expect(found).toEqual([]);
  });

  it('speaks as tú, not usted', () => {
    const found = Object.entries(sources).flatMap(([file, source]) =>
      userText(source)
        .filter((text) => USTED.test(text))
        .map((text) => `${file}: ${text}`),
    );
    expect(found).toEqual([]);
  });
});
