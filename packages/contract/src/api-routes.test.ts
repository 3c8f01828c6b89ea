import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ALL_ROUTES, API_ROUTES } from './api-routes';
import { buildPath, buildUrl, pathParamNames, type RouteInput, type RouteOutput } from './route-table';
import type { PermissionPath } from './navigation';
import type { UserListItem } from './users';

describe('the route table', () => {
  it('declares each method and path once', () => {
    const keys = ALL_ROUTES.map((entry) => `${entry.method} ${entry.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('gives every path parameter a schema, and no schema a parameter the path lacks', () => {
    const mismatched = ALL_ROUTES.filter((entry) => {
      const declared = entry.params instanceof z.ZodObject ? Object.keys(entry.params.shape).sort() : [];
      return JSON.stringify(declared) !== JSON.stringify(pathParamNames(entry.path).sort());
    }).map((entry) => `${entry.method} ${entry.path}`);
    expect(mismatched).toEqual([]);
  });

  it('declares an access rule on every route', () => {
    expect(ALL_ROUTES.filter((entry) => !entry.access).map((entry) => entry.path)).toEqual([]);
  });

  it('builds a path under /api with its parameters encoded, and a URL with the given query values only', () => {
    expect(buildPath(API_ROUTES.users.get, { id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' })).toBe(
      '/api/users/3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    );
    expect(buildPath(API_ROUTES.session.userByEmail, { email: 'ana maría@demo.mx' })).toBe(
      '/api/core/user/by_email/ana%20mar%C3%ADa%40demo.mx',
    );
    expect(buildUrl(API_ROUTES.users.list, { query: { page: 2, q: '', sort: '-email' } })).toBe('/api/users?page=2&sort=-email');
    expect(() => buildPath(API_ROUTES.users.get, { id: '' })).toThrow('falta el parámetro id');
  });
});

describe('the route table types', () => {
  it('types a call by its route: the input it takes and the output it answers', () => {
    expectTypeOf<RouteInput<typeof API_ROUTES.users.update>['params']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<RouteInput<typeof API_ROUTES.users.update>['body']>().toEqualTypeOf<z.input<typeof API_ROUTES.users.update.body>>();
    expectTypeOf<RouteInput<typeof API_ROUTES.users.list>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteOutput<typeof API_ROUTES.users.list>['items'][number]>().toEqualTypeOf<UserListItem>();
    expectTypeOf<RouteOutput<typeof API_ROUTES.users.export>>().toEqualTypeOf<Blob>();
    expectTypeOf<RouteOutput<typeof API_ROUTES.profiles.remove>>().toEqualTypeOf<void>();
    expectTypeOf<RouteInput<typeof API_ROUTES.requests.create>['body']>().toEqualTypeOf<FormData>();
    // A permission is one of the catalogue's paths, never any string.
    expectTypeOf<Extract<'/user/no-such-screen', PermissionPath>>().toBeNever();
  });
});
