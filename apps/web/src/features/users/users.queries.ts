import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  outboxRoutes,
  profileRoutes,
  userRoutes,
  type OutboxMessage,
  type ProfileInput,
  type UserInput,
  type UserListItem,
} from '@portal/contract';
import type { ListQuery } from '../../components/list-screen';
import type { StatusChange } from '../../components/status-columns';
import { call, callList } from '../../lib/api-client';

export const usersKeys = {
  all: ['users'] as const,
  list: (query: string) => ['users', 'list', query] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
  profiles: ['profiles'] as const,
  mail: (query: string) => ['users', 'mail', query] as const,
};

export const userListQuery: ListQuery<UserListItem> = (query) => ({
  queryKey: usersKeys.list(query),
  queryFn: () => callList(userRoutes.list, query),
});

/** The portal's mail and its delivery, refreshed while the screen is open: a sender may change a row at any moment. */
export const mailListQuery: ListQuery<OutboxMessage> = (query) => ({
  queryKey: usersKeys.mail(query),
  queryFn: () => callList(outboxRoutes.list, query),
  refetchInterval: 15_000,
});

export function useUser(id: string) {
  return useQuery({ queryKey: usersKeys.detail(id), queryFn: () => call(userRoutes.get, { params: { id } }) });
}

export function useProfiles() {
  return useQuery({ queryKey: usersKeys.profiles, queryFn: () => call(profileRoutes.list).then((body) => body.items) });
}

function useInvalidating<Args, Result>(run: (args: Args) => Promise<Result>, keys: readonly (readonly string[])[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

export const useCreateUser = () =>
  useInvalidating((input: UserInput) => call(userRoutes.create, { body: input }), [usersKeys.all, usersKeys.profiles]);

export const useUpdateUser = (id: string) =>
  useInvalidating(
    (input: UserInput & { version: number }) => call(userRoutes.update, { params: { id }, body: input }),
    [usersKeys.all, usersKeys.profiles],
  );

export const useSetUserStatus = () =>
  useInvalidating(
    ({ id, active, version }: StatusChange) => call(userRoutes.setStatus, { params: { id }, body: { active, version } }),
    [usersKeys.all],
  );

export const useSaveProfile = () =>
  useInvalidating(
    ({ id, version, ...input }: ProfileInput & { id?: string; version?: number }) =>
      id && version !== undefined
        ? call(profileRoutes.update, { params: { id }, body: { ...input, version } })
        : call(profileRoutes.create, { body: input }),
    [usersKeys.profiles, usersKeys.all],
  );

export const useDeleteProfile = () => useInvalidating((id: string) => call(profileRoutes.remove, { params: { id } }), [usersKeys.profiles]);
