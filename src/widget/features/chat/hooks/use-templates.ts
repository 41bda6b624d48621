import { useCallback, useEffect, useState } from 'react';
import type { Template } from '../../../../contract/templates.ts';
import type { BffClient } from '../../../lib/bff-client.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { getTemplates } from '../api/get-templates.ts';
import { sendableTemplates } from '../store/template-form.ts';

export type TemplatesState = { phase: 'loading' } | { phase: 'failed'; error: string } | { phase: 'ready'; templates: Template[] };

/**
 * The templates a chat's channel can send now, read when the form opens (moderation changes them between
 * uses, so they are not kept once it closes).
 */
export function useTemplates(client: BffClient, channelId: string): { state: TemplatesState; retry(): void } {
  const [state, setState] = useState<TemplatesState>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const lang = useCurrentLang();
  useEffect(() => {
    let wanted = true;
    setState({ phase: 'loading' });
    getTemplates(client, channelId).then(
      (templates) => wanted && setState({ phase: 'ready', templates: sendableTemplates(templates, channelId) }),
      (err: unknown) => wanted && setState({ phase: 'failed', error: refusalOf(err, {}, lang()).message }),
    );
    return () => {
      wanted = false;
    };
  }, [client, channelId, attempt, lang]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
