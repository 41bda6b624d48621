import { useConnection } from '@/lib/embed-context.tsx';
import { catalog, useWords } from '@/lib/i18n.ts';

const words = catalog(
  {
    offline: 'Offline: reconnecting… What happens meanwhile shows once the connection is back.',
    ended: 'This session has ended. The page must open the frame again with a new link (reload the page).',
  },
  {
    ru: {
      offline: 'Нет связи: переподключение… Всё, что произойдёт за это время, появится, когда связь вернётся.',
      ended: 'Сеанс завершён. Страница должна открыть окно заново по новой ссылке (обновите страницу).',
    },
    es: {
      offline: 'Sin conexión: reconectando… Lo que ocurra mientras tanto aparecerá cuando vuelva la conexión.',
      ended: 'Esta sesión ha terminado. La página debe abrir el marco de nuevo con un enlace nuevo (recargue la página).',
    },
    pt: {
      offline: 'Sem conexão: reconectando… O que acontecer nesse meio-tempo aparecerá quando a conexão voltar.',
      ended: 'Esta sessão terminou. A página precisa abrir o quadro de novo com um link novo (recarregue a página).',
    },
  },
);

/** Says, across the top of a screen, that the stream is down (it catches up by itself) or the session is over. */
export function ConnectionBanner() {
  const connection = useConnection();
  const w = useWords(words);
  if (connection === 'online') return null;
  const ended = connection === 'ended';
  return (
    <p className={`col-span-full m-0 px-3 py-1.5 text-center text-[13px] ${ended ? 'bg-danger-bg text-danger' : 'bg-progress-bg text-progress'}`} role={ended ? 'alert' : 'status'}>
      {ended ? w.ended : w.offline}
    </p>
  );
}
