import { describe, expect, it } from 'vitest';
import { fieldPaths } from './schema-form';

describe('fieldPaths', () => {
  it('names every field of a form, nested objects and lists of objects by position', () => {
    expect(fieldPaths({ email: '', active: true, references: [{ name: '', phone: '' }], documents: { ine: null } })).toEqual([
      'email',
      'active',
      'references.0.name',
      'references.0.phone',
      'documents.ine',
    ]);
  });

  it('takes a list of plain values as one field, empty or not', () => {
    expect(fieldPaths({ name: '', permissions: [] })).toEqual(['name', 'permissions']);
    expect(fieldPaths({ permissions: ['/user/user-list', '/user/profile-list'] })).toEqual(['permissions']);
  });
});
