import { catalog } from '@/lib/i18n.ts';

/** The words of a personal channel's pacing settings (PacingSettings). */
export const pacingWords = catalog(
  {
    open: 'Sending pace',
    title: 'Sending pace',
    hint: 'A personal number sends like a person, so that the messenger does not ban it. Replies to customers who wrote are never held by the new-chat limit.',
    loading: 'Loading…',
    enabled: 'Pace the sends (recommended)',
    warmUp: 'Warm up a new number: limits rise over the first days',
    timeZone: 'Time zone',
    quiet: 'Quiet hours for new chats',
    from: 'from',
    to: 'to',
    today: (day: number, sent: number, cap: number, first: number, firstCap: number) =>
      `Day ${day} since linking: ${sent} of ${cap} messages, ${first} of ${firstCap} new chats today.`,
    queue: (waiting: number, held: number) => `${waiting} waiting to be sent, ${held} held by the pace.`,
    next: (at: string) => `Next send not before ${at}.`,
    slowed: (until: string) => `The messenger asked to slow down: slower until ${until}.`,
    save: 'Save',
    saving: 'Saving…',
    saved: 'Saved.',
    close: 'Close',
  },
  {
    ru: {
      open: 'Темп отправки',
      title: 'Темп отправки',
      hint: 'Личный номер отправляет как человек, чтобы мессенджер его не заблокировал. Ответы клиентам, которые написали сами, лимит новых чатов не задерживает.',
      loading: 'Загрузка…',
      enabled: 'Соблюдать темп (рекомендуется)',
      warmUp: 'Прогрев нового номера: лимиты растут в первые дни',
      timeZone: 'Часовой пояс',
      quiet: 'Тихие часы для новых чатов',
      from: 'с',
      to: 'до',
      today: (day, sent, cap, first, firstCap) => `День ${day} после подключения: сегодня ${sent} из ${cap} сообщений, ${first} из ${firstCap} новых чатов.`,
      queue: (waiting, held) => `В очереди ${waiting}, из них отложено темпом ${held}.`,
      next: (at) => `Следующая отправка не раньше ${at}.`,
      slowed: (until) => `Мессенджер попросил писать реже: медленнее до ${until}.`,
      save: 'Сохранить',
      saving: 'Сохранение…',
      saved: 'Сохранено.',
      close: 'Закрыть',
    },
  },
);
