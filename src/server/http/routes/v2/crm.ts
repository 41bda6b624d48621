import type { FastifyPluginAsync } from 'fastify';
import type { SettingsDeps } from '../../../core/rights/settings.ts';
import { counterRoutes } from './counters.ts';
import { dealRoutes } from './deals.ts';
import { settingsRoutes } from './settings.ts';
import { wabaTemplateRoutes } from './templates.ts';
import type { TemplateDeps } from '../../../core/templates/templates.ts';

/** The CRM's side beyond users and contacts: rights settings, counters, deals, pipelines and business-API templates in the service's shape. */
export const crmRoutes: FastifyPluginAsync<SettingsDeps & Pick<TemplateDeps, 'platform'>> = async (app, deps) => {
  await app.register(settingsRoutes, deps);
  await app.register(counterRoutes, deps);
  await app.register(dealRoutes, deps);
  await app.register(wabaTemplateRoutes, deps);
};
