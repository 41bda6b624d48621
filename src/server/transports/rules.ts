import type { TransportRulesRegistry } from '../core/channels/transport-rules.ts';
import { avitoRules } from './avito/rules.ts';
import { instApiRules } from './instapi/rules.ts';
import { maxRules } from './max/rules.ts';
import { maxbotRules } from './maxbot/rules.ts';
import { telegramRules } from './telegram/rules.ts';
import { tgapiRules } from './tgapi/rules.ts';
import { viberRules } from './viber/rules.ts';
import { vkRules } from './vk/rules.ts';
import { wapiRules } from './wapi/rules.ts';
import { whatsappRules } from './whatsapp/rules.ts';

/** Every transport's rules, by transport name. */
export const transportRules: TransportRulesRegistry = {
  telegram: telegramRules,
  tgapi: tgapiRules,
  wapi: wapiRules,
  whatsapp: whatsappRules,
  instAPI: instApiRules,
  viber: viberRules,
  avito: avitoRules,
  max: maxRules,
  maxbot: maxbotRules,
  vk: vkRules,
};
