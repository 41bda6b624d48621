import { catalog } from '@/lib/i18n.ts';

/** The media viewer and the document cards. */
export const mediaWords = catalog(
  {
    open: (name: string) => `Open ${name}`,
    viewer: (name: string) => `Viewing ${name}`,
    position: (at: number, of: number) => `${at} of ${of}`,
    previous: 'Previous',
    next: 'Next',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    actualSize: (percent: number) => `${percent}%, fit to the window`,
    download: 'Download',
    close: 'Close',
    kinds: { pdf: 'PDF document', doc: 'Word document', sheet: 'Spreadsheet', slides: 'Presentation', archive: 'Archive', text: 'Text', audio: 'Audio', file: 'File' },
  },
  {
    ru: {
      open: (name) => `Открыть ${name}`,
      viewer: (name) => `Просмотр: ${name}`,
      position: (at, of) => `${at} из ${of}`,
      previous: 'Предыдущий',
      next: 'Следующий',
      zoomIn: 'Увеличить',
      zoomOut: 'Уменьшить',
      actualSize: (percent) => `${percent}%, по размеру окна`,
      download: 'Скачать',
      close: 'Закрыть',
      kinds: { pdf: 'Документ PDF', doc: 'Документ Word', sheet: 'Таблица', slides: 'Презентация', archive: 'Архив', text: 'Текст', audio: 'Аудио', file: 'Файл' },
    },
  },
);
