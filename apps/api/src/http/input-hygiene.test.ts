import { describe, expect, it } from 'vitest';
import { HttpProblem } from './errors';
import { keptFileName, uploadedFileName } from './input-hygiene';

describe('An uploaded file name', () => {
  it('is refused, naming its field, when the database cannot store it', () => {
    for (const name of ['nó\u0000mina.csv', 'n\uD800mina.csv']) {
      let refused: unknown;
      try {
        uploadedFileName(name, 'archivo', 'background');
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(HttpProblem);
      expect((refused as HttpProblem).status).toBe(400);
      expect((refused as HttpProblem).errors).toEqual([expect.objectContaining({ field: 'background' })]);
    }
  });

  it('is kept to 200 characters without splitting one, or the fallback when empty', () => {
    const name = `${'a'.repeat(199)}😀.csv`;
    expect(name.length).toBe(205);
    // A cut by UTF-16 units would end in half of the emoji, which PostgreSQL stores as U+FFFD.
    expect(keptFileName(name, 'x')).toBe(`${'a'.repeat(199)}😀`);
    expect(uploadedFileName('Nómina de quincena.csv', 'archivo')).toBe('Nómina de quincena.csv');
    expect(uploadedFileName('', 'archivo')).toBe('archivo');
  });
});
