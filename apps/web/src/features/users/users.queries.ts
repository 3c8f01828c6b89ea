import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileInput, UserDetail, UserInput, UserListItem } from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import { apiJson, jsonBody } from '../../lib/api';

export const usersKeys = {
  all: ['users'] as const,
  list: (query: string) => ['users', 'list', query] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  profiles: ['profiles'] as const,
};

export const userListQuery: ListQuery<UserListItem> = (query) => ({
  queryKey: usersKeys.list(query),
  queryFn: () => apiJson<{ items: UserListItem[]; total: number }>(`/api/users?${query}`),
});

export function useUser(id: string) {
  return useQuery({ queryKey: usersKeys.detail(id), queryFn: () => apiJson<UserDetail>(`/api/users/${id}`) });
}

export function useProfiles() {
  return useQuery({ queryKey: usersKeys.profiles, queryFn: () => apiJson<{ items: Profile[] }>('/api/profiles').then((body) => body.items) });
}

function useInvalidating<Args, Result>(run: (args: Args) => Promise<Result>, keys: readonly (readonly string[])[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

export const useCreateUser = () =>
  useInvalidating((input: UserInput) => apiJson<UserDetail>('/api/users', jsonBody('POST', input)), [usersKeys.all, usersKeys.profiles]);

export const useUpdateUser = (id: string) =>
  useInvalidating((input: UserInput & { version: number }) => apiJson<UserDetail>(`/api/users/${id}`, jsonBody('PUT', input)), [usersKeys.all, usersKeys.profiles]);

export const useSetUserStatus = () =>
  useInvalidating(
    ({ id, active, version }: { id: string; active: boolean; version: number }) => apiJson<UserDetail>(`/api/users/${id}/status`, jsonBody('POST', { active, version })),
    [usersKeys.all],
  );

export const useSaveProfile = () =>
  useInvalidating(
    ({ id, ...input }: ProfileInput & { id?: string; version?: number }) =>
      apiJson<Profile>(id ? `/api/profiles/${id}` : '/api/profiles', jsonBody(id ? 'PUT' : 'POST', input)),
    [usersKeys.profiles, usersKeys.all],
  );

export const useDeleteProfile = () => useInvalidating((id: string) => apiJson<void>(`/api/profiles/${id}`, jsonBody('DELETE')), [usersKeys.profiles]);
