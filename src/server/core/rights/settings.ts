import type { FieldError } from '../../../contract/errors.ts';
import type { PatchSettingsBody, Settings } from '../../../contract/settings.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import type { RightsFlags, RoleRecord } from './ports.ts';

export interface SettingsDeps {
  store: Store;
  clock: Clock;
}

const defaultFlags: RightsFlags = { hidePhoneNumbersForUserIds: [], pushInputOutputMessageEventsForManagers: false };

function toSettings(roles: RoleRecord[], flags: RightsFlags): Settings {
  return {
    user_roles: roles.map((r) => ({ channel_id: r.channelId, user_id: r.userId, role: r.role, allow_get_new_clients: r.allowGetNewClients })),
    hide_phone_numbers_for_user_ids: flags.hidePhoneNumbersForUserIds,
    push_input_output_message_events_for_managers: flags.pushInputOutputMessageEventsForManagers,
  };
}

export async function getSettings({ store }: SettingsDeps, accountId: string): Promise<Settings> {
  const [roles, flags] = await Promise.all([store.rights.roles(accountId), store.rights.flags(accountId)]);
  return toSettings(roles, flags ?? defaultFlags);
}

/**
 * `user_roles`, when given, replaces every role of the account (clients read, change and write back); an empty
 * role leaves the user without access to the channel. Each channel must be the account's; one user has one role
 * per channel (the last entry wins).
 */
export async function patchSettings(deps: SettingsDeps, accountId: string, body: PatchSettingsBody): Promise<Settings> {
  const { store, clock } = deps;
  let roles: RoleRecord[] | undefined;
  if (body.user_roles) {
    const channels = new Set((await store.channels.list(accountId)).map((c) => c.id));
    const problems: FieldError[] = [];
    const byKey = new Map<string, RoleRecord | null>();
    body.user_roles.forEach((entry, i) => {
      if (!channels.has(entry.channel_id)) problems.push({ field: `user_roles.${i}.channel_id`, message: 'is not a channel of the account' });
      const key = `${entry.channel_id} ${entry.user_id}`;
      byKey.delete(key);
      byKey.set(key, entry.role ? { channelId: entry.channel_id, userId: entry.user_id, role: entry.role, allowGetNewClients: entry.allow_get_new_clients === true } : null);
    });
    if (problems.length > 0) throw new AppError('INVALID_SETTINGS_DATA', 'Invalid settings', { fields: problems });
    roles = [...byKey.values()].filter((r): r is RoleRecord => r !== null);
  }
  await store.transaction(async (tx) => {
    if (roles) await tx.rights.replaceRoles(accountId, roles);
    if (body.hide_phone_numbers_for_user_ids !== undefined || body.push_input_output_message_events_for_managers !== undefined) {
      const now = (await tx.rights.flags(accountId)) ?? defaultFlags;
      await tx.rights.saveFlags(
        accountId,
        {
          hidePhoneNumbersForUserIds: body.hide_phone_numbers_for_user_ids ? [...new Set(body.hide_phone_numbers_for_user_ids)] : now.hidePhoneNumbersForUserIds,
          pushInputOutputMessageEventsForManagers: body.push_input_output_message_events_for_managers ?? now.pushInputOutputMessageEventsForManagers,
        },
        clock.now(),
      );
    }
  });
  return getSettings(deps, accountId);
}
