import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { PatchSettingsBody, Settings } from '../../../../contract/settings.ts';
import { getSettings, patchSettings, type SettingsDeps } from '../../../core/rights/settings.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors } from '../errors.ts';

/** The account's rights: roles of CRM users per channel, and who sees no phone numbers. */
export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsDeps> = async (app, deps) => {
  const tags = ['settings'];

  app.get('/settings', { schema: { tags, summary: 'Read the rights settings', response: { 200: Envelope(Settings), ...authErrors } } }, async (request) =>
    envelope(deps.clock, await getSettings(deps, accountOf(request).accountId)),
  );

  app.patch(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Change the rights settings',
        description:
          '`user_roles` replaces every role of the account (read, change, write back); an empty `role` removes the user\'s access to the channel. ' +
          'Roles decide which channels\' chats a user sees in the chat frame (all of them while no role is set) and who gets new customers ' +
          '(`allow_get_new_clients`). Users in `hide_phone_numbers_for_user_ids` see no phone numbers in the frames. A channel of another ' +
          'account answers 400 INVALID_SETTINGS_DATA. Fields left out stay as they are.',
        body: PatchSettingsBody,
        response: { 200: Envelope(Settings), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await patchSettings(deps, accountOf(request).accountId, request.body)),
  );
};
