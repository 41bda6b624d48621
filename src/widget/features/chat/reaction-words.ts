import { catalog } from '@/lib/i18n.ts';

/** The words of reactions: the chips under a message and the button that opens the quick choice. */
export const reactionWords = catalog(
  {
    react: 'React',
    reactLabel: 'React to the message',
    choose: 'Reactions',
    take: (emoji: string) => `Take back your ${emoji}`,
    give: (emoji: string) => `React with ${emoji}`,
    chip: (emoji: string, count: number, yours: boolean) => `${emoji} ${count}${yours ? ', yours among them' : ''}`,
    failed: 'The reaction was not sent',
  },
  {
    ru: {
      react: 'Реакция',
      reactLabel: 'Отреагировать на сообщение',
      choose: 'Реакции',
      take: (emoji: string) => `Убрать свою реакцию ${emoji}`,
      give: (emoji: string) => `Отреагировать: ${emoji}`,
      chip: (emoji: string, count: number, yours: boolean) => `${emoji} ${count}${yours ? ', в том числе ваша' : ''}`,
      failed: 'Реакция не отправлена',
    },
    es: {
      react: 'Reaccionar',
      reactLabel: 'Reaccionar al mensaje',
      choose: 'Reacciones',
      take: (emoji: string) => `Quitar su ${emoji}`,
      give: (emoji: string) => `Reaccionar con ${emoji}`,
      chip: (emoji: string, count: number, yours: boolean) => `${emoji} ${count}${yours ? ', incluida la suya' : ''}`,
      failed: 'La reacción no se envió',
    },
    pt: {
      react: 'Reagir',
      reactLabel: 'Reagir à mensagem',
      choose: 'Reações',
      take: (emoji: string) => `Remover sua reação ${emoji}`,
      give: (emoji: string) => `Reagir com ${emoji}`,
      chip: (emoji: string, count: number, yours: boolean) => `${emoji} ${count}${yours ? ', incluindo a sua' : ''}`,
      failed: 'A reação não foi enviada',
    },
  },
);
