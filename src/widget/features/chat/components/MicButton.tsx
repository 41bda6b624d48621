import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { catalog, useWords } from '@/lib/i18n.ts';

const micWords = catalog(
  {
    record: 'Record a voice message',
    stop: (seconds: number) => `Stop recording (${seconds} s)`,
    cancel: 'Cancel the recording',
    recording: (seconds: number) => `Recording… ${seconds} s`,
    denied: 'The microphone is not allowed here',
  },
  {
    ru: {
      record: 'Записать голосовое сообщение',
      stop: (seconds: number) => `Остановить запись (${seconds} с)`,
      cancel: 'Отменить запись',
      recording: (seconds: number) => `Идёт запись… ${seconds} с`,
      denied: 'Микрофон здесь не разрешён',
    },
    es: {
      record: 'Grabar un mensaje de voz',
      stop: (seconds: number) => `Detener la grabación (${seconds} s)`,
      cancel: 'Cancelar la grabación',
      recording: (seconds: number) => `Grabando… ${seconds} s`,
      denied: 'El micrófono no está permitido aquí',
    },
    pt: {
      record: 'Gravar uma mensagem de voz',
      stop: (seconds: number) => `Parar a gravação (${seconds} s)`,
      cancel: 'Cancelar a gravação',
      recording: (seconds: number) => `Gravando… ${seconds} s`,
      denied: 'O microfone não é permitido aqui',
    },
  },
);

/**
 * The type a voice note is recorded in: Ogg/Opus where the browser records it (WhatsApp and Telegram take it as a
 * voice message), else WebM/Opus (Chromium), whose Opus the gateway moves into Ogg as it sends.
 */
export function voiceType(isSupported: (type: string) => boolean): { recorder: string; file: string; ext: string } | null {
  if (isSupported('audio/ogg;codecs=opus')) return { recorder: 'audio/ogg;codecs=opus', file: 'audio/ogg', ext: 'ogg' };
  if (isSupported('audio/webm;codecs=opus')) return { recorder: 'audio/webm;codecs=opus', file: 'audio/webm', ext: 'webm' };
  return null;
}

const canRecord = () => typeof MediaRecorder !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia) && voiceType((t) => MediaRecorder.isTypeSupported(t)) !== null;

/**
 * Records a voice note with the microphone (the host's iframe must allow it: `allow="microphone"`); stopped, it
 * becomes the composer's file, sent with the Send button as any file is. Absent where the browser cannot record.
 */
export function MicButton({ onRecorded, disabled }: { onRecorded(file: File): void; disabled?: boolean }) {
  const w = useWords(micWords);
  const [recording, setRecording] = useState<{ recorder: MediaRecorder; started: number } | null>(null);
  const [seconds, setSeconds] = useState(0);
  const [denied, setDenied] = useState(false);
  const keep = useRef(true);
  useEffect(() => {
    if (!recording) return undefined;
    const timer = setInterval(() => setSeconds(Math.round((Date.now() - recording.started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [recording]);
  // A recording left running when the chat closes is dropped, and the microphone let go.
  useEffect(
    () => () => {
      if (recording?.recorder.state !== 'recording') return;
      keep.current = false;
      recording.recorder.stop();
    },
    [recording],
  );
  if (!canRecord()) return null;

  const start = async () => {
    const type = voiceType((t) => MediaRecorder.isTypeSupported(t))!;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setDenied(true);
      return;
    }
    setDenied(false);
    const recorder = new MediaRecorder(stream, { mimeType: type.recorder });
    const parts: Blob[] = [];
    recorder.ondataavailable = (e) => parts.push(e.data);
    recorder.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      setRecording(null);
      if (keep.current && parts.length > 0) onRecorded(new File(parts, `voice-${new Date().toISOString().replace(/[:.]/g, '-')}.${type.ext}`, { type: type.file }));
    };
    keep.current = true;
    recorder.start();
    setSeconds(0);
    setRecording({ recorder, started: Date.now() });
  };
  const stop = (kept: boolean) => {
    keep.current = kept;
    recording?.recorder.stop();
  };

  if (recording)
    return (
      <span className="flex flex-none items-center gap-1.5">
        {/* Short on screen, so a narrow composer keeps its text box; whole for screen readers. */}
        <span className="text-xs whitespace-nowrap text-danger" role="status">
          <span aria-hidden="true">● {seconds}</span>
          <span className="sr-only">{w.recording(seconds)}</span>
        </span>
        <Button className="flex-none px-2.5" aria-label={w.cancel} title={w.cancel} onClick={() => stop(false)}>
          ✕
        </Button>
        <Button variant="primary" className="flex-none px-2.5" aria-label={w.stop(seconds)} title={w.stop(seconds)} onClick={() => stop(true)}>
          ■
        </Button>
      </span>
    );
  return (
    <>
      <Button className="flex-none px-2.5" aria-label={w.record} title={denied ? w.denied : w.record} disabled={disabled} onClick={() => void start()}>
        <svg className="block size-[18px]" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round">
          <rect x="9" y="3" width="6" height="11" rx="3" />
          <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
        </svg>
      </Button>
      {denied && (
        <span className="text-xs text-danger" role="status">
          {w.denied}
        </span>
      )}
    </>
  );
}
